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

}  // namespace hepex::reconstruct::detail
