#pragma once
// Rational functions over Q from a black box: balanced Zippel mod several
// 63-bit primes, Chinese remaindering of the coefficients and rational
// reconstruction (hepex/field/crt.hpp), adding primes until every coefficient
// is determined and the result agrees with the black box on random points
// modulo a fresh prime that took no part in it.
//
// Per prime, the result is checked on fresh random probes; a mismatch
// (unlucky random points) is retried with new points. A prime whose result
// has a different set of monomials than the others (it divides a
// coefficient, or the normalising one: an unlucky prime) is set aside.

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <vector>

#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/polynomial.hpp"

namespace hepex::reconstruct {

struct ReconstructOptions {
  std::size_t max_primes = 40;       // primes tried at most (exit 3 beyond)
  std::uint64_t seed = 1;            // all random points derive from it
  std::size_t max_degree = 200;      // per variable and total, see ZippelOptions
  std::size_t values_per_round = 2;  // see ZippelOptions
  std::size_t verify_points = 4;     // random probes per check
  std::size_t retries = 4;           // attempts per prime
  std::ostream* progress = nullptr;  // --verbose
};

struct Reconstruction {
  std::vector<RationalFunction> functions;  // primitive integer coefficients
  std::size_t primes = 0;                   // primes whose images were combined
};

// Throws hepex::Error(negative_answer) when max_primes do not determine the
// functions.
Reconstruction reconstruct(const BlackBox& box, const ReconstructOptions& options);

}  // namespace hepex::reconstruct
