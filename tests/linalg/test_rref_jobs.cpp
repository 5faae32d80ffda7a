// linalg::RrefJobs over the test communicator (one process in hepex_tests,
// two ranks in hepex_mpi_tests), on the device and the host: every result is
// FLINT's RREF of its input, from Matrix Market files, .npy files and text
// alike, in every output format; a checkpoint skips every finished job;
// results survive encoding whatever bytes the matrix holds; a missing input
// fails on every rank with its name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "distributed/counting_job.hpp"
#include "distributed/test_communicator.hpp"
#include "flint_oracle.hpp"
#include "hepex/core/error.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/io/matrix_file.hpp"
#include "hepex/linalg/jobs.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace {

using hepex::Matrix;
using hepex::io::MatrixFormat;
using hepex::io::MatrixSource;
using hepex::test::communicator;

template <class Word>
Matrix<Word> random_low_rank(std::size_t rows, std::size_t cols, std::uint64_t p,
                             std::mt19937_64& rng) {
  // A product of random rows x r and r x cols factors: rank r at most.
  const std::size_t r = hepex::test::random_below(rng, std::min(rows, cols) + 1);
  Matrix<Word> a(rows, r), b(r, cols);
  for (auto& x : a.data) x = static_cast<Word>(hepex::test::random_below(rng, p));
  for (auto& x : b.data) x = static_cast<Word>(hepex::test::random_below(rng, p));
  if (r == 0) return Matrix<Word>(rows, cols, 0);
  return hepex::test::flint_mul(a, b, p);
}

template <class Word>
void jobs_match_flint(std::uint64_t p, MatrixFormat format, hepex::Place place, std::uint64_t seed,
                      int trial) {
  using F = hepex::field::Zp<Word>;
  const F f(p);
  std::mt19937_64 rng(seed);
  const std::size_t count = 1 + hepex::test::random_below(rng, 7);
  std::vector<Matrix<Word>> matrices;
  std::vector<MatrixSource> inputs;
  const std::string dir = hepex::test::shared_scratch_name("rref-jobs-" + std::to_string(trial));
  if (communicator().rank() == 0) std::filesystem::create_directories(dir);
  for (std::size_t j = 0; j < count; ++j) {
    const std::size_t rows = 1 + hepex::test::random_below(rng, 40);
    const std::size_t cols = 1 + hepex::test::random_below(rng, 40);
    matrices.push_back(random_low_rank<Word>(rows, cols, p, rng));
    const auto kind = hepex::test::random_below(rng, 3);
    const std::string path = dir + "/m" + std::to_string(j) + (kind == 1 ? ".npy" : ".mtx");
    if (kind == 2) {
      std::ostringstream text;
      hepex::io::write_matrix_market(text, matrices.back(), f);
      inputs.push_back(MatrixSource::contents("text " + std::to_string(j), text.str()));
      continue;
    }
    if (communicator().rank() == 0) {
      std::ofstream out(path, std::ios::binary);
      hepex::io::write_matrix(out, matrices.back(), f,
                              kind == 1 ? MatrixFormat::npy : MatrixFormat::array);
      ASSERT_TRUE(out.good());
    }
    inputs.push_back(MatrixSource::file(path));
  }
  communicator().barrier();
  const auto limits = hepex::io::ReadLimits{std::size_t{1} << 30, 3};
  hepex::linalg::RrefJobs<F> jobs(f, inputs, place, format, limits);
  hepex::test::CountingJob<hepex::linalg::RrefJobResult> counting(jobs);
  hepex::distributed::RunOptions options;
  options.chunk = 1 + hepex::test::random_below(rng, 3);
  options.schedule = seed % 2 ? hepex::distributed::Schedule::dynamic
                              : hepex::distributed::Schedule::static_blocks;
  options.checkpoint = dir + "/checkpoint";
  const auto results = hepex::distributed::run(communicator(), counting, options);
  const auto ran_first = communicator().max(static_cast<long long>(counting.ran));
  EXPECT_GE(ran_first, 1);
  if (communicator().rank() == 0) {
    ASSERT_EQ(results.size(), count);
    for (std::size_t j = 0; j < count; ++j) {
      SCOPED_TRACE("matrix " + std::to_string(j) + " of " + std::to_string(count));
      hepex::test::FlintMatrix oracle(matrices[j], p);
      const auto rank = static_cast<std::size_t>(nmod_mat_rref(oracle.get()));
      const auto want = oracle.template to_matrix<Word>();
      const auto& r = results[j];
      EXPECT_EQ(r.rows, matrices[j].rows);
      EXPECT_EQ(r.cols, matrices[j].cols);
      EXPECT_EQ(r.rank, rank);
      EXPECT_EQ(r.pivots, hepex::test::leading_columns(want));
      std::ostringstream bytes;
      hepex::io::write_matrix(bytes, want, f, format);
      EXPECT_EQ(r.matrix, bytes.str());
    }
  }
  // Again with the checkpoint: nothing runs, the same results come back.
  counting.ran = 0;
  const auto again = hepex::distributed::run(communicator(), counting, options);
  EXPECT_EQ(communicator().max(static_cast<long long>(counting.ran)), 0);
  if (communicator().rank() == 0) EXPECT_TRUE(again == results);
}

