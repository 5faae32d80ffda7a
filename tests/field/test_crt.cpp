// Multi-prime CRT and rational reconstruction against GMP rationals: random
// fractions with hundreds of digits are recovered exactly from their images
// modulo 63-bit primes, and too few primes are reported as undetermined.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "hepex/core/error.hpp"
#include "hepex/field/big_integer.hpp"
#include "hepex/field/crt.hpp"
#include "hepex/field/primes.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex::field;

mpz_class random_integer(gmp_randclass& rng, unsigned bits, bool allow_negative) {
  mpz_class x = rng.get_z_bits(bits);
  if (allow_negative && rng.get_z_bits(1) == 1) x = -x;
  return x;
}

std::vector<mpq_class> random_rationals(gmp_randclass& rng, std::size_t count) {
  std::vector<mpq_class> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned bits = 1 + static_cast<unsigned>(mpz_class(rng.get_z_range(1200)).get_ui());
    mpq_class q(random_integer(rng, bits, true), random_integer(rng, bits / 2 + 1, false) + 1);
    q.canonicalize();
    values[i] = q;
  }
  values[0] = 0;
  values[1] = mpq_class(-1, 3);
  return values;
}

std::vector<std::uint64_t> images(const std::vector<mpq_class>& values, std::uint64_t p) {
  const Zp64 f(p);
  std::vector<std::uint64_t> residues;
  for (const auto& q : values) residues.push_back(from_big(f, q));
  return residues;
}

TEST(Crt, RecoversLargeRandomRationalsExactly) {
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(static_cast<unsigned long>(hepex::test::seed()));
  SCOPED_TRACE(hepex::test::seed_trace());
  const auto truth = random_rationals(rng, 300);
  std::size_t largest_bits = 0;  // of max(|n|, d) over all values
  for (const auto& q : truth) {
    largest_bits = std::max(
        {largest_bits, mpz_sizeinbase(q.get_num_mpz_t(), 2), mpz_sizeinbase(q.get_den_mpz_t(), 2)});
  }
  CrtLift lift(truth.size());
  RationalLift result;
  for (std::uint64_t p : large_primes(80)) {
    lift.add(p, images(truth, p));
    result = lift.to_rationals();
    if (result.determined()) break;
    EXPECT_NE(result.explain().find("not determined"), std::string::npos) << result.explain();
  }
  ASSERT_TRUE(result.determined()) << result.explain();
  for (std::size_t i = 0; i < truth.size(); ++i) {
    ASSERT_EQ(result.values[i], truth[i])
        << "index " << i << " after " << result.primes << " primes";
  }
  EXPECT_NE(result.explain().find("all 300 values determined"), std::string::npos);
  // Wang's bound: the primes but the newest must give M' >= 2 max(|n|, d)^2.
  EXPECT_GE(result.modulus_bits - 63 + 1, 2 * largest_bits - 1);
}

TEST(Crt, SymmetricLiftRecoversSignedIntegers) {
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(static_cast<unsigned long>(hepex::test::seed() + 7));
  std::vector<mpq_class> truth;
  for (int i = 0; i < 500; ++i) truth.emplace_back(random_integer(rng, 600, true));
  CrtLift lift(truth.size());
  for (std::uint64_t p : large_primes(11)) lift.add(p, images(truth, p));  // 693 bits > 601
  for (std::size_t i = 0; i < truth.size(); ++i) {
    ASSERT_EQ(lift.symmetric(i), truth[i].get_num()) << i;
    ASSERT_GE(lift.residue(i), 0);
    ASSERT_LT(lift.residue(i), lift.modulus());
  }
}

TEST(Crt, TooFewPrimesAreReportedNotGuessed) {
  // 2^200 + 1 over 3^100 needs ~360 bits; two 63-bit primes cannot determine it.
  const mpq_class q(mpz_class(1) << 200 | 1,
                    mpz_class("515377520732011331036461129765621272702107522001"));
  CrtLift lift(1);
  for (std::uint64_t p : large_primes(2)) lift.add(p, images({q}, p));
  const RationalLift result = lift.to_rationals();
  EXPECT_FALSE(result.determined());
  EXPECT_EQ(result.undetermined, std::vector<std::size_t>{0});
  EXPECT_EQ(result.primes, 2u);
  EXPECT_EQ(result.explain(),
            "1 of 1 values are not determined by the 2 primes so far (126-bit modulus): the "
            "fraction reconstructed from the first 1 is not confirmed by the newest (first: "
            "index 0); add more primes");

  CrtLift single(3);
  single.add(65521, {1, 2, 3});  // small values, but one prime cannot confirm them
  EXPECT_FALSE(single.to_rationals().determined());
  EXPECT_NE(single.to_rationals().explain().find("needs at least two"), std::string::npos);
  single.add(65519, {1, 2, 3});
  EXPECT_TRUE(single.to_rationals().determined());
  EXPECT_EQ(single.to_rationals().values, (std::vector<mpq_class>{1, 2, 3}));
}

TEST(Crt, RejectsBadInputWithoutChangingState) {
  CrtLift lift(2);
  const std::uint64_t p = large_primes(1).front();
  lift.add(p, {1, 2});
  EXPECT_THROW(lift.add(p, {1, 2}), hepex::Error);          // repeated prime
  EXPECT_THROW(lift.add(65521, {1}), hepex::Error);         // wrong size
  EXPECT_THROW(lift.add(65521, {1, 65521}), hepex::Error);  // unreduced residue
  EXPECT_THROW(lift.add(65535, {1, 2}), hepex::Error);      // composite
  EXPECT_EQ(lift.prime_count(), 1u);
  EXPECT_EQ(lift.residue(1), 2);
}

TEST(RationalReconstruction, ResultSatisfiesWangsConditions) {
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(static_cast<unsigned long>(hepex::test::seed() + 3));
  for (int i = 0; i < 3000; ++i) {
    const mpz_class m = random_integer(rng, 8 + i % 300, false) + 2;
    const mpz_class x = rng.get_z_range(m);
    const auto q = rational_reconstruct(x, m);
    mpz_class bound = m / 2;
    mpz_sqrt(bound.get_mpz_t(), bound.get_mpz_t());
    if (!q) continue;
    ASSERT_LE(abs(q->get_num()), bound);
    ASSERT_LE(q->get_den(), bound);
    const mpz_class lhs = q->get_num() - q->get_den() * x;
    ASSERT_EQ(lhs % m, 0) << "n != d x mod m for x=" << x << " m=" << m;
  }
  EXPECT_EQ(*rational_reconstruct(0, 101), 0);
  EXPECT_THROW(rational_reconstruct(101, 101), hepex::Error);
  EXPECT_THROW(rational_reconstruct(-1, 101), hepex::Error);
}

}  // namespace
