// Batched transposed Vandermonde solves against the definition: random
// unknowns, right-hand sides computed directly, several systems of different
// sizes with several right-hand sides each in one launch.
#include <gtest/gtest.h>

#include <random>

#include "hepex/core/spaces.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/vandermonde.hpp"
#include "test_seed.hpp"

namespace {

using hepex::field::Zp64;
using namespace hepex::reconstruct;

TEST(Vandermonde, SolvesManySystemsInOneBatch) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const Zp64 f(hepex::field::large_primes(1).front());
  VandermondeSystems systems;
  for (std::size_t T : {1u, 2u, 17u, 0u, 300u}) {
    for (std::size_t j = 0; j < T; ++j)
      systems.nodes.push_back(1 + f.from_uint(rng()) % 1000000007);
    systems.offsets.push_back(systems.nodes.size());
  }
  const std::size_t n = systems.nodes.size(), S = 3;
  std::vector<std::uint64_t> a(S * n), rhs(S * n, 0);
  for (auto& x : a) x = f.from_uint(rng());
  for (std::size_t r = 0; r < S; ++r) {
    for (std::size_t g = 0; g < systems.groups(); ++g) {
      const std::size_t first = systems.offsets[g], T = systems.offsets[g + 1] - first;
      for (std::size_t k = 0; k < T; ++k)
        for (std::size_t j = first; j < first + T; ++j)
          rhs[r * n + first + k] =
              f.fma(a[r * n + j], f.pow(systems.nodes[j], k + 1), rhs[r * n + first + k]);
    }
  }
  EXPECT_EQ(solve_transposed_vandermonde<hepex::DeviceSpace>(f, systems, S, rhs), a);
  EXPECT_EQ(solve_transposed_vandermonde<hepex::HostSpace>(f, systems, S, rhs), a);
}

}  // namespace
