// Batched transposed Vandermonde solves against the definition (random
// unknowns, right-hand sides computed directly) and against FLINT's dense
// solver, several systems of different sizes in one batch, with right-hand
// side counts that use every block width of the kernel.
#include <flint/nmod_mat.h>
#include <gtest/gtest.h>

#include <random>

#include "hepex/core/spaces.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/detail/vandermonde.hpp"
#include "test_seed.hpp"

namespace {

using hepex::field::Zp64;
using namespace hepex::reconstruct;
using namespace hepex::reconstruct::detail;

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

// V^T a = b of group g, right-hand side r, through nmod_mat_solve.
std::vector<std::uint64_t> flint_solve(const Zp64& f, const VandermondeSystems& systems,
                                       std::size_t g, const std::vector<std::uint64_t>& rhs,
                                       std::size_t r) {
  const std::size_t first = systems.offsets[g], T = systems.offsets[g + 1] - first;
  const std::size_t n = systems.nodes.size();
  nmod_mat_t v, x, b;
  nmod_mat_init(v, T, T, f.modulus());
  nmod_mat_init(x, T, 1, f.modulus());
  nmod_mat_init(b, T, 1, f.modulus());
  for (std::size_t k = 0; k < T; ++k) {
    for (std::size_t j = 0; j < T; ++j)
      nmod_mat_entry(v, k, j) = f.pow(systems.nodes[first + j], k + 1);
    nmod_mat_entry(b, k, 0) = rhs[r * n + first + k];
  }
  EXPECT_TRUE(nmod_mat_solve(x, v, b));
  std::vector<std::uint64_t> out(T);
  for (std::size_t j = 0; j < T; ++j) out[j] = nmod_mat_entry(x, j, 0);
  nmod_mat_clear(v);
  nmod_mat_clear(x);
  nmod_mat_clear(b);
  return out;
}

TEST(Vandermonde, MatchesFlintForEveryBlockWidth) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 1);
  const Zp64 f(hepex::field::large_primes(2).back());
  VandermondeSystems systems;
  for (std::size_t T : {3u, 1u, 64u, 29u}) {
    for (std::size_t j = 0; j < T; ++j)
      systems.nodes.push_back(1 + f.from_uint(rng()) % (f.modulus() - 1));
    systems.offsets.push_back(systems.nodes.size());
  }
  const std::size_t n = systems.nodes.size();
  for (std::size_t S : {31u, 16u, 5u}) {  // 16 + 8 + 4 + 2 + 1; 16; 4 + 1
    std::vector<std::uint64_t> rhs(S * n);
    for (auto& x : rhs) x = f.from_uint(rng());
    const auto device = solve_transposed_vandermonde<hepex::DeviceSpace>(f, systems, S, rhs);
    EXPECT_EQ(solve_transposed_vandermonde<hepex::HostSpace>(f, systems, S, rhs), device);
    for (std::size_t r = 0; r < S; ++r) {
      for (std::size_t g = 0; g < systems.groups(); ++g) {
        const std::size_t first = systems.offsets[g];
        const std::vector<std::uint64_t> got(device.begin() + r * n + first,
                                             device.begin() + r * n + systems.offsets[g + 1]);
        EXPECT_EQ(got, flint_solve(f, systems, g, rhs, r)) << "S=" << S << " r=" << r << " g=" << g;
      }
    }
  }
}

}  // namespace

// The engine's per-group host solve (solve_vandermonde_group) against FLINT
// on random groups of 1 to 600 nodes over random 63-bit primes, and its
// refusal of a repeated or zero node.
namespace {

TEST(Vandermonde, OneGroupOnTheHostMatchesFlint) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 43);
  const auto primes = hepex::field::large_primes(4);
  for (int trial = 0; trial < hepex::test::cases(40); ++trial) {
    const Zp64 f(primes[static_cast<std::size_t>(trial) % primes.size()]);
    const std::size_t T = trial < 10 ? 1 + static_cast<std::size_t>(trial) : 1 + rng() % 600;
    VandermondeSystems systems;
    for (std::size_t j = 0; j < T; ++j)
      systems.nodes.push_back(1 + f.from_uint(rng()) % (f.modulus() - 1));
    systems.offsets.push_back(T);
    std::vector<std::uint64_t> rhs(T);
    for (auto& b : rhs) b = f.from_uint(rng());
    std::vector<std::uint64_t> got(T);
    solve_vandermonde_group(f, systems.nodes.data(), rhs.data(), T, got.data());
    EXPECT_EQ(got, flint_solve(f, systems, 0, rhs, 0)) << "trial " << trial << ", T " << T;
  }
  const Zp64 f(primes[0]);
  std::vector<std::uint64_t> out(3), rhs{1, 2, 3};
  const std::vector<std::uint64_t> repeated{5, 7, 5}, zero{5, 0, 7};
  EXPECT_THROW(solve_vandermonde_group(f, repeated.data(), rhs.data(), 3, out.data()),
               hepex::Error);
  EXPECT_THROW(solve_vandermonde_group(f, zero.data(), rhs.data(), 3, out.data()), hepex::Error);
}

}  // namespace
