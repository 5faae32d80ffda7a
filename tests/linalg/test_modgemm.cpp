// Modular matrix products against FLINT's nmod_mat_mul: every method at the
// largest prime it claims, adversarial all-(p-1) inputs, depths just above the
// exact-block boundaries, empty and 1x1 shapes, and C += A B; device and host.
#include <gtest/gtest.h>

#include <random>

#include "flint_oracle.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "test_seed.hpp"

namespace hepex::test {

// The largest prime for which fp64 is exact: floor(p/2)^2 <= 2^53 needs
// p/2 <= 94906265 = floor(sqrt(2^53)), i.e. p <= 189812531.
std::uint64_t largest_fp64_prime() {
  const std::uint64_t p = field::prev_prime(2 * 94906265ull + 2);
  if (linalg::fp64_block(p) < 1 || linalg::fp64_block(field::next_prime(p)) >= 1) return 0;
  return p;
}

template <class Word>
Matrix<Word> filled(std::size_t r, std::size_t c, std::uint64_t p, std::mt19937_64& rng,
                    bool adversarial) {
  Matrix<Word> a(r, c);
  for (auto& x : a.data) x = static_cast<Word>(adversarial ? p - 1 : rng() % p);
  return a;
}

template <class Word>
void check_method(linalg::GemmMethod method, std::uint64_t p, const std::vector<std::size_t>& depths) {
  SCOPED_TRACE("p=" + std::to_string(p) + " method=" + linalg::gemm_method_name(method) + " " +
               seed_trace());
  std::mt19937_64 rng(seed() ^ p);
  const field::Zp<Word> f(p);
  for (Backend backend : {Backend::device, Backend::host}) {
    for (std::size_t k : depths) {
      for (bool adversarial : {false, true}) {
        for (auto [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{
                 {1, 1}, {13, 7}, {5, 33}, {17, 3}, {2, 70}}) {
          const auto a = filled<Word>(m, k, p, rng, adversarial);
          const auto b = filled<Word>(k, n, p, rng, adversarial);
          const auto c0 = filled<Word>(m, n, p, rng, adversarial);
          Matrix<Word> want = k ? flint_mul(a, b, p) : Matrix<Word>(m, n, 0);
          ASSERT_TRUE(linalg::modgemm(f, a, b, method, backend) == want)
              << m << "x" << k << "x" << n << (adversarial ? " all p-1" : " random") << " on "
              << backend_name(backend);
          for (std::size_t e = 0; e < want.data.size(); ++e) {
            want.data[e] = f.add(want.data[e], c0.data[e]);
          }
          ASSERT_TRUE(linalg::modgemm(f, a, b, method, backend, &c0) == want)
              << "C += A B, " << m << "x" << k << "x" << n << " on " << backend_name(backend);
        }
      }
    }
  }
}

}  // namespace hepex::test

namespace {

using hepex::linalg::GemmMethod;
using hepex::linalg::fp64_block;

TEST(ModGemm, Fp64AtItsLargestPrimeAndBlockBoundaries) {
  const std::uint64_t p = hepex::test::largest_fp64_prime();
  ASSERT_EQ(fp64_block(p), 1u);  // one product per exact block at the edge
  hepex::test::check_method<std::uint32_t>(GemmMethod::fp64, p, {0, 1, 2, 3, 40});
  const std::uint64_t q = 8388593;  // < 2^23: lambda = 2^53 / 4194296^2 = 512
  const std::size_t lambda = fp64_block(q);
  ASSERT_EQ(lambda, 512u);
  hepex::test::check_method<std::uint32_t>(GemmMethod::fp64, q, {lambda, lambda + 1, 2 * lambda + 1});
}

TEST(ModGemm, MultiwordUpToItsLargestPrime) {
  using hepex::linalg::multiword_block;
  // Below 2^54, |hi| <= 2^26: lambda = 2 (and p is not exact in a double,
  // so the reduction goes through the integer path). Above 2^56: not exact.
  const std::uint64_t top = hepex::field::prev_prime(1ull << 54);
  const std::uint64_t beyond = hepex::field::next_prime(1ull << 56);
  ASSERT_EQ(multiword_block(top), 2u);
  EXPECT_EQ(multiword_block(beyond), 0u);
  hepex::test::check_method<std::uint64_t>(GemmMethod::multiword, top, {0, 1, 2, 3, 5, 40});
  // 2^31 - 1, where fp64 is not exact: 16-bit halves.
  hepex::test::check_method<std::uint32_t>(GemmMethod::multiword, 2147483647, {1, 7, 100});
  EXPECT_THROW(hepex::linalg::resolve_gemm_method(GemmMethod::multiword, beyond), hepex::Error);
}

TEST(ModGemm, Int64AtTheLargestPrimes) {
  // Zp64 at 2^63 - 25: lambda = floor((2^128 - 1) / (p - 1)^2) = 4 products per reduction.
  hepex::test::check_method<std::uint64_t>(GemmMethod::int64, hepex::field::large_primes(1)[0],
                                           {0, 1, 4, 5, 9, 64});
  // Zp32 at 2^31 - 1: lambda = floor((2^64 - 1) / (p - 1)^2) = 4.
  hepex::test::check_method<std::uint32_t>(GemmMethod::int64, 2147483647, {1, 4, 5, 9, 64});
  hepex::test::check_method<std::uint64_t>(GemmMethod::int64, 2, {1, 7});
}

TEST(ModGemm, Int8SlicesAtEveryWordSize) {
  using hepex::linalg::int8_slices;
  EXPECT_EQ(int8_slices(251), 1);
  EXPECT_EQ(int8_slices(65521), 3);  // 2 balanced digits reach only 32639 < 32760
  EXPECT_EQ(int8_slices(2147483647), 4);
  EXPECT_EQ(int8_slices(hepex::field::large_primes(1)[0]), 8);
  hepex::test::check_method<std::uint64_t>(GemmMethod::int8, hepex::field::large_primes(1)[0],
                                           {0, 1, 3, 4, 5, 64});
  hepex::test::check_method<std::uint32_t>(GemmMethod::int8, 2147483647, {1, 5, 64});
  hepex::test::check_method<std::uint32_t>(GemmMethod::int8, 65521, {1, 7, 100});
  hepex::test::check_method<std::uint32_t>(GemmMethod::int8, 251, {1, 9});
}

TEST(ModGemm, Int8AcrossTheExactInt32BlockBoundary) {
  // 131056 terms per int32 block: k = 131069 needs two blocks; all p-1 is the
  // largest digit pattern.
  for (std::uint64_t p : {std::uint64_t{65521}, hepex::field::large_primes(1)[0]}) {
    const hepex::field::Zp64 f(p);
    const std::size_t k = 131069;
    hepex::Matrix<std::uint64_t> a(1, k, p - 1), b(k, 1, p - 1);
    const std::uint64_t want = f.mul(f.from_uint(k), f.mul(p - 1, p - 1));
    for (hepex::Backend backend : {hepex::Backend::device, hepex::Backend::host}) {
      EXPECT_EQ(hepex::linalg::modgemm(f, a, b, GemmMethod::int8, backend)(0, 0), want) << p;
    }
  }
}

TEST(ModGemm, AutomaticPicksAnExactMethod) {
  EXPECT_EQ(hepex::linalg::resolve_gemm_method(GemmMethod::automatic, 65521), GemmMethod::fp64);
  EXPECT_EQ(hepex::linalg::resolve_gemm_method(GemmMethod::automatic, 2147483647),
            GemmMethod::int64);
  hepex::test::check_method<std::uint32_t>(GemmMethod::automatic, 65521, {1, 100});
  hepex::test::check_method<std::uint32_t>(GemmMethod::automatic, 2147483647, {1, 100});
}

TEST(ModGemm, MethodOutsideItsExactRangeIsAnError) {
  EXPECT_THROW(hepex::linalg::resolve_gemm_method(GemmMethod::fp64, 2147483647), hepex::Error);
  EXPECT_EQ(hepex::linalg::parse_gemm_method("multiword"), GemmMethod::multiword);
  EXPECT_THROW(hepex::linalg::parse_gemm_method("fast"), hepex::Error);
  const hepex::field::Zp32 f(65521);
  EXPECT_THROW(hepex::linalg::modgemm(f, hepex::Matrix<std::uint32_t>(2, 3),
                                      hepex::Matrix<std::uint32_t>(4, 2)),
               hepex::Error);
}

TEST(ModGemm, EmptyShapes) {
  const hepex::field::Zp32 f(65521);
  EXPECT_EQ(hepex::linalg::modgemm(f, hepex::Matrix<std::uint32_t>(0, 3),
                                   hepex::Matrix<std::uint32_t>(3, 2)).rows, 0u);
  EXPECT_EQ(hepex::linalg::modgemm(f, hepex::Matrix<std::uint32_t>(2, 3),
                                   hepex::Matrix<std::uint32_t>(3, 0)).cols, 0u);
}

}  // namespace
