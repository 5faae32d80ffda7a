// Fast products mod p against FLINT's nmod_poly: random factors on both sides
// of the schoolbook/Kronecker threshold, with a prime near 2^63 (the largest
// slots) and a small one (reductions of large slots); the device's product
// tree against FLINT and the host's tree, for counts on both sides of powers
// of two.
#include <flint/nmod_poly.h>
#include <flint/nmod_vec.h>
#include <gtest/gtest.h>

#include <random>

#include "flint_poly.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/detail/product_tree.hpp"
#include "test_seed.hpp"

namespace {

using hepex::field::Zp64;
using namespace hepex::reconstruct;
using namespace hepex::reconstruct::detail;
using hepex::test::FlintPoly;

std::vector<Zp64> fields() { return {Zp64(hepex::field::large_primes(1).front()), Zp64(1000003)}; }

TEST(ProductTree, MultiplyMatchesFlint) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  for (const Zp64& f : fields()) {
    for (std::size_t la : {1u, 5u, 47u, 48u, 300u, 1031u}) {
      for (std::size_t lb : {1u, 48u, 97u, 2000u}) {
        std::vector<std::uint64_t> a(la), b(lb);
        for (auto& x : a) x = f.modulus() - 1 - f.from_uint(rng()) % 3;  // large words
        for (auto& x : b) x = f.from_uint(rng());
        FlintPoly fa(a, f.modulus()), fb(b, f.modulus()), fc(f.modulus());
        nmod_poly_mul(fc.get(), fa.get(), fb.get());
        EXPECT_EQ(multiply_polynomials(f, a, b), fc.coefficients(la + lb - 1))
            << "p=" << f.modulus() << " la=" << la << " lb=" << lb;
      }
    }
    EXPECT_TRUE(multiply_polynomials(f, {}, {1, 2}).empty());
  }
}

TEST(ProductTree, ProductOfLinearFactorsMatchesFlint) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  for (const Zp64& f : fields()) {
    for (std::size_t count : {0u, 1u, 2u, 3u, 48u, 49u, 64u, 97u, 1000u, 5003u}) {
      std::vector<std::uint64_t> roots(count);
      for (auto& x : roots) x = f.from_uint(rng());
      FlintPoly oracle(f.modulus());
      nmod_t mod;
      nmod_init(&mod, f.modulus());
      nmod_poly_product_roots_nmod_vec(oracle.get(), roots.data(), static_cast<slong>(count));
      const auto host = product_of_linear_factors(f, roots.data(), count);
      EXPECT_EQ(host, oracle.coefficients(count + 1)) << "p=" << f.modulus() << " count=" << count;
      EXPECT_EQ(product_of_linear_factors(hepex::DeviceSpace(), f, roots.data(), count), host)
          << "p=" << f.modulus() << " count=" << count;
    }
  }
}

}  // namespace
