// Deterministic primality and prime lists against GMP's mpz_probab_prime_p
// (BPSW + Miller-Rabin: no known error, and none below 2^64).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <random>

#include "hepex/core/error.hpp"
#include "hepex/field/primes.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex::field;

bool gmp_is_prime(std::uint64_t n) {
  const mpz_class z(static_cast<unsigned long>(n));
  return mpz_probab_prime_p(z.get_mpz_t(), 25) != 0;
}

TEST(Primes, AllSmallNumbers) {
  for (std::uint64_t n = 0; n < 100000; ++n) {
    ASSERT_EQ(is_prime(n), gmp_is_prime(n)) << n;
  }
}

TEST(Primes, RandomNumbersOfEveryBitLength) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  for (int bits = 2; bits <= 64; ++bits) {
    for (int i = 0; i < 400; ++i) {
      std::uint64_t n = rng();
      if (bits < 64) n = (n >> (64 - bits)) | (std::uint64_t{1} << (bits - 1));
      n |= 1;  // odd numbers are the interesting ones
      ASSERT_EQ(is_prime(n), gmp_is_prime(n)) << n;
    }
  }
}

TEST(Primes, StrongPseudoprimesAndCarmichaelNumbers) {
  // Strong pseudoprimes to base 2 (2047, 3215031751), to bases 2..37
  // (3825123056546413051), Carmichael numbers, and semiprimes of large primes.
  for (std::uint64_t n :
       {561ull, 1105ull, 1729ull, 2047ull, 3215031751ull, 4759123141ull, 1122004669633ull,
        3825123056546413051ull, 4294967291ull * 4294967279ull, 2147483647ull * 2147483629ull,
        18446744073709551557ull, 18446744073709551615ull}) {
    EXPECT_EQ(is_prime(n), gmp_is_prime(n)) << n;
  }
  EXPECT_TRUE(is_prime(18446744073709551557ull));  // 2^64 - 59, the largest 64-bit prime
}

TEST(Primes, NextAndPreviousMatchGmp) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 1);
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t n = (rng() >> (rng() % 62)) + 3;
    mpz_class next, z(static_cast<unsigned long>(n));
    mpz_nextprime(next.get_mpz_t(), z.get_mpz_t());
    ASSERT_EQ(next_prime(n), next.get_ui()) << n;
    const std::uint64_t prev = prev_prime(n);
    ASSERT_LT(prev, n);
    ASSERT_TRUE(gmp_is_prime(prev)) << n;
    mpz_class after_prev, zp(static_cast<unsigned long>(prev));
    mpz_nextprime(after_prev.get_mpz_t(), zp.get_mpz_t());
    ASSERT_GE(after_prev.get_ui(), n) << "prev_prime(" << n << ") skipped a prime";
  }
  EXPECT_EQ(next_prime(0), 2u);
  EXPECT_EQ(next_prime(2), 3u);
  EXPECT_EQ(prev_prime(3), 2u);
  EXPECT_THROW(prev_prime(2), hepex::Error);
  EXPECT_THROW(next_prime(18446744073709551557ull), hepex::Error);
}

TEST(Primes, LargePrimeListsAreTheLargestBelowTheBound) {
  for (std::uint64_t below :
       {std::uint64_t{1} << 63, std::uint64_t{1} << 62, std::uint64_t{1} << 31}) {
    const auto primes = large_primes(40, below);
    ASSERT_EQ(primes.size(), 40u);
    std::uint64_t previous = below;
    for (std::uint64_t p : primes) {
      ASSERT_LT(p, previous);
      ASSERT_TRUE(gmp_is_prime(p)) << p;
      mpz_class next, zp(static_cast<unsigned long>(p));
      mpz_nextprime(next.get_mpz_t(), zp.get_mpz_t());
      ASSERT_GE(next.get_ui(), previous) << "a prime between " << p << " and " << previous;
      previous = p;
    }
  }
  EXPECT_EQ(large_primes(1).front(), 9223372036854775783ull);              // 2^63 - 25
  EXPECT_EQ(large_primes(1, 1ull << 62).front(), 4611686018427387847ull);  // 2^62 - 57
  EXPECT_EQ(large_primes(3, 1ull << 31),
            (std::vector<std::uint64_t>{2147483647u, 2147483629u, 2147483587u}));
  EXPECT_THROW(large_primes(5, 8), hepex::Error);  // only 7, 5, 3, 2
}

TEST(Primes, ModulusCheckExplainsTheProblem) {
  auto message = [](std::uint64_t p, int bits) {
    try {
      check_prime_modulus(p, bits, "Zp64");
    } catch (const hepex::Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(1000003, 63), "accepted");
  // 1000001 = 101 * 9901: no factor below 100, so none is named.
  EXPECT_NE(message(1000001, 63).find("is not a prime; the next prime is 1000003"),
            std::string::npos);
  EXPECT_NE(message(91, 63).find("divisible by 7"), std::string::npos);
  EXPECT_NE(message(1ull << 63, 63).find("too large"), std::string::npos);
  EXPECT_NE(message(1ull << 63, 63).find("9223372036854775783"), std::string::npos);
}

}  // namespace
