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

// Univariate rational reconstruction in about N + D + 3 points for degrees
// (N, D), where Thiele needs 2 max(N, D) + 2 (a line of degrees (300, 15):
// 318 points instead of 601). A Newton interpolant P through the points, then
// the extended Euclidean algorithm on (prod (t - t_i), P): each remainder r_j
// is t_j P mod the product, and the answer is the pair after the quotient of
// largest degree (Monagan's maximal quotient rational reconstruction, ISSAC
// 2004, for polynomials). It is recomputed when the current one fails to
// predict a new point, at most every size/32 points (so that the work stays
// below ~32 k^2 for k points); a candidate that predicts the next point is
// the answer. A polynomial ends as soon as Newton's interpolant predicts.
// `batch`: the caller probes points in batches of that many, all spent
// anyway, so the reconstruction runs only at the last-but-one point of a
// batch (the last one checks it): no more batches, batch times fewer
// Euclidean runs.
class RationalFit {
 public:
  enum class Added { extended, predicted };
  explicit RationalFit(const field::Zp64& f, std::size_t batch = 1)
      : f_(f), batch_(batch == 0 ? 1 : batch) {}
  Added add(std::uint64_t x, std::uint64_t y);
  std::size_t size() const { return nodes_.size(); }
  // The last candidate as num/den (lowest degree first, no trailing zeros;
  // num {0} for zero).
  void to_rational(std::vector<std::uint64_t>& num, std::vector<std::uint64_t>& den) const;

 private:
  void reconstruct();
  field::Zp64 f_;
  std::vector<std::uint64_t> nodes_, differences_;  // Newton's nodes and divided differences
  std::vector<std::uint64_t> product_;              // prod (t - t_i), lowest first
  std::vector<std::uint64_t> poly_;                 // Newton's interpolant, monomial basis
  std::vector<std::uint64_t> r0_, r1_, t0_, t1_;    // Euclidean work space
  std::vector<std::uint64_t> num_, den_;            // the candidate (empty: none)
  std::size_t since_ = 0;                           // points since the last reconstruction
  std::size_t batch_ = 1;
};

}  // namespace hepex::reconstruct::detail
