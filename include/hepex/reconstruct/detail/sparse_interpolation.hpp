#pragma once
// The engine of Zippel's method (zippel.hpp) over a "probe target": m
// variables, F functions evaluated together at batches of points, each
// function reconstructed at its own pace. Balanced Zippel (balanced_zippel.cpp)
// makes every homogeneous part of every function one function of a target
// whose evaluation is a fit along a line; plain Zippel wraps the black box.
//
// Function g adds variable x_k to its skeleton (its monomials in x_0..x_{k-1}
// with coefficients at x_k.. = anchors) at the values x_k = sigma_k g_k^i,
// i = 0, 1, ..., value 0 being the anchor itself. At value i the unfinished
// skeleton terms are found from the probes (y^j, x_k, anchors), j = 1..U, by
// one transposed Vandermonde solve after the finished terms' contributions
// are subtracted; each term stops on its own (term_interpolation.hpp). A probe
// point is identified by (k, i, j), so functions at the same stage and value
// share probes. A failed probe moves the window of j (stage >= 1) or skips the
// value (stage 0).
//
// A function is known at a probe (k, i, j) once it has passed it: it has
// finished stage k (its skeleton in x_0..x_k gives the value), or it is at
// stage k past value i (its terms' values at x_k = sigma_k g_k^i give it).
// The engine hands those values to the target with the points, so a target
// whose evaluation solves for all functions at once (a fit along a line)
// solves only for the others. To make the most of it, the functions at one
// stage and value that want the fewest probes are solved first.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hepex/field/zp.hpp"
#include "hepex/reconstruct/polynomial.hpp"
#include "hepex/reconstruct/zippel.hpp"

namespace hepex::reconstruct::detail {

// Per point (row-major, count x functions): mask != 0 where the function's
// value at the point is known, values the value there (adjusted: what
// adjust() would return).
struct KnownValues {
  std::vector<std::uint8_t> mask;
  std::vector<std::uint64_t> values;
};

class ProbeTarget {
 public:
  virtual ~ProbeTarget() = default;
  virtual std::size_t variables() const = 0;
  virtual std::size_t functions() const = 0;
  // values (count x functions, row-major) at `count` points (count x
  // variables): needed only for the functions not yet finished and not in
  // `known` (their entries may be left as known's); ok[i] = 0 where point i
  // gives no values.
  virtual void evaluate(const field::Zp64& f, std::size_t count,
                        const std::vector<std::uint64_t>& points, const KnownValues& known,
                        std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) = 0;
  // Whether evaluate() does less work for known values (else the engine
  // does not compute them).
  virtual bool uses_known_values() const { return false; }
  // Of the functions that have passed a point (`passed`, per function), per
  // function: known_value where evaluate() uses the value there; known_unused
  // where it does not (mask 1 and a value 0 in `known`, not computed, and
  // evaluate() must not use them); known_unknown where evaluate() finds it
  // as if unknown (mask 0: cheaper than the engine's sum over its terms,
  // `terms` per function: what a known value costs).
  static constexpr std::uint8_t known_unused = 0, known_value = 1, known_unknown = 2;
  virtual std::vector<std::uint8_t> known_needed(const std::vector<std::uint8_t>& passed,
                                                 const std::vector<std::size_t>& terms) const {
    (void)terms;
    return passed;
  }
  // The value of function g at point x from the raw value of evaluate().
  virtual std::uint64_t adjust(std::size_t g, const std::uint64_t* x, std::uint64_t raw) {
    (void)g;
    (void)x;
    return raw;
  }
  // Whether function g may start (its values depend on unfinished ones).
  virtual bool ready(std::size_t g) const {
    (void)g;
    return true;
  }
  // Function g is complete: p.
  virtual void finished(std::size_t g, const PolynomialModP& p) {
    (void)g;
    (void)p;
  }
};

// Per function: a true bound on its total degree, or none (empty vector):
// then options.max_degree only limits the search.
std::vector<PolynomialModP> interpolate(ProbeTarget& target, const field::Zp64& f,
                                        std::uint64_t seed, const ZippelOptions& options,
                                        const std::vector<std::size_t>& degree_bounds);

}  // namespace hepex::reconstruct::detail
