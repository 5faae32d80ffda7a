// Reduction of big integers and rationals into Zp32/Zp64 against GMP.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include "hepex/core/error.hpp"
#include "hepex/field/big_integer.hpp"
#include "hepex/field/primes.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex::field;

template <class Word>
void check_reduction(std::uint64_t p) {
  const Zp<Word> f(p);
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(static_cast<unsigned long>(hepex::test::seed() ^ p));
  const mpz_class pz(static_cast<unsigned long>(p));
  for (int i = 0; i < 3000; ++i) {
    mpz_class x = rng.get_z_bits(1 + i % 700);
    if (i % 2) x = -x;
    mpz_class want;
    mpz_fdiv_r(want.get_mpz_t(), x.get_mpz_t(), pz.get_mpz_t());
    ASSERT_EQ(mpz_class(static_cast<unsigned long>(from_big(f, x))), want) << x;

    mpz_class den = rng.get_z_bits(1 + i % 300) + 1;
    if (den % pz == 0) continue;
    const mpq_class q(x, den);
    mpz_class inv;
    mpz_invert(inv.get_mpz_t(), den.get_mpz_t(), pz.get_mpz_t());
    mpz_class want_q = want * inv;
    mpz_fdiv_r(want_q.get_mpz_t(), want_q.get_mpz_t(), pz.get_mpz_t());
    ASSERT_EQ(mpz_class(static_cast<unsigned long>(from_big(f, q))), want_q) << q;
  }
}

TEST(BigInteger, ReducesIntoZp32) {
  SCOPED_TRACE(hepex::test::seed_trace());
  check_reduction<std::uint32_t>(2147483647);
  check_reduction<std::uint32_t>(65521);
}

TEST(BigInteger, ReducesIntoZp64) {
  SCOPED_TRACE(hepex::test::seed_trace());
  check_reduction<std::uint64_t>(large_primes(1).front());
  check_reduction<std::uint64_t>(large_primes(1, 1ull << 62).front());
}

TEST(BigInteger, DenominatorDivisibleByThePrimeIsAnError) {
  const Zp64 f(65521);
  EXPECT_THROW(from_big(f, mpq_class(1, 65521)), hepex::Error);
  EXPECT_THROW(from_big(f, mpq_class(3, 2 * 65521)), hepex::Error);
  EXPECT_EQ(from_big(f, mpq_class(65521, 2)), 0u);
}

}  // namespace
