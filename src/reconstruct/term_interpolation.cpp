#include "hepex/reconstruct/detail/term_interpolation.hpp"

#include <algorithm>
#include <numeric>

#include "hepex/reconstruct/detail/univariate.hpp"

namespace hepex::reconstruct::detail {

GeometricPoints::GeometricPoints(const field::Zp64& f, std::uint64_t sigma, std::uint64_t g,
                                 std::size_t max_exponent)
    : f_(f), sigma_(sigma), g_(g), powers_(max_exponent + 1), order_(max_exponent + 1) {
  powers_[0] = 1;
  for (std::size_t e = 1; e <= max_exponent; ++e) powers_[e] = f.mul(powers_[e - 1], g);
  std::iota(order_.begin(), order_.end(), 0);
  std::sort(order_.begin(), order_.end(),
            [&](std::uint32_t a, std::uint32_t b) { return powers_[a] < powers_[b]; });
}

std::uint64_t GeometricPoints::point(std::size_t i) const {
  return f_.mul(sigma_, i < powers_.size() ? powers_[i] : f_.pow(g_, i));
}

long GeometricPoints::exponent_of(std::uint64_t r, std::size_t limit) const {
  const auto it =
      std::lower_bound(order_.begin(), order_.end(), r,
                       [&](std::uint32_t e, std::uint64_t v) { return powers_[e] < v; });
  if (it == order_.end() || powers_[*it] != r || *it > limit) return -1;
  return static_cast<long>(*it);
}

namespace {

// Berlekamp-Massey: the connection polynomial C (C[0] = 1, C.size() - 1 >= L)
// of the shortest linear recurrence of s, and its length L.
std::size_t berlekamp_massey(const field::Zp64& f, const std::vector<std::uint64_t>& s,
                             std::vector<std::uint64_t>& c) {
  c.assign(1, 1);
  std::vector<std::uint64_t> b(1, 1);
  std::size_t L = 0, m = 1;
  std::uint64_t bd = 1;
  for (std::size_t n = 0; n < s.size(); ++n) {
    std::uint64_t d = s[n];
    for (std::size_t i = 1; i <= L && i < c.size(); ++i) d = f.fma(c[i], s[n - i], d);
    if (d == 0) {
      ++m;
      continue;
    }
    const std::uint64_t scale = f.mul(d, f.inv(bd));
    const std::vector<std::uint64_t> previous = c;
    if (c.size() < b.size() + m) c.resize(b.size() + m, 0);
    for (std::size_t i = 0; i < b.size(); ++i) c[i + m] = f.sub(c[i + m], f.mul(scale, b[i]));
    if (2 * L <= n) {
      L = n + 1 - L;
      b = previous;
      bd = d;
      m = 1;
    } else {
      ++m;
    }
  }
  return L;
}

}  // namespace

bool TermInterpolation::add(const GeometricPoints& points, std::size_t i, std::uint64_t v) {
  if (done_) return true;
  const field::Zp64& f = points.field();
  const std::uint64_t x = points.point(i);
  if (!values_.empty() && i != first_ + values_.size()) consecutive_ = false;
  if (values_.empty()) {
    first_ = i;
    // Most terms need a few values: one allocation each, not a doubling run.
    const std::size_t expected = std::min<std::size_t>(budget_ + 2, 16);
    nodes_.reserve(expected);
    values_.reserve(expected);
    differences_.reserve(expected);
  }
  // Newton: the divided difference [x_0..x_k] kept as num/den (one inversion).
  std::uint64_t num = v, den = 1;
  for (std::size_t j = 0; j < nodes_.size(); ++j) {
    num = f.sub(num, f.mul(differences_[j], den));
    den = f.mul(den, f.sub(x, nodes_[j]));
  }
  nodes_.push_back(x);
  values_.push_back(v);
  differences_.push_back(f.mul(num, f.inv(den)));
  const std::size_t V = nodes_.size();
  if (V >= 2 && differences_.back() == 0) {  // predicted by the earlier values
    differences_.pop_back();
    nodes_.pop_back();
    finish_dense(f);
  } else if (bounded_ && V >= budget_ + 1) {  // exact through budget + 1 values
    finish_dense(f);
  } else if (consecutive_ && V >= 2 && try_sparse(points)) {
    done_ = true;
  }
  return done_;
}

void TermInterpolation::finish_dense(const field::Zp64& f) {
  // Horner on the Newton form: p = d_m; p = p (x - x_j) + d_j.
  std::vector<std::uint64_t> p;
  for (std::size_t j = differences_.size(); j-- > 0;) {
    multiply_linear(f, p, nodes_[j]);
    if (p.empty()) p.push_back(0);
    p[0] = f.add(p[0], differences_[j]);
  }
  while (!p.empty() && p.back() == 0) p.pop_back();
  coefficients_ = std::move(p);
  done_ = true;
}

bool TermInterpolation::try_sparse(const GeometricPoints& points) {
  const field::Zp64& f = points.field();
  std::vector<std::uint64_t> c;
  const std::size_t L = berlekamp_massey(f, values_, c);
  if (2 * L > values_.size()) return false;
  c.resize(L + 1, 0);
  // Roots of Z^L C(1/Z) = sum_i c_i Z^{L-i}, each some g^e with e <= budget.
  std::vector<std::size_t> exponents;
  std::vector<std::uint64_t> roots;
  if (L == 1) {
    const long e = points.exponent_of(f.neg(c[1]), budget_);
    if (e < 0) return false;
    exponents.push_back(static_cast<std::size_t>(e));
    roots.push_back(f.neg(c[1]));
  } else if (L > 1) {
    std::uint64_t r = 1;
    const std::uint64_t g = f.mul(points.point(1), f.inv(points.sigma()));
    for (std::size_t e = 0; e <= budget_ && roots.size() < L; ++e, r = f.mul(r, g)) {
      std::uint64_t value = 0;
      for (std::size_t k = 0; k <= L; ++k) value = f.fma(value, r, c[k]);
      if (value == 0) {
        exponents.push_back(e);
        roots.push_back(r);
      }
    }
    if (roots.size() != L) return false;
  }
  // Weights w_s with v_{first+k} = sum_s w_s rho_s^first rho_s^k, k < L: the
  // transposed Vandermonde solve of vandermonde.hpp in its O(L^2) form.
  std::size_t degree = 0;
  for (const std::size_t e : exponents) degree = std::max(degree, e);
  coefficients_.assign(L == 0 ? 0 : degree + 1, 0);
  std::vector<std::uint64_t> master(1, 1);
  for (const std::uint64_t r : roots) multiply_linear(f, master, r);
  for (std::size_t s = 0; s < L; ++s) {
    // P_s = P / (Z - rho_s) by synthetic division, from the top.
    std::uint64_t q = 1, sum = f.mul(q, values_[L - 1]), at = 1;  // q_{L-1} = 1
    for (std::size_t k = L - 1; k >= 1; --k) {
      q = f.fma(q, roots[s], master[k]);  // q_{k-1} = P_k + rho q_k
      sum = f.fma(q, values_[k - 1], sum);
    }
    for (std::size_t t = 0; t < L; ++t)
      if (t != s) at = f.mul(at, f.sub(roots[s], roots[t]));
    // a_e sigma^e rho^first = w; a_e = w / (sigma^e rho^first).
    const std::uint64_t scale = f.mul(f.pow(points.sigma(), exponents[s]), f.pow(roots[s], first_));
    coefficients_[exponents[s]] = f.mul(sum, f.inv(f.mul(at, scale)));
  }
  while (!coefficients_.empty() && coefficients_.back() == 0) coefficients_.pop_back();
  return true;
}

std::uint64_t TermInterpolation::evaluate(const field::Zp64& f, std::uint64_t x) const {
  std::uint64_t value = 0;
  for (std::size_t k = coefficients_.size(); k-- > 0;) value = f.fma(value, x, coefficients_[k]);
  return value;
}

}  // namespace hepex::reconstruct::detail
