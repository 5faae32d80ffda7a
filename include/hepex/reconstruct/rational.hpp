#pragma once
// Rational functions over Q from a black box: balanced Zippel on the first
// 63-bit prime finds the monomials; every further prime needs only about T
// probes for T terms (known_support.hpp). After each prime, Wang's rational
// reconstruction of the Chinese remainders (hepex/field/crt.hpp) gives a
// candidate, accepted once it agrees with the black box at random points
// modulo the next prime, which took no part in it (as FireFly does): one
// prime suffices when the coefficients are small enough.
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
  std::size_t max_primes = 40;       // images combined at most (exit 3 beyond)
  std::uint64_t seed = 1;            // all random points derive from it
  std::size_t max_degree = 200;      // per variable and total, see ZippelOptions
  std::size_t verify_points = 2;     // random probes per check
  std::size_t retries = 4;           // attempts per prime
  std::ostream* progress = nullptr;  // --verbose
};

struct Reconstruction {
  std::vector<RationalFunction> functions;  // primitive integer coefficients
  std::size_t primes = 0;                   // primes whose images were combined
  // Black-box points evaluated for each prime tried (its checks included; the
  // last entry is the prime that only confirmed the answer) and in all.
  std::vector<std::size_t> probes_per_prime;
  std::size_t probes = 0;
  double black_box_seconds = 0;  // inside the black box
  double seconds = 0;            // in all
};

// Throws hepex::Error(negative_answer) when max_primes do not determine the
// functions.
Reconstruction reconstruct(const BlackBox& box, const ReconstructOptions& options);

}  // namespace hepex::reconstruct
