// The three-prime NTT products mod p against FLINT's nmod_poly_mullow, for
// lengths on both sides of powers of two and truncations, with a prime near
// 2^63 and all coefficients p - 1 (the largest exact sums the CRT must
// recover), a small prime and p = 2; Newton's power series inverse against
// nmod_poly_inv_series.
#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include <random>

#include "flint_poly.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/detail/ntt.hpp"
#include "hepex/reconstruct/detail/polynomial_product.hpp"
#include "hepex/reconstruct/detail/power_series.hpp"
#include "test_seed.hpp"

namespace {

using hepex::DeviceMemory;
using hepex::DeviceSpace;
using hepex::field::Zp64;
using hepex::test::FlintPoly;
using namespace hepex::reconstruct;
using namespace hepex::reconstruct::detail;

std::vector<std::uint64_t> product(const ThreePrimeNtt<DeviceSpace>& ntt,
                                   const std::vector<std::uint64_t>& a,
                                   const std::vector<std::uint64_t>& b, std::size_t keep) {
  return hepex::to_vector(multiply_truncated<DeviceSpace>(
      ntt, hepex::to_view<DeviceMemory>(a, "a"), hepex::to_view<DeviceMemory>(b, "b"), keep));
}

TEST(Ntt, ProductsMatchFlint) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 5);
  for (const std::uint64_t p : {hepex::field::large_primes(1).front(), std::uint64_t{1000003},
                                std::uint64_t{2}, std::uint64_t{0x3fffffa000000001ull}}) {
    const Zp64 f(p);
    const ThreePrimeNtt<DeviceSpace> ntt(f, 12);
    for (std::size_t la : {1u, 2u, 3u, 31u, 64u, 65u, 257u, 1000u}) {
      for (std::size_t lb : {1u, 7u, 64u, 129u, 1500u}) {
        for (bool extreme : {true, false}) {
          std::vector<std::uint64_t> a(la), b(lb);
          for (auto& x : a) x = extreme ? p - 1 : f.from_uint(rng());
          for (auto& x : b) x = extreme ? p - 1 : f.from_uint(rng());
          FlintPoly fa(a, p), fb(b, p), fc(p);
          for (std::size_t keep : {la + lb - 1, (la + lb) / 2, std::size_t{1}}) {
            nmod_poly_mullow(fc.get(), fa.get(), fb.get(), static_cast<slong>(keep));
            EXPECT_EQ(product(ntt, a, b, keep), fc.coefficients(keep))
                << "p=" << p << " la=" << la << " lb=" << lb << " keep=" << keep
                << " extreme=" << extreme;
          }
        }
      }
    }
  }
}

TEST(Ntt, RefusesLengthsBeyondTheBound) {
  const Zp64 f(1000003);
  EXPECT_THROW(ThreePrimeNtt<DeviceSpace>(f, ThreePrimeNtt<DeviceSpace>::max_supported_log + 1),
               hepex::Error);
  const ThreePrimeNtt<DeviceSpace> ntt(f, 3);
  EXPECT_THROW(product(ntt, std::vector<std::uint64_t>(9, 1), {1}, 9), hepex::Error);
}

TEST(Ntt, InverseSeriesMatchesFlint) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 6);
  for (const std::uint64_t p : {hepex::field::large_primes(1).front(), std::uint64_t{65537}}) {
    const Zp64 f(p);
    const ThreePrimeNtt<DeviceSpace> ntt(f, 12);
    for (std::size_t la : {1u, 2u, 100u, 1025u}) {
      for (std::size_t n : {1u, 2u, 3u, 64u, 65u, 1000u, 2048u}) {
        std::vector<std::uint64_t> a(la);
        for (auto& x : a) x = f.from_uint(rng());
        a[0] = 1;
        FlintPoly fa(a, p), fg(p);
        nmod_poly_inv_series(fg.get(), fa.get(), static_cast<slong>(n));
        EXPECT_EQ(hepex::to_vector(
                      inverse_series<DeviceSpace>(f, ntt, hepex::to_view<DeviceMemory>(a, "a"), n)),
                  fg.coefficients(n))
            << "p=" << p << " la=" << la << " n=" << n;
      }
    }
  }
}

}  // namespace
