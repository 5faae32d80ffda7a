#pragma once
// Zippel's sparse interpolation of polynomials mod p, variable by variable
// (seed paper §1; Zippel, EUROSAM 1979; Kaltofen-Lee-Lobo, ISSAC 2000 for
// early termination).
//
// Stage k adds x_k to the polynomials known in x_0..x_{k-1} (with
// x_{k+1}.. fixed at random anchors a): their monomials form the skeleton;
// for each new value c of x_k, probing at (y_0^j, .., y_{k-1}^j, c, a..),
// j = 1..U, gives a transposed Vandermonde system (detail/vandermonde.hpp) for the U
// skeleton coefficients not yet known as polynomials in x_k; each coefficient
// stops on its own, by sparse or dense univariate interpolation in x_k
// (detail/term_interpolation.hpp), so a probe count near (terms x 2-3) per
// variable instead of (terms x (degree + 2)). Each function of the black box
// goes at its own pace; functions at the same variable and value share probes
// (detail/sparse_interpolation.hpp).

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hepex/core/host_threads.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/polynomial.hpp"

namespace hepex::reconstruct {

struct ZippelOptions {
  // The largest degree in a variable: beyond it the reconstruction stops with
  // ErrorKind::negative_answer.
  std::size_t max_degree = 1000;
  // Per function, a true bound on its total degree (empty: none known, then
  // max_degree only limits the search). With a bound a coefficient stops
  // after (degree left + 1) values at most.
  std::vector<std::size_t> degree_bounds;
  std::ostream* progress = nullptr;
  // How the caller names max_degree in messages ("--max-degree", "max_degree").
  std::string max_degree_name = "max_degree";
  // False when the black box cannot be evaluated where a coordinate is zero
  // (factors divided out of it vanish there: detail/factor_scan.hpp), so that
  // choosing the shift tests lines, not points with zero coordinates.
  bool probes_on_hyperplanes = true;
  // Host threads for the algebra between probe batches (not owned; null:
  // the calling thread only). The black box is still called from the
  // calling thread alone.
  HostThreads* threads = nullptr;
};

// The message of a degree beyond the limit: names the option, and the other
// way to get there (values that are not those of one rational function).
std::string degree_limit_message(const std::string& what, std::size_t limit,
                                 const std::string& option);

// Random choices met a measure-zero event (coinciding Vandermonde nodes, a
// skeleton contradicted by its check probe, probes failing again and again):
// the caller retries with other random points.
class UnluckyChoice : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The black box was undefined at every point tried mod this prime (a
// division by zero everywhere, or a prime that divides a denominator of its
// constants): the caller moves on to another prime.
class BoxUndefined : public std::runtime_error {
 public:
  BoxUndefined(std::size_t points, std::uint64_t prime)
      : std::runtime_error("the black box is undefined at all " + std::to_string(points) +
                           " random points tried mod " + std::to_string(prime)),
        points_(points) {}
  std::size_t points() const { return points_; }

 private:
  std::size_t points_;
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
