// The fast transposed Vandermonde solve (subproduct tree descent) against the
// known unknowns and against the O(T^2) solve: groups of sizes straddling the
// schoolbook/NTT switches and the powers of two, 1..17 right-hand sides, a
// prime near 2^63 and a small one; the automatic choice on both sides of the
// threshold; zero and repeated nodes refused by both methods.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "exec_spaces.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/host_cores.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/detail/vandermonde.hpp"
#include "kernel_log.hpp"
#include "test_seed.hpp"

namespace {

using hepex::DeviceSpace;
using hepex::field::Zp64;
using namespace hepex::reconstruct;
using namespace hepex::reconstruct::detail;

// Random distinct nonzero nodes in groups of the given sizes.
VandermondeSystems random_systems(const Zp64& f, const std::vector<std::size_t>& sizes,
                                  std::mt19937_64& rng) {
  VandermondeSystems s;
  for (std::size_t T : sizes) {
    std::vector<std::uint64_t> group;
    while (group.size() < T) {
      const std::uint64_t m = 1 + f.from_uint(rng()) % (f.modulus() - 1);
      if (std::find(group.begin(), group.end(), m) == group.end()) group.push_back(m);
    }
    s.nodes.insert(s.nodes.end(), group.begin(), group.end());
    s.offsets.push_back(s.nodes.size());
  }
  return s;
}

// b_{k+1} = sum_j a_j m_j^(k+1) of every group and row.
std::vector<std::uint64_t> right_hand_sides(const Zp64& f, const VandermondeSystems& s,
                                            std::size_t S, const std::vector<std::uint64_t>& a) {
  const std::size_t n = s.nodes.size();
  std::vector<std::uint64_t> b(S * n, 0);
  for (std::size_t g = 0; g < s.groups(); ++g) {
    for (std::size_t j = s.offsets[g]; j < s.offsets[g + 1]; ++j) {
      std::uint64_t power = s.nodes[j];
      for (std::size_t k = s.offsets[g]; k < s.offsets[g + 1]; ++k) {
        for (std::size_t r = 0; r < S; ++r) b[r * n + k] = f.fma(a[r * n + j], power, b[r * n + k]);
        power = f.mul(power, s.nodes[j]);
      }
    }
  }
  return b;
}

TEST(FastVandermonde, MatchesKnownUnknownsAndTheQuadraticSolve) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 7);
  for (const std::uint64_t p : {hepex::field::large_primes(1).front(), std::uint64_t{1000003}}) {
    const Zp64 f(p);
    const auto systems = random_systems(
        f, {1, 2, 3, 31, 0, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 700, 2100}, rng);
    const std::size_t n = systems.nodes.size();
    for (std::size_t S : {1u, 5u, 17u}) {
      std::vector<std::uint64_t> a(S * n);
      for (auto& x : a) x = f.from_uint(rng());
      const auto b = right_hand_sides(f, systems, S, a);
      const TransposedVandermonde<DeviceSpace> fast(f, systems, VandermondeMethod::fast);
      EXPECT_EQ(fast.solve(S, b), a) << "p=" << p << " S=" << S;
      if (S == 5) {
        std::vector<std::uint64_t> random_b(S * n);
        for (auto& x : random_b) x = f.from_uint(rng());
        EXPECT_EQ(fast.solve(S, random_b),
                  solve_transposed_vandermonde<DeviceSpace>(f, systems, S, random_b,
                                                            VandermondeMethod::quadratic))
            << "p=" << p;
      }
    }
  }
}

template <class Space>
class FastVandermondeOnSpace : public ::testing::Test {};
TYPED_TEST_SUITE(FastVandermondeOnSpace, hepex::test::EnabledSpaces, hepex::test::SpaceNames);

// The automatic choice on both sides of its threshold (fast_from_terms_host
// on host cores, fast_from_terms_device on a GPU), observed in the kernels
// the solver launches (KernelLog): a group of T - 1 unknowns sets up the
// O(T^2) solve and no subproduct tree, a group of T the tree and no O(T^2)
// solve, a mix of sizes both; every solve gives the known unknowns.
TYPED_TEST(FastVandermondeOnSpace, AutomaticChoiceAcrossTheThreshold) {
  using Space = TypeParam;
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 8);
  const Zp64 f(hepex::field::large_primes(2).back());
  const std::size_t T = hepex::runs_on_host_cores<Space> ? detail::fast_from_terms_host
                                                         : detail::fast_from_terms_device;
  EXPECT_FALSE(detail::use_fast<Space>(VandermondeMethod::automatic, T - 1));
  EXPECT_TRUE(detail::use_fast<Space>(VandermondeMethod::automatic, T));
  struct Case {
    std::vector<std::size_t> sizes;
    bool quadratic, fast;  // which solves the automatic choice must set up
  };
  for (const Case& c : {Case{{T - 1}, true, false}, Case{{T}, false, true},
                        Case{{T + 1, T - 1, 5, T}, true, true}}) {
    SCOPED_TRACE("group sizes " + std::to_string(c.sizes.front()) + "... (threshold " +
                 std::to_string(T) + ")");
    const auto systems = random_systems(f, c.sizes, rng);
    const std::size_t n = systems.nodes.size(), S = 2;
    std::vector<std::uint64_t> a(S * n);
    for (auto& x : a) x = f.from_uint(rng());
    hepex::test::KernelLog log;
    const TransposedVandermonde<Space> solver(f, systems);
    EXPECT_EQ(log.count({"hepex::vandermonde::denominators"}), c.quadratic ? 1u : 0u);
    EXPECT_EQ(log.count_prefix("hepex::fast_vandermonde::") > 0, c.fast);
    EXPECT_EQ(solver.solve(S, right_hand_sides(f, systems, S, a)), a);
  }
}

TEST(FastVandermonde, RefusesZeroAndRepeatedNodes) {
  const Zp64 f(1000003);
  for (auto method : {VandermondeMethod::fast, VandermondeMethod::quadratic}) {
    for (const std::vector<std::uint64_t>& bad :
         {std::vector<std::uint64_t>{5, 7, 0, 9}, std::vector<std::uint64_t>{5, 7, 11, 7},
          std::vector<std::uint64_t>{5, 1000003}}) {
      VandermondeSystems s;
      s.nodes = {2, 3};
      s.offsets.push_back(2);
      s.nodes.insert(s.nodes.end(), bad.begin(), bad.end());
      s.offsets.push_back(s.nodes.size());
      try {
        TransposedVandermonde<DeviceSpace> solver(f, s, method);
        ADD_FAILURE() << "accepted bad nodes";
      } catch (const hepex::Error& e) {
        EXPECT_NE(std::string(e.what()).find("node"), std::string::npos) << e.what();
      }
    }
  }
}

}  // namespace
