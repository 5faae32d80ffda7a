// The traced replay program (reduce/detail/replay_program.hpp) against the
// elimination it records (detail::replay, which re-eliminates at every
// point): random sparse systems mod a 63-bit prime, learned and traced at
// one point, then at many random points the program (on the host, and in
// the batched kernel on every execution space the build has) must give
// replay()'s table exactly, and fail exactly where replay() fails (a learned
// pivot that vanishes). Duplicated equations make rows that cancel
// identically, the case where tracing drops entries.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "hepex/core/spaces.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/reduce/detail/elimination.hpp"
#include "hepex/reduce/detail/replay_kernel.hpp"
#include "hepex/reduce/detail/replay_program.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex::reduce::detail;
using hepex::field::Zp64;

struct RandomSystem {
  std::vector<SparseEquation> equations;
  std::size_t columns = 0, slots = 0;
  std::vector<std::uint32_t> targets;
};

RandomSystem random_system(std::mt19937_64& rng) {
  RandomSystem s;
  s.columns = 4 + rng() % 40;
  const std::size_t E = s.columns - 1 - rng() % 3;
  for (std::size_t e = 0; e < E; ++e) {
    std::set<std::uint32_t> cols;
    const std::size_t width = 1 + rng() % 5;
    while (cols.size() < std::min(width, s.columns))
      cols.insert(static_cast<std::uint32_t>(rng() % s.columns));
    SparseEquation eq;
    for (const std::uint32_t c : cols) {
      eq.columns.push_back(c);
      eq.slots.push_back(static_cast<std::uint32_t>(s.slots++));
    }
    s.equations.push_back(eq);
    if (rng() % 6 == 0) s.equations.push_back(eq);  // the same slots: cancels identically
  }
  std::set<std::uint32_t> targets;
  const std::size_t T = 1 + rng() % 4;
  while (targets.size() < T) targets.insert(static_cast<std::uint32_t>(rng() % s.columns));
  s.targets.assign(targets.begin(), targets.end());
  return s;
}

std::vector<std::uint64_t> random_values(std::mt19937_64& rng, const Zp64& f, std::size_t n) {
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = f.from_uint(rng());
  return v;
}

template <class Space>
void kernel_agrees(const Zp64& f, const ReplayProgram& program,
                   const std::vector<std::uint64_t>& inputs, std::size_t points,
                   const std::vector<std::uint64_t>& table, const std::vector<std::uint8_t>& ok) {
  const ReplayKernel<Space> kernel(program);
  const std::size_t F = program.outputs.size();
  std::vector<std::uint64_t> got(points * F, 7);
  std::vector<std::uint8_t> got_ok(points, 9);
  kernel.run(f, points, inputs.data(), got.data(), got_ok.data());
  for (std::size_t i = 0; i < points; ++i) {
    ASSERT_EQ(got_ok[i], ok[i]) << "point " << i;
    if (ok[i] == 0) continue;
    for (std::size_t k = 0; k < F; ++k)
      ASSERT_EQ(got[i * F + k], table[i * F + k]) << "point " << i << " entry " << k;
  }
}

TEST(ReplayProgram, AgreesWithTheEliminationAtRandomPoints) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  std::size_t failed_points = 0, compared = 0, instructions = 0;
  for (int trial = 0; trial < hepex::test::cases(150); ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const Zp64 f(hepex::field::random_large_primes(1, rng())[0]);
    const RandomSystem s = random_system(rng);
    const auto learn_values = random_values(rng, f, s.slots);
    const Plan plan = learn(f, s.equations, s.columns, s.targets, learn_values.data());
    {  // learn()'s own table at its point is replay()'s there
      std::vector<std::uint64_t> at_learning(plan.targets.size() * plan.masters.size());
      ASSERT_TRUE(replay(f, s.equations, plan, learn_values.data(), at_learning.data()));
      ASSERT_EQ(plan.table, at_learning);
    }
    const ReplayProgram program =
        trace(f, s.equations, plan, random_values(rng, f, s.slots).data());
    instructions += program.instructions.size();
    ASSERT_GE(program.registers, program.inputs);
    const std::size_t F = plan.targets.size() * plan.masters.size();
    ASSERT_EQ(program.outputs.size(), F);
    const std::size_t points = 40;
    std::vector<std::uint64_t> inputs(points * program.inputs), tables(points * F);
    std::vector<std::uint8_t> ok(points);
    for (std::size_t i = 0; i < points; ++i) {
      auto values = random_values(rng, f, s.slots);
      // Some points zero a coefficient: a learned pivot may vanish there.
      if (i % 4 == 3) values[rng() % s.slots] = 0;
      std::vector<std::uint64_t> expected(F), got(F), registers(program.registers);
      const bool replayed = replay(f, s.equations, plan, values.data(), expected.data());
      std::copy(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(program.inputs),
                registers.begin());
      std::copy(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(program.inputs),
                inputs.begin() + static_cast<std::ptrdiff_t>(i * program.inputs));
      const bool ran = run(f, program, registers.data(), got.data());
      if (replayed) {
        ASSERT_TRUE(ran) << "point " << i;
        ASSERT_EQ(got, expected) << "point " << i;
        ++compared;
      } else {
        // replay() fails where its pivots move (a coefficient zero here);
        // the program still runs where its own pivots stay nonzero (its
        // table is then the elimination with those pivots, still right),
        // and the kernel must agree with it either way.
        ++failed_points;
      }
      ok[i] = ran ? 1 : 0;
      if (ran)
        std::copy(got.begin(), got.end(), tables.begin() + static_cast<std::ptrdiff_t>(i * F));
    }
    kernel_agrees<hepex::DeviceSpace>(f, program, inputs, points, tables, ok);
    kernel_agrees<Kokkos::DefaultHostExecutionSpace>(f, program, inputs, points, tables, ok);
  }
  EXPECT_GT(compared, 4000u);
  EXPECT_GT(failed_points, 50u);  // the vanishing-pivot points were exercised
  EXPECT_GT(instructions, 1000u);
}

TEST(ReplayProgram, AVanishingPivotFailsThePoint) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 1);
  const Zp64 f(hepex::field::random_large_primes(1, rng())[0]);
  // x0 + x1 = 0 (slots 0, 1); x1 + x2 = 0 (slots 2, 3); target x0.
  std::vector<SparseEquation> eqs{{{0, 1}, {0, 1}}, {{1, 2}, {2, 3}}};
  const auto values = random_values(rng, f, 4);
  const Plan plan = learn(f, eqs, 3, {0}, values.data());
  const ReplayProgram program = trace(f, eqs, plan, values.data());
  std::vector<std::uint64_t> registers(program.registers), table(1);
  for (std::uint32_t zero : {0u, 2u}) {  // each equation's pivot coefficient
    auto v = random_values(rng, f, 4);
    v[zero] = 0;
    std::copy(v.begin(), v.end(), registers.begin());
    EXPECT_FALSE(run(f, program, registers.data(), table.data())) << "slot " << zero;
  }
  auto v = random_values(rng, f, 4);
  std::copy(v.begin(), v.end(), registers.begin());
  ASSERT_TRUE(run(f, program, registers.data(), table.data()));
  // x0 = -(v1/v0) x1 = (v1/v0)(v3/v2) x2: the table's one entry.
  EXPECT_EQ(table[0], f.mul(f.mul(v[1], f.inv(v[0])), f.mul(v[3], f.inv(v[2]))));
}

}  // namespace
