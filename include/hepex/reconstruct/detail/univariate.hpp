#pragma once
// Univariate reconstruction mod p with early termination (host): Newton
// interpolation of polynomials (seed paper, eq. (1)) for many functions on
// shared nodes, and Thiele continued fractions of rational functions (eq. (2)).
// Both add one point at a time and report whether the interpolant through the
// earlier points already predicted it: a prediction that holds means the
// function is (with probability ~ degree/p) fully reconstructed.
// Inner updates are projective (numerator, denominator) so that each point
// costs one inversion, not one per step.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hepex/field/zp.hpp"

namespace hepex::reconstruct::detail {

// p <- p * (x - root); coefficients lowest degree first.
void multiply_linear(const field::Zp64& f, std::vector<std::uint64_t>& p, std::uint64_t root);

// Newton interpolation of `functions` polynomials sampled at the same nodes.
class NewtonBatch {
 public:
  NewtonBatch(const field::Zp64& f, std::size_t functions)
      : f_(f), functions_(functions), predicted_(functions, 0) {}

  // Adds node x (distinct from the earlier ones) with y[k] for function k.
  void add(std::uint64_t x, const std::uint64_t* y);
  std::size_t points() const { return nodes_.size(); }
  // Every function has at least two points and its last one was predicted.
  bool converged() const;
  // Coefficients of function k in the monomial basis, lowest degree first,
  // without trailing zeros (empty for the zero polynomial).
  std::vector<std::uint64_t> monomial(std::size_t k) const;

 private:
  field::Zp64 f_;
  std::size_t functions_;
  std::vector<std::uint64_t> nodes_;
  std::vector<std::uint64_t> differences_;  // points x functions divided differences
  std::vector<std::uint8_t> predicted_;
};

// Thiele interpolation f(x) = b0 + (x-x0)/(b1 + (x-x1)/(b2 + ...)).
class Thiele {
 public:
  enum class Added {
    extended,   // a new coefficient
    predicted,  // the continued fraction so far already gives y: complete
    degenerate  // the point hits a pole of a partial fraction: discard it
  };
  explicit Thiele(const field::Zp64& f) : f_(f) {}
  Added add(std::uint64_t x, std::uint64_t y);
  std::size_t size() const { return coefficients_.size(); }
  // The continued fraction as num/den (monomial coefficients, lowest degree
  // first, no trailing zeros; num empty for zero).
  void to_rational(std::vector<std::uint64_t>& num, std::vector<std::uint64_t>& den) const;

 private:
  field::Zp64 f_;
  std::vector<std::uint64_t> nodes_, coefficients_;
};

}  // namespace hepex::reconstruct::detail
