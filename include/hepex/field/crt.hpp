#pragma once
// Multi-prime lifting (host, GMP): Chinese remaindering of the images of many
// integers/rationals modulo distinct word primes, and rational reconstruction
// to Q. Reconstruction says plainly when the primes so far do not determine
// the result, so a caller adds primes until every value is determined.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gmpxx.h>

namespace hepex::field {

// Wang's rational reconstruction: the unique n/d with n = d*x (mod m),
// |n| <= sqrt(m/2), 0 < d <= sqrt(m/2), gcd(n, d) = 1, if it exists.
// Requires 0 <= x < m. (Wang, Guy, Davenport, SIGSAM Bull. 16(2), 1982.)
// Such a fraction exists for most x, so success alone does not mean that m
// was large enough: CrtLift::to_rationals confirms it on one more prime.
std::optional<mpq_class> rational_reconstruct(const mpz_class& x, const mpz_class& m);

// True when q reduced mod p exists and equals `residue` (the check of a
// reconstructed value on a prime not used to build it).
bool consistent_mod(const mpq_class& q, std::uint64_t p, std::uint64_t residue);

// Outcome of lifting a vector of values to Q.
struct RationalLift {
  std::vector<mpq_class> values;          // valid where not undetermined
  std::vector<std::size_t> undetermined;  // indices with no reconstruction yet
  std::size_t primes = 0;                 // primes used
  std::size_t modulus_bits = 0;           // bits of their product
  bool determined() const { return undetermined.empty(); }
  // A sentence for users: how many values are undetermined and why.
  std::string explain() const;
};

// Accumulates the residues of `size` integers modulo successive distinct
// primes by incremental CRT (Garner): x <- x + M * ((r - x) * M^{-1} mod p).
class CrtLift {
 public:
  explicit CrtLift(std::size_t size);

  // Adds the images residues[i] = x_i mod p. Throws hepex::Error if p is not a
  // prime, was already added, if residues.size() != size(), or if a residue is
  // >= p; nothing is changed then.
  void add(std::uint64_t p, const std::vector<std::uint64_t>& residues);

  std::size_t size() const { return values_.size(); }
  std::size_t prime_count() const { return primes_.size(); }
  const mpz_class& modulus() const { return modulus_; }
  // Non-negative representative in [0, M).
  const mpz_class& residue(std::size_t i) const { return values_.at(i); }
  // Symmetric representative in (-M/2, M/2]: the integer, once M > 2 |x_i|.
  mpz_class symmetric(std::size_t i) const;
  // Every value as a rational: reconstructed from all primes but the newest,
  // and accepted only if the newest prime confirms it (a wrong fraction passes
  // with probability about 1/p). With fewer than two primes nothing is
  // determined.
  RationalLift to_rationals() const;

 private:
  std::vector<mpz_class> values_;
  std::vector<std::uint64_t> primes_;
  mpz_class modulus_ = 1;
};

}  // namespace hepex::field
