#pragma once
// Primes for modular work (host only): deterministic 64-bit primality,
// next/previous prime, lists of large primes, and modulus validation.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hepex::field {

// Deterministic for every 64-bit n: Miller-Rabin with the seven bases
// {2, 325, 9375, 28178, 450775, 9780504, 1795265022} (J. Sinclair, 2011),
// which together have no strong pseudoprime below 2^64.
bool is_prime(std::uint64_t n);

// Smallest prime > n. Throws hepex::Error when there is none below 2^64.
std::uint64_t next_prime(std::uint64_t n);

// Largest prime < n. Throws hepex::Error when n <= 2.
std::uint64_t prev_prime(std::uint64_t n);

// The `count` largest primes below `below`, descending. For multi-prime work:
// large_primes(k) gives 63-bit primes usable with Zp64;
// large_primes(k, 1ull << 62) gives 62-bit ones. Cached per `below`.
std::vector<std::uint64_t> large_primes(std::size_t count,
                                        std::uint64_t below = std::uint64_t{1} << 63);

// `count` distinct random primes in [2^62, 2^63) (usable with Zp64), a pure
// function of `seed`: the i-th is the first prime after a random word of 63
// bits with the top one set. Reconstruction draws its primes here, so that
// no fixed input can be built to make them unlucky (issue 36: with fixed
// primes, coefficients divisible by the first two made a wrong answer pass
// its check).
std::vector<std::uint64_t> random_large_primes(std::size_t count, std::uint64_t seed);

// Throws hepex::Error unless p is a prime with 2 <= p < 2^max_bits. `field`
// names the word type in the message (e.g. "Zp32").
void check_prime_modulus(std::uint64_t p, int max_bits, const char* field);

// The same for an argument of the caller's: "p = 100 is not a prime
// (divisible by 2); the next prime is 101" for name "p".
void check_prime_argument(std::uint64_t p, int max_bits, const std::string& name);

}  // namespace hepex::field
