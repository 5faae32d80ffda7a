#include "hepex/reconstruct/detail/line_target.hpp"

#include <algorithm>

#include "hepex/core/progress.hpp"

namespace hepex::reconstruct::detail {

namespace {

// Rounds of new t values per point before the point is given up.
constexpr std::size_t max_t_rounds = 16;

}  // namespace

// Forward elimination with Shoup products by the pivot row (fixed for all
// rows below it), then back substitution.
bool solve_dense(const field::Zp64& f, std::size_t U, std::vector<std::uint64_t>& a,
                 std::vector<std::uint64_t>& b) {
  std::vector<std::uint64_t> shoup(U);
  for (std::size_t c = 0; c < U; ++c) {
    std::size_t pivot = c;
    while (pivot < U && a[pivot * U + c] == 0) ++pivot;
    if (pivot == U) return false;
    if (pivot != c) {
      std::swap_ranges(a.begin() + pivot * U, a.begin() + (pivot + 1) * U, a.begin() + c * U);
      std::swap(b[pivot], b[c]);
    }
    const std::uint64_t inverse = f.inv(a[c * U + c]);
    for (std::size_t k = c; k < U; ++k) {
      a[c * U + k] = f.mul(a[c * U + k], inverse);
      shoup[k] = f.shoup(a[c * U + k]);
    }
    b[c] = f.mul(b[c], inverse);
    const std::uint64_t b_shoup = f.shoup(b[c]);
    for (std::size_t r = c + 1; r < U; ++r) {
      const std::uint64_t factor = a[r * U + c];
      if (factor == 0) continue;
      std::uint64_t* row = a.data() + r * U;
      for (std::size_t k = c + 1; k < U; ++k)
        row[k] = f.sub(row[k], f.mul_shoup(factor, a[c * U + k], shoup[k]));
      row[c] = 0;
      b[r] = f.sub(b[r], f.mul_shoup(factor, b[c], b_shoup));
    }
  }
  for (std::size_t c = U; c-- > 0;)
    for (std::size_t k = c + 1; k < U; ++k) b[c] = f.sub(b[c], f.mul(a[c * U + k], b[k]));
  return true;
}

LineTarget::LineTarget(const BlackBox& box, const field::Zp64& f, RandomElements& random,
                       std::vector<std::uint64_t> shift, std::vector<LineShape> shapes,
                       HostThreads* threads)
    : box_(box),
      random_(random),
      threads_(threads),
      shift_(std::move(shift)),
      shapes_(std::move(shapes)),
      n_(box.variables()) {
  (void)f;
  const std::size_t F = box.functions();
  index_.resize(F);
  for (std::size_t g = 0; g < F; ++g) {
    const LineShape& shape = shapes_[g];
    index_[g].resize(2);
    for (int den = 0; den < 2; ++den) {
      const std::size_t top = den ? shape.den_degree : shape.num_degree;
      index_[g][den].assign(top + 1, -1);
      for (std::size_t r = 0; r <= top; ++r) {
        const bool normalising = shape.normalised && r == 0 && (den != 0) != shape.num_side;
        if (normalising || shape.zero(den != 0, r)) continue;
        index_[g][den][r] = static_cast<long>(parts_.size());
        parts_.push_back({g, den != 0, r});
      }
    }
  }
}

void LineTarget::slots(std::size_t g, const KnownValues& known, std::size_t point, Slots& s) const {
  const LineShape& shape = shapes_[g];
  s.num.assign(shape.num_degree + 1, 0);
  s.den.assign(shape.den_degree + 1, 0);
  s.unknown_num.clear();
  s.unknown_den.clear();
  if (shape.normalised) (shape.num_side ? s.num : s.den)[0] = 1;  // along every line
  for (int den = 0; den < 2; ++den) {
    auto& values = den ? s.den : s.num;
    auto& unknown = den ? s.unknown_den : s.unknown_num;
    for (std::size_t r = 0; r < values.size(); ++r) {
      const long q = index_[g][den][r];
      if (q < 0) continue;  // the normalising 1, or a zero coefficient
      const std::size_t at = point * parts_.size() + static_cast<std::size_t>(q);
      if (known.mask[at] != 0) {
        values[r] = known.values[at];
      } else {
        unknown.push_back(r);
      }
    }
  }
}

std::size_t LineTarget::unknowns(std::size_t g, const KnownValues& known, std::size_t point) const {
  std::size_t count = 0;
  for (int den = 0; den < 2; ++den) {
    for (const long q : index_[g][den])
      if (q >= 0 && known.mask[point * parts_.size() + static_cast<std::size_t>(q)] == 0) ++count;
  }
  return count;
}

bool LineTarget::fit(const field::Zp64& f, Slots& s, const std::uint64_t* t, const std::uint64_t* y,
                     std::size_t stride) const {
  // sum_{unknown r} nu_r t^r - y sum_{unknown r} delta_r t^r
  //   = y sum_{known r} delta_r t^r - sum_{known r} nu_r t^r.
  const std::size_t U = s.unknowns();
  std::vector<std::uint64_t>& a = s.a;
  std::vector<std::uint64_t>& b = s.b;
  std::vector<std::uint64_t>& power = s.power;
  a.assign(U * U, 0);
  b.assign(U, 0);
  power.assign(std::max(s.num.size(), s.den.size()), 1);
  for (std::size_t row = 0; row < U; ++row) {
    const std::uint64_t y_row = y[row * stride];
    for (std::size_t r = 1; r < power.size(); ++r) power[r] = f.mul(power[r - 1], t[row]);
    std::size_t c = 0;
    for (const std::size_t r : s.unknown_num) a[row * U + c++] = power[r];
    for (const std::size_t r : s.unknown_den) a[row * U + c++] = f.neg(f.mul(y_row, power[r]));
    std::uint64_t den = 0, num = 0;
    for (std::size_t r = 0; r < s.den.size(); ++r) den = f.fma(s.den[r], power[r], den);
    for (std::size_t r = 0; r < s.num.size(); ++r) num = f.fma(s.num[r], power[r], num);
    b[row] = f.sub(f.mul(y_row, den), num);
  }
  if (!solve_dense(f, U, a, b)) return false;
  std::size_t c = 0;
  for (const std::size_t r : s.unknown_num) s.num[r] = b[c++];
  for (const std::size_t r : s.unknown_den) s.den[r] = b[c++];
  return true;
}

std::vector<std::uint8_t> LineTarget::known_needed(const std::vector<std::uint8_t>& passed,
                                                   const std::vector<std::size_t>& terms) const {
  // Per function: its coefficients still open here, and all of them. The
  // probe takes as many t values as the most open function has unknowns:
  // a function may leave that many coefficients unknown, its known ones
  // found again by the fit (a solve of at most that size, where the engine
  // would sum every term of every known coefficient: most of the algebra of
  // a large IBP table). Known values are asked for only beyond that, for
  // the coefficients with the fewest terms.
  const std::size_t F = box_.functions();
  std::vector<std::size_t> open(F, 0);
  for (std::size_t q = 0; q < parts_.size(); ++q)
    if (passed[q] == 0) ++open[parts_[q].g];
  const std::size_t most = F == 0 ? 0 : *std::max_element(open.begin(), open.end());
  std::vector<std::uint8_t> need(parts_.size(), known_unused);
  std::vector<std::size_t> k;  // function g's passed parts
  for (std::size_t g = 0; g < F; ++g) {
    if (open[g] == 0) continue;  // nothing to fit
    k.clear();
    for (const auto& side : index_[g])
      for (const long q : side)
        if (q >= 0 && passed[static_cast<std::size_t>(q)] != 0)
          k.push_back(static_cast<std::size_t>(q));
    if (k.empty()) continue;
    if (!shapes_[g].normalised) {
      // Unnormalised lines (known_support.hpp) are normalised by the known ones.
      for (const std::size_t q : k) need[q] = known_value;
      continue;
    }
    const std::size_t spare = most - open[g];  // known ones the fit may find again
    std::sort(k.begin(), k.end(),
              [&](std::size_t a, std::size_t b) { return terms[a] < terms[b]; });
    for (std::size_t c = 0; c < k.size(); ++c)
      need[k[c]] = c + spare < k.size() ? known_value : known_unknown;
  }
  return need;
}

void LineTarget::evaluate(const field::Zp64& f, std::size_t count,
                          const std::vector<std::uint64_t>& z, const KnownValues& known,
                          std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) {
  const std::size_t F = box_.functions(), m = n_ - 1, P = parts_.size();
  // Per point: each function's slots; the t values it needs (the most
  // unknowns of any function there: one probe gives all functions).
  std::vector<std::size_t> needed(count, 0);
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t g = 0; g < F; ++g) needed[i] = std::max(needed[i], unknowns(g, known, i));
  // Per point: the t values probed and the functions' values there.
  std::vector<std::vector<std::uint64_t>> ts(count), ys(count);
  for (std::size_t round = 0; round < max_t_rounds; ++round) {
    std::vector<std::size_t> owner;
    std::vector<std::uint64_t> points, tnew;
    for (std::size_t i = 0; i < count; ++i) {
      for (std::size_t k = ts[i].size(); k < needed[i]; ++k) {
        const std::uint64_t t = random_.next(f);
        owner.push_back(i);
        tnew.push_back(t);
        points.push_back(f.add(t, shift_[0]));
        for (std::size_t l = 0; l < m; ++l) points.push_back(f.fma(t, z[i * m + l], shift_[l + 1]));
      }
    }
    if (owner.empty()) break;
    std::vector<std::uint64_t> out;
    std::vector<std::uint8_t> good;
    box_.evaluate(f, owner.size(), points, out, good);
    for (std::size_t q = 0; q < owner.size(); ++q) {
      if (good[q] == 0) continue;
      ts[owner[q]].push_back(tnew[q]);
      ys[owner[q]].insert(ys[owner[q]].end(), out.begin() + q * F, out.begin() + (q + 1) * F);
    }
  }
  values.assign(count * P, 0);
  ok.assign(count, 1);
  for (std::size_t i = 0; i < count; ++i)
    if (ts[i].size() < needed[i]) ok[i] = 0;
  // One fit per (point, function), each a small dense solve writing only its
  // own parts: spread over the host threads (a singular fit marks its point).
  interruption_point();
  std::vector<std::uint8_t> singular(count * F, 0);
  for_each_on(
      threads_, count * F,
      [&](std::size_t begin, std::size_t end) {
        Slots s;
        for (std::size_t at = begin; at < end; ++at) {
          const std::size_t i = at / F, g = at % F;
          if (ok[i] == 0) continue;
          slots(g, known, i, s);
          if (s.unknowns() > 0 && !fit(f, s, ts[i].data(), ys[i].data() + g, F)) {
            singular[at] = 1;
            continue;
          }
          for (int den = 0; den < 2; ++den) {
            const auto& v = den ? s.den : s.num;
            for (std::size_t r = 0; r < v.size(); ++r) {
              const long q = index_[g][den][r];
              if (q >= 0) values[i * P + static_cast<std::size_t>(q)] = v[r];
            }
          }
        }
      },
      32);
  for (std::size_t at = 0; at < count * F; ++at)
    if (singular[at] != 0) ok[at / F] = 0;
}

}  // namespace hepex::reconstruct::detail
