#include "hepex/reconstruct/detail/line_target.hpp"

#include <algorithm>

#include "hepex/reconstruct/univariate.hpp"

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

LineTarget::Slots LineTarget::slots(std::size_t g) const {
  Slots s;
  for (std::size_t r = 0; r <= degrees_.num[g]; ++r)
    if (shifted_ || !known_[*index_[g][0][r]]) s.unknown_num.push_back(r);
  for (std::size_t r = 1; r <= degrees_.den[g]; ++r)
    if (shifted_ || !known_[*index_[g][1][r]]) s.unknown_den.push_back(r);
  return s;
}

bool LineTarget::fit(const field::Zp64& f, std::size_t g, const std::uint64_t* z, const Slots& s,
                     const std::vector<std::uint64_t>& t, const std::vector<std::uint64_t>& y,
                     std::vector<std::uint64_t>& out) const {
  // sum_{unknown r} N_r t^r - y sum_{unknown r} D_r t^r
  //   = y (1 + sum_{known r} D_r t^r) - sum_{known r} N_r t^r.
  const std::size_t U = s.unknown_num.size() + s.unknown_den.size();
  std::vector<std::uint64_t> known_num(degrees_.num[g] + 1, 0), known_den(degrees_.den[g] + 1, 0);
  known_den[0] = 1;
  if (!shifted_) {
    for (std::size_t r = 0; r < known_num.size(); ++r)
      if (known_[*index_[g][0][r]]) known_num[r] = reconstruct::evaluate(*known_[*index_[g][0][r]], f, z);
    for (std::size_t r = 1; r < known_den.size(); ++r)
      if (known_[*index_[g][1][r]]) known_den[r] = reconstruct::evaluate(*known_[*index_[g][1][r]], f, z);
  }
  std::vector<std::uint64_t> a(U * U), b(U);
  std::vector<std::uint64_t> power(std::max(known_num.size(), known_den.size()), 1);
  for (std::size_t row = 0; row < U; ++row) {
    for (std::size_t r = 1; r < power.size(); ++r) power[r] = f.mul(power[r - 1], t[row]);
    std::size_t c = 0;
    for (const std::size_t r : s.unknown_num) a[row * U + c++] = power[r];
    for (const std::size_t r : s.unknown_den) a[row * U + c++] = f.neg(f.mul(y[row], power[r]));
    std::uint64_t den = 0, num = 0;
    for (std::size_t r = 0; r < known_den.size(); ++r) den = f.fma(known_den[r], power[r], den);
    for (std::size_t r = 0; r < known_num.size(); ++r) num = f.fma(known_num[r], power[r], num);
    b[row] = f.sub(f.mul(y[row], den), num);
  }
  if (!solve_dense(f, U, a, b)) return false;
  out.assign(known_num.size() + known_den.size(), 0);  // numerator slots, then denominator's
  std::copy(known_num.begin(), known_num.end(), out.begin());
  std::copy(known_den.begin(), known_den.end(), out.begin() + known_num.size());
  std::size_t c = 0;
  for (const std::size_t r : s.unknown_num) out[r] = b[c++];
  for (const std::size_t r : s.unknown_den) out[known_num.size() + r] = b[c++];
  return true;
}

void LineTarget::evaluate(const field::Zp64& f, std::size_t count,
                          const std::vector<std::uint64_t>& z, std::vector<std::uint64_t>& values,
                          std::vector<std::uint8_t>& ok) {
  const std::size_t F = box_.functions(), m = n_ - 1;
  std::vector<Slots> slot(F);
  std::size_t U = 0;
  for (std::size_t g = 0; g < F; ++g) {
    slot[g] = slots(g);
    U = std::max(U, slot[g].unknown_num.size() + slot[g].unknown_den.size());
  }
  // Per point: the t values probed and the functions' values there.
  std::vector<std::vector<std::uint64_t>> ts(count), ys(count);
  for (std::size_t round = 0;; ++round) {
    std::vector<std::size_t> owner;
    std::vector<std::uint64_t> points, tnew;
    for (std::size_t i = 0; i < count; ++i) {
      if (round >= max_t_rounds) break;
      for (std::size_t k = ts[i].size(); k < U; ++k) {
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
  values.assign(count * parts_.size(), 0);
  ok.assign(count, 1);
  std::vector<std::uint64_t> y, slots_out;
  for (std::size_t i = 0; i < count && U > 0; ++i) {
    if (ts[i].size() < U) {
      ok[i] = 0;
      continue;
    }
    for (std::size_t g = 0; g < F && ok[i]; ++g) {
      y.resize(U);
      for (std::size_t k = 0; k < U; ++k) y[k] = ys[i][k * F + g];
      const std::vector<std::uint64_t> t(ts[i].begin(), ts[i].begin() + U);
      const Slots& s = slot[g];
      if (s.unknown_num.size() + s.unknown_den.size() == 0) continue;
      if (!fit(f, g, z.data() + i * m, s, t, y, slots_out)) {
        ok[i] = 0;
        break;
      }
      const std::size_t dn = degrees_.num[g];
      for (std::size_t r = 0; r <= dn; ++r) values[i * parts_.size() + *index_[g][0][r]] = slots_out[r];
      for (std::size_t r = 0; r <= degrees_.den[g]; ++r)
        if (index_[g][1][r]) values[i * parts_.size() + *index_[g][1][r]] = slots_out[dn + 1 + r];
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
