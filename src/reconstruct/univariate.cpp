#include "hepex/reconstruct/detail/univariate.hpp"

#include <algorithm>

namespace hepex::reconstruct::detail {

namespace {

void trim(std::vector<std::uint64_t>& p) {
  while (!p.empty() && p.back() == 0) p.pop_back();
}

// a + b (lowest first), sized to the longer.
std::vector<std::uint64_t> plus(const field::Zp64& f, std::vector<std::uint64_t> a,
                                const std::vector<std::uint64_t>& b) {
  if (a.size() < b.size()) a.resize(b.size(), 0);
  for (std::size_t k = 0; k < b.size(); ++k) a[k] = f.add(a[k], b[k]);
  return a;
}

}  // namespace

void multiply_linear(const field::Zp64& f, std::vector<std::uint64_t>& p, std::uint64_t root) {
  p.push_back(0);
  for (std::size_t k = p.size() - 1; k > 0; --k) p[k] = f.sub(p[k - 1], f.mul(root, p[k]));
  p[0] = f.neg(f.mul(root, p[0]));
}

void NewtonBatch::add(std::uint64_t x, const std::uint64_t* y) {
  // The divided difference [x_0..x_k] of each function: with nodes shared, the
  // denominators prod (x - x_j) are the same for all functions.
  std::uint64_t den = 1;
  const std::size_t k = nodes_.size();
  std::vector<std::uint64_t> num(y, y + functions_);
  for (std::size_t j = 0; j < k; ++j) {
    // c_k = (..((y - c_0)/(x - x_0) - c_1)/(x - x_1) ..): keep num/den.
    for (std::size_t i = 0; i < functions_; ++i) {
      num[i] = f_.sub(num[i], f_.mul(differences_[j * functions_ + i], den));
    }
    den = f_.mul(den, f_.sub(x, nodes_[j]));
  }
  const std::uint64_t inverse = f_.inv(den);
  for (std::size_t i = 0; i < functions_; ++i) {
    predicted_[i] = num[i] == 0 ? 1 : 0;
    differences_.push_back(f_.mul(num[i], inverse));
  }
  nodes_.push_back(x);
}

bool NewtonBatch::converged() const {
  return nodes_.size() >= 2 &&
         std::all_of(predicted_.begin(), predicted_.end(), [](std::uint8_t p) { return p != 0; });
}

std::vector<std::uint64_t> NewtonBatch::monomial(std::size_t k) const {
  // Horner on the Newton form: p = c_m; p = p*(x - x_j) + c_j for j = m-1..0.
  std::vector<std::uint64_t> p;
  for (std::size_t j = nodes_.size(); j-- > 0;) {
    multiply_linear(f_, p, nodes_[j]);
    p = plus(f_, std::move(p), {differences_[j * functions_ + k]});
  }
  trim(p);
  return p;
}

Thiele::Added Thiele::add(std::uint64_t x, std::uint64_t y) {
  // Inverse differences: v <- (x - x_j) / (v - b_j), kept as num/den.
  std::uint64_t num = y, den = 1;
  const std::size_t k = coefficients_.size();
  for (std::size_t j = 0; j < k; ++j) {
    const std::uint64_t d = f_.sub(num, f_.mul(coefficients_[j], den));
    if (d == 0) return j + 1 == k ? Added::predicted : Added::degenerate;
    num = f_.mul(f_.sub(x, nodes_[j]), den);
    den = d;
  }
  nodes_.push_back(x);
  coefficients_.push_back(f_.mul(num, f_.inv(den)));
  return Added::extended;
}

void Thiele::to_rational(std::vector<std::uint64_t>& num, std::vector<std::uint64_t>& den) const {
  // From the bottom: N/D <- b_j + (x - x_j) / (N/D) = (b_j N + (x - x_j) D) / N.
  num.assign(1, coefficients_.empty() ? 0 : coefficients_.back());
  den.assign(1, 1);
  for (std::size_t j = coefficients_.size() - 1; coefficients_.size() > 1 && j-- > 0;) {
    std::vector<std::uint64_t> scaled = num;
    for (auto& c : scaled) c = f_.mul(c, coefficients_[j]);
    multiply_linear(f_, den, nodes_[j]);
    std::vector<std::uint64_t> next = plus(f_, std::move(scaled), den);
    den = std::move(num);
    num = std::move(next);
  }
  trim(num);
  trim(den);
}

namespace {

std::uint64_t horner(const field::Zp64& f, const std::vector<std::uint64_t>& p, std::uint64_t x) {
  std::uint64_t v = 0;
  for (std::size_t k = p.size(); k-- > 0;) v = f.fma(v, x, p[k]);
  return v;
}

// a -= c * x^shift * b
void subtract_scaled(const field::Zp64& f, std::vector<std::uint64_t>& a,
                     const std::vector<std::uint64_t>& b, std::uint64_t c, std::size_t shift) {
  if (a.size() < b.size() + shift) a.resize(b.size() + shift, 0);
  const std::uint64_t c_shoup = f.shoup(c);  // c is fixed: Shoup products
  for (std::size_t k = 0; k < b.size(); ++k)
    a[k + shift] = f.sub(a[k + shift], f.mul_shoup(b[k], c, c_shoup));
}

}  // namespace

RationalFit::Added RationalFit::add(std::uint64_t x, std::uint64_t y) {
  const bool predicted = !den_.empty() && [&] {
    const std::uint64_t d = horner(f_, den_, x);
    return d != 0 && f_.mul(horner(f_, num_, x), f_.inv(d)) == y;
  }();
  // Newton's divided difference c_k = [t_0..t_k] (kept as num/den: one
  // inversion), then P_k = P_{k-1} + c_k prod_{j<k} (t - t_j): the monomial
  // form kept up to date in O(k) a point.
  std::uint64_t num = y, den = 1;
  for (std::size_t j = 0; j < nodes_.size(); ++j) {
    num = f_.sub(num, f_.mul(differences_[j], den));
    den = f_.mul(den, f_.sub(x, nodes_[j]));
  }
  const std::uint64_t c = num == 0 ? 0 : f_.mul(num, f_.inv(den));
  nodes_.push_back(x);
  differences_.push_back(c);
  if (product_.empty()) product_.assign(1, 1);
  if (poly_.size() < product_.size()) poly_.resize(product_.size(), 0);
  if (c != 0) {
    const std::uint64_t c_shoup = f_.shoup(c);
    for (std::size_t k = 0; k < product_.size(); ++k)
      poly_[k] = f_.add(poly_[k], f_.mul_shoup(product_[k], c, c_shoup));
  }
  multiply_linear(f_, product_, x);
  if (predicted) return Added::predicted;
  if (nodes_.size() >= 2 && c == 0) {
    // The polynomial through the earlier points gave y (its new divided
    // difference is zero): a polynomial, found without the Euclidean steps.
    num_ = poly_;
    trim(num_);
    if (num_.empty()) num_.assign(1, 0);
    den_.assign(1, 1);
    return Added::predicted;
  }
  ++since_;
  if (batch_ > 1 && size() % batch_ != batch_ - 1) return Added::extended;
  if (since_ >= std::max<std::size_t>(1, size() / 32)) reconstruct();
  return Added::extended;
}

void RationalFit::reconstruct() {
  since_ = 0;
  num_.clear();
  den_.clear();
  // r0 = prod (t - t_i), r1 = P; t0 = 0, t1 = 1, with r_j = t_j P mod r0.
  // In place: r0 <- r0 mod r1, t0 <- t0 - q t1, then the pairs swap.
  std::vector<std::uint64_t>& r0 = r0_;
  std::vector<std::uint64_t>& r1 = r1_;
  std::vector<std::uint64_t>& t0 = t0_;
  std::vector<std::uint64_t>& t1 = t1_;
  r0 = product_;
  r1 = poly_;
  t0.clear();
  t1.assign(1, 1);
  trim(r1);
  if (r1.empty()) {  // zero at every point so far
    num_.assign(1, 0);
    den_.assign(1, 1);
    return;
  }
  std::size_t best_gap = 0;
  while (!r1.empty()) {
    const std::size_t gap = r0.size() - r1.size();  // deg r0 - deg r1: the next quotient's degree
    if (gap + 1 > best_gap) {
      best_gap = gap + 1;
      num_ = r1;
      den_ = t1;
    }
    // Every later quotient has degree <= deg r1: none can beat best_gap.
    if (r1.size() - 1 < best_gap) break;
    const std::uint64_t lead = f_.inv(r1.back());
    while (r0.size() >= r1.size() && !r0.empty()) {
      const std::uint64_t c = f_.mul(r0.back(), lead);
      const std::size_t shift = r0.size() - r1.size();
      subtract_scaled(f_, r0, r1, c, shift);
      subtract_scaled(f_, t0, t1, c, shift);
      r0.pop_back();
      trim(r0);
    }
    trim(t0);
    std::swap(r0, r1);
    std::swap(t0, t1);
  }
  trim(den_);
  if (den_.empty()) {
    num_.clear();
    return;
  }
}

void RationalFit::to_rational(std::vector<std::uint64_t>& num,
                              std::vector<std::uint64_t>& den) const {
  num = num_.empty() ? std::vector<std::uint64_t>{0} : num_;
  den = den_.empty() ? std::vector<std::uint64_t>{1} : den_;
  trim(num);
  if (num.empty()) num.assign(1, 0);
}

}  // namespace hepex::reconstruct::detail
