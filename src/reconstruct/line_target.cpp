#include "hepex/reconstruct/detail/line_target.hpp"

#include <algorithm>

#include "hepex/core/progress.hpp"
#include "hepex/reconstruct/detail/univariate.hpp"

namespace hepex::reconstruct::detail {

namespace {

// Rounds of new t values per point before the point is given up.
constexpr std::size_t max_t_rounds = 16;

// Solves the U x U system a x = b mod p in place (row-major): forward
// elimination with Shoup products by the pivot row (fixed for all rows below
// it), then back substitution. False when singular.
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

// The homogeneous part of degree r with dehomogenised polynomial p (z the
// variables x_1..) at x = (x_0, x_1, ..).
std::uint64_t homogeneous_value(const field::Zp64& f, const PolynomialModP& p, std::size_t r,
                                std::uint64_t x0, const std::uint64_t* x) {
  std::uint64_t sum = 0;
  for (std::size_t t = 0; t < p.terms(); ++t) {
    const std::uint32_t* e = p.exponent(t);
    std::uint64_t m = p.coefficients[t];
    std::size_t degree = 0;
    for (std::size_t l = 0; l < p.variables; ++l) {
      if (e[l] == 0) continue;
      m = f.mul(m, f.pow(x[l], e[l]));
      degree += e[l];
    }
    sum = f.add(sum, f.mul(m, f.pow(x0, r - std::min(r, degree))));
  }
  return sum;
}

}  // namespace

LineTarget::LineTarget(const BlackBox& box, const field::Zp64& f, RandomElements& random,
                       std::vector<std::uint64_t> shift, LineDegrees degrees)
    : box_(box),
      f_(f),
      random_(random),
      shift_(std::move(shift)),
      shifted_(std::any_of(shift_.begin(), shift_.end(), [](std::uint64_t s) { return s != 0; })),
      degrees_(std::move(degrees)),
      n_(box.variables()) {
  const std::size_t F = box.functions();
  index_.resize(F);
  for (std::size_t g = 0; g < F; ++g) {
    index_[g].resize(2);
    for (int den = 0; den < 2; ++den) {
      const std::size_t top = den ? degrees_.den[g] : degrees_.num[g];
      index_[g][den].resize(top + 1);
      for (std::size_t r = 0; r <= top; ++r) {
        if (den && r == 0 && !shifted_) continue;  // D(0) = 1 by the normalisation
        index_[g][den][r] = parts_.size();
        parts_.push_back({g, den != 0, r});
      }
    }
  }
  known_.resize(parts_.size());
}

LineTarget::Slots LineTarget::slots(std::size_t g, const KnownValues& known,
                                    std::size_t point) const {
  // Shifted, every coefficient in t mixes several parts: all are unknown.
  const auto is_known = [&](std::size_t q) {
    return !shifted_ && known.mask[point * parts_.size() + q] != 0;
  };
  const auto value = [&](std::size_t q) { return known.values[point * parts_.size() + q]; };
  Slots s;
  s.num.assign(degrees_.num[g] + 1, 0);
  s.den.assign(degrees_.den[g] + 1, 0);
  s.den[0] = 1;  // d(0) = 1 along every line
  for (std::size_t r = 0; r < s.num.size(); ++r) {
    const std::size_t q = *index_[g][0][r];
    if (is_known(q)) s.num[r] = value(q);
    else s.unknown_num.push_back(r);
  }
  for (std::size_t r = 1; r < s.den.size(); ++r) {
    const std::size_t q = *index_[g][1][r];
    if (is_known(q)) s.den[r] = value(q);
    else s.unknown_den.push_back(r);
  }
  return s;
}

bool LineTarget::fit(const field::Zp64& f, Slots& s, const std::uint64_t* t,
                     const std::uint64_t* y, std::size_t stride) const {
  // sum_{unknown r} N_r t^r - y sum_{unknown r} D_r t^r
  //   = y (1 + sum_{known r} D_r t^r) - sum_{known r} N_r t^r.
  const std::size_t U = s.unknowns();
  std::vector<std::uint64_t> a(U * U), b(U);
  std::vector<std::uint64_t> power(std::max(s.num.size(), s.den.size()), 1);
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

void LineTarget::evaluate(const field::Zp64& f, std::size_t count,
                          const std::vector<std::uint64_t>& z, const KnownValues& known,
                          std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) {
  const std::size_t F = box_.functions(), m = n_ - 1, P = parts_.size();
  // Per point: each function's slots; the t values it needs (the most
  // unknowns of any function there: one probe gives all functions).
  std::vector<std::vector<Slots>> slot(count);
  std::vector<std::size_t> needed(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t g = 0; g < F; ++g) {
      slot[i].push_back(slots(g, known, i));
      needed[i] = std::max(needed[i], slot[i].back().unknowns());
    }
  }
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
  for (std::size_t i = 0; i < count; ++i) {
    interruption_point();  // a fit is a dense solve: many of them take a while
    if (ts[i].size() < needed[i]) {
      ok[i] = 0;
      continue;
    }
    for (std::size_t g = 0; g < F && ok[i]; ++g) {
      Slots& s = slot[i][g];
      if (s.unknowns() > 0 && !fit(f, s, ts[i].data(), ys[i].data() + g, F)) {
        ok[i] = 0;
        break;
      }
      for (std::size_t r = 0; r < s.num.size(); ++r) values[i * P + *index_[g][0][r]] = s.num[r];
      for (std::size_t r = 0; r < s.den.size(); ++r)
        if (index_[g][1][r]) values[i * P + *index_[g][1][r]] = s.den[r];
    }
  }
}

bool LineTarget::ready(std::size_t q) const {
  if (!shifted_) return true;
  const Part& p = parts_[q];
  const auto& chain = index_[p.g][p.den];
  for (std::size_t r = p.r + 1; r < chain.size(); ++r)
    if (!known_[*chain[r]]) return false;
  return true;
}

void LineTarget::finished(std::size_t q, const PolynomialModP& p) { known_[q] = p; }

std::uint64_t LineTarget::adjust(std::size_t q, const std::uint64_t* z, std::uint64_t raw) {
  if (!shifted_) return raw;
  const Part& p = parts_[q];
  return f_.sub(raw, known_along_line(p.g, p.den, p.r, z));
}

std::uint64_t LineTarget::known_along_line(std::size_t g, bool den, std::size_t r,
                                           const std::uint64_t* z) {
  const auto& chain = index_[g][den];
  std::size_t known = 0;
  for (const auto& q : chain) known += q && known_[*q] ? 1 : 0;
  if (known == 0) return 0;
  const std::size_t m = n_ - 1;
  std::vector<std::uint64_t> key(z, z + m);
  key.push_back(g);
  key.push_back(den ? 1 : 0);
  auto& memo = along_[key];
  if (memo.first != known || memo.second.empty()) {
    // K(t (1, z) + s) at t = 1..D+1, interpolated.
    const std::size_t D = chain.size() - 1;
    NewtonBatch newton(f_, 1);
    std::vector<std::uint64_t> x(m);
    for (std::uint64_t t = 1; t <= D + 1; ++t) {
      const std::uint64_t x0 = f_.add(t, shift_[0]);
      for (std::size_t l = 0; l < m; ++l) x[l] = f_.fma(t, z[l], shift_[l + 1]);
      std::uint64_t sum = 0;
      for (std::size_t degree = 0; degree <= D; ++degree) {
        const auto& q = chain[degree];
        if (q && known_[*q]) sum = f_.add(sum, homogeneous_value(f_, *known_[*q], degree, x0, x.data()));
      }
      newton.add(t, &sum);
    }
    memo = {known, newton.monomial(0)};
    memo.second.resize(D + 1, 0);
  }
  return memo.second[r];
}

}  // namespace hepex::reconstruct::detail
