#pragma once
// Zippel's sparse interpolation of polynomials mod p, variable by variable
// (seed paper §1; Zippel, EUROSAM 1979; Kaltofen-Lee-Lobo, ISSAC 2000 for
// early termination).
//
// Stage k adds x_k to the polynomials known in x_0..x_{k-1} (with
// x_{k+1}.. fixed at random anchors a): their monomials form the skeleton;
// for each new value c of x_k, probing at (y_0^j, .., y_{k-1}^j, c, a..),
// j = 1..T+1, gives a transposed Vandermonde system (vandermonde.hpp) for the
// T skeleton coefficients, the extra probe checking the skeleton; Newton in
// x_k (univariate.hpp) across the values c then lifts each coefficient to a
// polynomial in x_k, stopping once every one is predicted by the earlier
// values. All functions of the black box go through each stage together.

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hepex/field/zp.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/polynomial.hpp"

namespace hepex::reconstruct {

struct ZippelOptions {
  // Newton points per variable at most (degree + 2): beyond this the
  // reconstruction stops with ErrorKind::negative_answer.
  std::size_t max_degree = 200;
  // Values of the next variable solved per launch.
  std::size_t values_per_round = 2;
  std::ostream* progress = nullptr;
};

// Random choices met a measure-zero event (coinciding Vandermonde nodes, a
// skeleton contradicted by its check probe, probes failing again and again):
// the caller retries with other random points.
class UnluckyChoice : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Counter-based random nonzero field elements.
class RandomElements {
 public:
  explicit RandomElements(std::uint64_t seed) : seed_(seed) {}
  std::uint64_t next(const field::Zp64& f);

 private:
  std::uint64_t seed_, counter_ = 0;
};

// The black box's functions, which must be polynomials mod p.
std::vector<PolynomialModP> zippel(const BlackBox& box, const field::Zp64& f, std::uint64_t seed,
                                   const ZippelOptions& options);

}  // namespace hepex::reconstruct
