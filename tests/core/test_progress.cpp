// Progress reports and interruptions (core/progress.hpp, issue 36): the long
// loops report how far they are to the calling thread's watch, and a poll
// that throws ends them at once, the exception reaching the caller (that is
// how Python's Ctrl-C stops hepex within a second), after which hepex works
// as before.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "amplitudes/reference_data.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/core/progress.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "hepex/linalg/rref.hpp"
#include "hepex/reconstruct/rational.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex;

struct Stop {};

Matrix<std::uint32_t> random_matrix(std::size_t rows, std::size_t cols, std::uint32_t p) {
  std::mt19937_64 rng(test::seed());
  Matrix<std::uint32_t> a(rows, cols);
  for (auto& x : a.data) x = static_cast<std::uint32_t>(rng() % p);
  return a;
}

// A watch whose poll throws Stop at its `at`-th call (and counts them all).
struct StopAt {
  explicit StopAt(int at) : watch(hooks(at)) {}
  ProgressWatch::Hooks hooks(int at) {
    ProgressWatch::Hooks h;
    h.poll_every = 0;
    h.poll = [this, at] {
      if (++polls == at) throw Stop{};
    };
    return h;
  }
  int polls = 0;
  ProgressWatch watch;
};

TEST(Progress, DescribeSaysRateShareAndEta) {
  Progress p;
  p.task = "rref";
  p.stage = "panel 3";
  p.unit = "columns";
  p.done = 1000;
  p.total = 4000;
  p.seconds = 2;
  EXPECT_EQ(
      p.describe(),
      "rref (panel 3): 1000 of 4000 columns (25.0%), 500 columns/s, elapsed 2.0 s, ETA 6.0 s");
  p.fraction = 0.5;  // the work is not linear in the units
  EXPECT_EQ(
      p.describe(),
      "rref (panel 3): 1000 of 4000 columns (50.0%), 500 columns/s, elapsed 2.0 s, ETA 2.0 s");
  p.total = 0;
  p.fraction = -1;
  p.stage.clear();
  EXPECT_EQ(p.describe(), "rref: 1000 columns, 500 columns/s, elapsed 2.0 s");
  EXPECT_LT(p.eta_seconds(), 0);
}

TEST(Progress, WatchesNestAndRestore) {
  EXPECT_EQ(ProgressWatch::current(), nullptr);
  {
    ProgressWatch outer({});
    EXPECT_EQ(ProgressWatch::current(), &outer);
    {
      ProgressWatch inner({});
      EXPECT_EQ(ProgressWatch::current(), &inner);
    }
    EXPECT_EQ(ProgressWatch::current(), &outer);
  }
  EXPECT_EQ(ProgressWatch::current(), nullptr);
}

// Reports come with the columns done, increasing, and the share of the work.
TEST(Progress, RrefReportsItsColumns) {
  SCOPED_TRACE(test::seed_trace());
  const std::uint32_t p = 65521;
  std::vector<Progress> reports;
  ProgressWatch::Hooks hooks;
  hooks.report_every = 0;
  hooks.report = [&](const Progress& r) { reports.push_back(r); };
  ProgressWatch watch(hooks);
  for (const int block : {-1, 64}) {
    reports.clear();
    auto a = random_matrix(300, 300, p);
    linalg::RrefOptions options;
    options.block_columns = block;
    options.leaf_columns = 32;
    linalg::rref(field::Zp32(p), a, Place::device, options);
    ASSERT_GE(reports.size(), 4u) << "block " << block;
    for (std::size_t i = 0; i < reports.size(); ++i) {
      EXPECT_EQ(reports[i].task, "rref");
      EXPECT_EQ(reports[i].unit, "columns");
      EXPECT_EQ(reports[i].total, 300);
      EXPECT_GE(reports[i].share(), 0);
      EXPECT_LE(reports[i].share(), 1);
      if (i > 0) EXPECT_GT(reports[i].done, reports[i - 1].done);
    }
  }
}

// A poll that throws ends each long call; afterwards the same call works.
TEST(Progress, AThrowingPollEndsEachFamilysLongCalls) {
  SCOPED_TRACE(test::seed_trace());
  const std::uint32_t p = 65521;
  const field::Zp32 f(p);
  for (const int block : {-1, 64}) {
    auto a = random_matrix(400, 400, p);
    linalg::RrefOptions options;
    options.block_columns = block;
    options.leaf_columns = 32;
    {
      StopAt stop(5);
      EXPECT_THROW(linalg::rref(f, a, Place::device, options), Stop) << "block " << block;
    }
    auto b = random_matrix(400, 400, p);
    EXPECT_EQ(linalg::rref(f, b, Place::device, options).rank, 400u);
  }
  {
    const auto a = random_matrix(1500, 600, p), b = random_matrix(600, 600, p);
    StopAt stop(2);  // products in blocks of rows while watched
    EXPECT_THROW(linalg::modgemm(f, a, b), Stop);
  }
  {
    StopAt stop(3);
    reconstruct::ReconstructOptions options;
    options.seed = test::seed();
    const auto box = reconstruct::expression_black_box(
        {io::Expression::parse("(x^20 + y^13 + x*y)/(x + 2*y + 3)", {"x", "y"})}, 2);
    EXPECT_THROW(reconstruct::reconstruct(*box, options), Stop);
  }
  {
    const auto process = amplitudes::Process::gg_ttg;
    const auto ref = test::read_reference(amplitudes::process_info(process), true);
    amplitudes::MatrixElement me(process);
    std::vector<double> many;
    for (int copy = 0; copy < 40; ++copy)
      many.insert(many.end(), ref.momenta.begin(), ref.momenta.end());
    {
      StopAt stop(2);  // events in batches while watched
      EXPECT_THROW(me.evaluate(many), Stop);
    }
    const auto values = me.evaluate(ref.momenta);
    for (std::size_t e = 0; e < values.size(); ++e) EXPECT_NEAR(values[e] / ref.me[e], 1, 1e-12);
  }
}

// Watched, the host API evaluates in batches: the results are those of one batch.
TEST(Progress, BatchedMatrixElementsEqualOneBatch) {
  SCOPED_TRACE(test::seed_trace());
  const auto process = amplitudes::Process::gg_ttg;
  const auto ref = test::read_reference(amplitudes::process_info(process), true);
  amplitudes::MatrixElement me(process);
  amplitudes::EventInputs inputs;
  std::mt19937_64 rng(test::seed());
  for (std::size_t e = 0; e < ref.size(); ++e) {
    inputs.rndhel.push_back(hepex::test::UniformReal(0, 1)(rng));
    inputs.rndcol.push_back(hepex::test::UniformReal(0, 1)(rng));
  }
  const auto alone = me.evaluate(ref.momenta, inputs);
  ProgressWatch::Hooks hooks;
  hooks.poll = [] {};
  ProgressWatch watch(hooks);
  const auto batched = me.evaluate(ref.momenta, inputs);
  EXPECT_EQ(batched.me, alone.me);
  EXPECT_EQ(batched.selhel, alone.selhel);
  EXPECT_EQ(batched.selcol, alone.selcol);
}

}  // namespace