TEST(RrefJobs, EveryResultIsFlintsRrefAndACheckpointSkipsThemAll) {
  for (int trial = 0; trial < hepex::test::cases(12); ++trial) {
    const std::uint64_t seed = hepex::test::seed() + static_cast<std::uint64_t>(trial);
    SCOPED_TRACE(hepex::test::seed_trace() + " trial " + std::to_string(trial));
    const auto format = static_cast<MatrixFormat>(trial % 3);
    // The default device (the host's space in a build without one) and the host.
    const auto place = trial % 4 < 2 ? hepex::Place::device : hepex::Place::host;
    if (trial % 2) {
      jobs_match_flint<std::uint32_t>(2147483647, format, place, seed, trial);
    } else {
      jobs_match_flint<std::uint64_t>(4611686018427387847ull, format, place, seed, trial);
    }
  }
}

TEST(RrefJobs, ResultsSurviveEncodingWhateverTheMatrixHolds) {
  const hepex::field::Zp32 f(65521);
  hepex::linalg::RrefJobs<hepex::field::Zp32> jobs(f, {}, hepex::Place::host, MatrixFormat::npy,
                                                   {});
  std::mt19937_64 rng(hepex::test::seed());
  for (int trial = 0; trial < hepex::test::cases(50); ++trial) {
    SCOPED_TRACE(hepex::test::seed_trace() + " trial " + std::to_string(trial));
    hepex::linalg::RrefJobResult r;
    r.rows = hepex::test::random_below(rng, 1000);
    r.cols = hepex::test::random_below(rng, 1000);
    r.rank = hepex::test::random_below(rng, 5);
    for (std::size_t i = 0; i < r.rank; ++i) r.pivots.push_back(static_cast<int>(3 * i + 1));
    r.seconds = hepex::test::random_real(rng, 0.0, 10.0);
    // Bytes that look like the trailer, NULs, newlines.
    for (std::size_t i = hepex::test::random_below(rng, 300); i > 0; --i) {
      r.matrix += static_cast<char>(hepex::test::random_below(rng, 256));
      if (hepex::test::random_chance(rng, 0.05)) r.matrix += "\nhepex-rref 12 3 4 5 0x1p+0 1";
    }
    EXPECT_TRUE(jobs.decode(jobs.encode(r)) == r);
  }
  for (const std::string bad :
       {"", "\nhepex-rref", "abc\nhepex-rref 4 1 1 1 0x1p+0 0", "abc\nhepex-rref 3 1 1 2 0x1p+0 0",
        "abc\nhepex-rref 3 1 1 1 0x1p+0 0 x"}) {
    EXPECT_THROW(jobs.decode(bad), hepex::Error) << bad;
  }
}

TEST(RrefJobs, AMissingInputFailsOnEveryRankWithItsName) {
  const hepex::field::Zp32 f(65521);
  const std::string dir = hepex::test::shared_scratch_name("rref-jobs-missing");
  hepex::linalg::RrefJobs<hepex::field::Zp32> jobs(
      f,
      {MatrixSource::contents("a", "%%MatrixMarket matrix array integer general\n1 1\n3\n"),
       MatrixSource::file(dir + "/absent.mtx")},
      hepex::Place::host, MatrixFormat::array, {std::size_t{1} << 20, 3});
  try {
    hepex::distributed::run(communicator(), jobs);
    ADD_FAILURE() << "no error";
  } catch (const hepex::Error& e) {
    EXPECT_NE(std::string(e.what()).find("absent.mtx"), std::string::npos) << e.what();
  }
}

}  // namespace
