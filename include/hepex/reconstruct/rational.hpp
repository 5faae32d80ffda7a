#pragma once
// Rational functions over Q from a black box: balanced Zippel on the first
// prime finds the monomials; every further prime needs only about T probes
// for T terms (known_support.hpp). After each prime, Wang's rational
// reconstruction of the Chinese remainders (hepex/field/crt.hpp) gives a
// candidate, accepted once it agrees with the black box at random points
// modulo the next prime, which took no part in it (as FireFly does): one
// prime suffices when the coefficients are small enough.
//
// The primes are random 63-bit primes drawn from the seed
// (field::random_large_primes), so that no fixed input can be built to make
// them unlucky. A check is never vacuous: it needs points where the black
// box is defined, and a prime where the black box is undefined at every
// point tried is dropped for the next one ("undefined everywhere" is
// reported only when several primes in a row agree).
//
// Per prime, the result is checked on fresh random probes; a mismatch
// (unlucky random points) is retried with new points. A prime whose result
// has a different set of monomials than the others (it divides a
// coefficient, or the normalising one: an unlucky prime) is set aside.

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/host_threads.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/polynomial.hpp"

namespace hepex::reconstruct {

struct ReconstructOptions {
  std::size_t max_primes = 40;       // images combined at most (a negative answer beyond)
  std::uint64_t seed = 1;            // the primes and all random points derive from it
  std::size_t max_degree = 1000;     // per variable and total, see ZippelOptions
  std::size_t verify_points = 2;     // random probes per check
  std::size_t retries = 4;           // attempts per prime
  std::ostream* progress = nullptr;  // --verbose
  // Host threads for the algebra (0: the cores this process may run on,
  // its affinity mask). The black box is called from the calling thread.
  std::size_t threads = 0;
  // A pool of the caller's to use instead of `threads` new ones (not owned;
  // reduce shares its pool with its black box).
  HostThreads* pool = nullptr;
  // The factor scan (detail/factor_scan.hpp): on the variables whose
  // hyperplane x_i = 0 is outside the black box's domain (automatic), on
  // every variable, or off.
  enum class FactorScan { automatic, on, off };
  FactorScan factor_scan = FactorScan::automatic;
  // How the caller names the two limits in messages: the CLI's options
  // ("--primes", "--max-degree") or Python's arguments ("primes", "max_degree").
  std::string max_primes_name = "max_primes";
  std::string max_degree_name = "max_degree";
};

// What one prime was used for.
struct PrimeUse {
  enum class Role {
    image,      // the functions' image mod the prime was combined
    check,      // it confirmed the answer (the last prime)
    undefined,  // the black box was undefined at every point tried: dropped
    failed,     // no image after the retries (unlucky choices): dropped
    rejected    // the last prime allowed: its check contradicted the answer
  };
  std::uint64_t prime = 0;
  Role role = Role::image;
  std::size_t probes = 0;  // black-box points evaluated for it, checks included
};
const char* to_string(PrimeUse::Role role);

struct Reconstruction {
  std::vector<RationalFunction> functions;  // primitive integer coefficients
  std::uint64_t seed = 0;                   // the options' seed
  std::size_t primes = 0;                   // primes whose images were combined
  std::vector<PrimeUse> prime_uses;         // every prime tried, in order
  std::size_t probes = 0;                   // black-box points in all
  double black_box_seconds = 0;             // inside the black box
  double seconds = 0;                       // in all
};

// A reconstruction that ended without an answer (a negative answer: exit 3):
// not determined by max_primes primes, undefined everywhere, beyond the
// degree limit. partial() holds the work done until then.
class ReconstructionFailure : public Error {
 public:
  ReconstructionFailure(const std::string& message, Reconstruction partial)
      : Error(message, ErrorKind::negative_answer), partial_(std::move(partial)) {}
  const Reconstruction& partial() const { return partial_; }

 private:
  Reconstruction partial_;
};

// Throws ReconstructionFailure when the functions cannot be determined.
Reconstruction reconstruct(const BlackBox& box, const ReconstructOptions& options);

}  // namespace hepex::reconstruct
