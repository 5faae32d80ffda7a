// linalg::distributed_rref over the test communicator (one process in
// hepex_tests, two ranks in hepex_mpi_tests), on the device and the host:
// each rank reduces its block of rows of the same random matrix (full rank,
// low rank with rows repeated across ranks, zero, staircase rows whose
// first free rows do not span a panel; more ranks than rows), with panels of
// 1, 3 and 8 columns and the automatic width (the update and the back
// substitution in products of 2 and 5 columns for panels of 3 and 8), and
// the gathered RREF equals FLINT's, with its rank and pivots on every rank;
// the same for rows given in device memory, and with rows over NCCL (or its
// refusal where it cannot run). Ranks whose rows have different column counts
// fail on every rank.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "distributed/test_communicator.hpp"
#include "flint_oracle.hpp"
#include "hepex/core/error.hpp"
#include "hepex/linalg/distributed_rref.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace {

using hepex::Matrix;
using hepex::test::communicator;

enum class Kind { random, low_rank, repeated, zero, staircase };

template <class Word>
Matrix<Word> make_matrix(Kind kind, std::size_t rows, std::size_t cols, std::uint64_t p,
                         std::mt19937_64& rng) {
  Matrix<Word> a(rows, cols, 0);
  if (kind == Kind::zero) return a;
  if (kind == Kind::random) {
    for (auto& x : a.data) x = static_cast<Word>(hepex::test::random_below(rng, p));
    return a;
  }
  // staircase: row i zero left of column (rows - 1 - i) cols / rows, so that
  // the first free rows of every rank are zero in the first panels and do
  // not span them (root must ask every rank for its spanning rows).
  if (kind == Kind::staircase) {
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = (rows - 1 - i) * cols / rows; j < cols; ++j)
        a(i, j) = static_cast<Word>(hepex::test::random_below(rng, p));
    return a;
  }
  // low_rank: a product of rows x r and r x cols factors; repeated: the
  // first half of the rows again in the second half (a rank's rows equal
  // another's).
  const std::size_t r = 1 + hepex::test::random_below(rng, std::min(rows, cols));
  Matrix<Word> x(rows, r), y(r, cols);
  for (auto& v : x.data) v = static_cast<Word>(hepex::test::random_below(rng, p));
  for (auto& v : y.data) v = static_cast<Word>(hepex::test::random_below(rng, p));
  a = hepex::test::flint_mul(x, y, p);
  if (kind == Kind::repeated) {
    for (std::size_t i = rows / 2; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) a(i, j) = a(i - rows / 2, j);
  }
  return a;
}

template <class Word>
void expect_distributed_equals_flint(const Matrix<Word>& a, std::uint64_t p, int width,
                                     hepex::Place place, const std::string& what) {
  const auto& comm = communicator();
  const auto [first, count] = hepex::linalg::rank_rows(a.rows, comm.rank(), comm.size());
  Matrix<Word> local(count, a.cols);
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) local(i, j) = a(first + i, j);
  hepex::linalg::DistributedRrefOptions options;
  options.panel_columns = width;
  options.update_columns = width == 3 ? 2 : width == 8 ? 5 : 0;  // several products per panel
  options.place = place;
  const auto result =
      hepex::linalg::distributed_rref(comm, hepex::field::Zp<Word>(p), local, options);
  const Matrix<Word> got = hepex::linalg::gather_rref(comm, local, result);

  hepex::test::FlintMatrix oracle(a, p);
  const auto rank = static_cast<std::size_t>(nmod_mat_rref(oracle.get()));
  const Matrix<Word> want = oracle.template to_matrix<Word>();
  std::ostringstream where;
  where << what << ": " << a.rows << "x" << a.cols << " mod " << p << ", panels of " << width
        << " on " << hepex::place_name(place) << ", rank " << comm.rank() << " of " << comm.size()
        << " (" << hepex::test::seed_trace() << ")";
  ASSERT_EQ(result.rows, a.rows) << where.str();
  ASSERT_EQ(result.cols, a.cols) << where.str();
  ASSERT_EQ(result.rank, rank) << where.str();
  ASSERT_EQ(result.pivots, hepex::test::leading_columns(want)) << where.str();
  ASSERT_EQ(result.row_pivots.size(), count) << where.str();
  std::size_t pivot_rows = 0;
  for (const int q : result.row_pivots) pivot_rows += q >= 0 ? 1 : 0;
  ASSERT_LE(pivot_rows, rank) << where.str();
  if (comm.rank() == 0) {
    ASSERT_TRUE(got == want) << where.str();
  } else {
    ASSERT_EQ(got.rows, 0u) << where.str();
  }
}

template <class Word>
void random_cases(std::uint64_t p) {
  std::mt19937_64 rng(hepex::test::seed() ^ p);
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1}, {1, 9}, {9, 1}, {2, 5}, {13, 13}, {40, 40}, {61, 17}, {17, 61}, {33, 70}, {70, 33}};
  const Kind kinds[] = {Kind::random, Kind::low_rank, Kind::repeated, Kind::zero, Kind::staircase};
  for (int trial = 0; trial < hepex::test::cases(1); ++trial) {
    for (const auto& [rows, cols] : shapes) {
      for (const Kind kind : kinds) {
        const Matrix<Word> a = make_matrix<Word>(kind, rows, cols, p, rng);
        for (const int width : {1, 3, 8, 0}) {
          for (const auto place : {hepex::Place::device, hepex::Place::host}) {
            expect_distributed_equals_flint(a, p, width, place,
                                            "kind " + std::to_string(static_cast<int>(kind)) +
                                                " trial " + std::to_string(trial));
            // Every rank stops together: one that returned alone would leave
            // the others waiting in the next collective.
            if (communicator().max(::testing::Test::HasFailure() ? 1 : 0) != 0) return;
          }
        }
      }
    }
  }
}

TEST(DistributedRref, EqualsFlintModSmallPrime) { random_cases<std::uint32_t>(65521); }
TEST(DistributedRref, EqualsFlintMod2To31Minus1) { random_cases<std::uint32_t>(2147483647); }
TEST(DistributedRref, EqualsFlintMod62BitPrime) {
  random_cases<std::uint64_t>(4611686018427387847ull);
}

// A matrix of 300 x 260 over panels of 64: many panels, each rank's block
// reduced against the others' pivots.
TEST(DistributedRref, EqualsFlintOnALargerMatrix) {
  std::mt19937_64 rng(hepex::test::seed());
  const std::uint64_t p = 2147483647;
  const auto a = make_matrix<std::uint32_t>(Kind::low_rank, 300, 260, p, rng);
  expect_distributed_equals_flint(a, p, 64, hepex::Place::device, "low rank 300x260");
  expect_distributed_equals_flint(a, p, 8, hepex::Place::host, "low rank 300x260");
  const auto b = make_matrix<std::uint32_t>(Kind::random, 260, 300, p, rng);
  expect_distributed_equals_flint(b, p, 64, hepex::Place::device, "random 260x300");
}

// The device API: each rank's rows in device memory, reduced there in place.
TEST(DistributedRref, ReducesDeviceRowsInPlace) {
  const auto& comm = communicator();
  std::mt19937_64 rng(hepex::test::seed() + 42);
  const std::uint64_t p = 2147483647;
  for (const Kind kind : {Kind::random, Kind::low_rank, Kind::staircase}) {
    const auto a = make_matrix<std::uint32_t>(kind, 90, 75, p, rng);
    const auto [first, count] = hepex::linalg::rank_rows(a.rows, comm.rank(), comm.size());
    Matrix<std::uint32_t> block(count, a.cols);
    std::copy_n(a.data.begin() + static_cast<std::ptrdiff_t>(first * a.cols), count * a.cols,
                block.data.begin());
    const auto rows = hepex::to_device<hepex::DeviceMemory>(block);
    hepex::linalg::DistributedRrefOptions options;
    options.panel_columns = 16;
    options.update_columns = 7;
    const auto result = hepex::linalg::distributed_rref(comm, hepex::field::Zp32(p), rows, options);
    const Matrix<std::uint32_t> got =
        hepex::linalg::gather_rref(comm, hepex::to_host(rows), result);
    hepex::test::FlintMatrix oracle(a, p);
    const auto rank = static_cast<std::size_t>(nmod_mat_rref(oracle.get()));
    const std::string where = "kind " + std::to_string(static_cast<int>(kind)) + ", rank " +
                              std::to_string(comm.rank()) + " (" + hepex::test::seed_trace() + ")";
    EXPECT_EQ(result.rank, rank) << where;
    if (comm.rank() == 0) EXPECT_TRUE(got == oracle.to_matrix<std::uint32_t>()) << where;
    if (communicator().max(::testing::Test::HasFailure() ? 1 : 0) != 0) return;
  }
}

// Rows over NCCL, GPU to GPU, when asked for: with NCCL and a GPU the same
// RREF as FLINT's (the rows travelled over NCCL); otherwise a clear error on
// every rank before any work (no NCCL in the build, or rows in host memory).
TEST(DistributedRref, NcclCarriesTheRowsOrIsRefused) {
  const auto& comm = communicator();
  std::mt19937_64 rng(hepex::test::seed() + 7);
  const std::uint64_t p = 2147483647;
  const auto a = make_matrix<std::uint32_t>(Kind::staircase, 80, 96, p, rng);
  const auto [first, count] = hepex::linalg::rank_rows(a.rows, comm.rank(), comm.size());
  for (const auto place : {hepex::Place::device, hepex::Place::host}) {
    Matrix<std::uint32_t> local(count, a.cols);
    std::copy_n(a.data.begin() + static_cast<std::ptrdiff_t>(first * a.cols), count * a.cols,
                local.data.begin());
    hepex::linalg::DistributedRrefOptions options;
    options.panel_columns = 16;
    options.place = place;
    options.messages = hepex::linalg::DistributedRrefOptions::Messages::nccl;
    const bool possible = hepex::distributed::built_with_nccl() && hepex::has_accelerator &&
                          place == hepex::Place::device;
    const std::string where =
        std::string(hepex::place_name(place)) + ", rank " + std::to_string(comm.rank());
    try {
      const auto result =
          hepex::linalg::distributed_rref(comm, hepex::field::Zp32(p), local, options);
      EXPECT_TRUE(possible) << where << ": NCCL was taken where it cannot run";
      EXPECT_TRUE(result.nccl) << where;
      const Matrix<std::uint32_t> got = hepex::linalg::gather_rref(comm, local, result);
      hepex::test::FlintMatrix oracle(a, p);
      nmod_mat_rref(oracle.get());
      if (comm.rank() == 0) EXPECT_TRUE(got == oracle.to_matrix<std::uint32_t>()) << where;
    } catch (const hepex::Error& e) {
      EXPECT_FALSE(possible) << where << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("NCCL"), std::string::npos) << e.what();
    }
    if (communicator().max(::testing::Test::HasFailure() ? 1 : 0) != 0) return;
  }
}

TEST(DistributedRref, RanksWithDifferentColumnCountsFailOnEveryRank) {
  const auto& comm = communicator();
  Matrix<std::uint32_t> local(3, comm.rank() == comm.size() - 1 ? 6 : 5, 1);
  try {
    hepex::linalg::distributed_rref(comm, hepex::field::Zp32(65521), local);
    if (comm.size() > 1) ADD_FAILURE() << "different column counts were taken";
  } catch (const hepex::Error& e) {
    EXPECT_GT(comm.size(), 1);
    EXPECT_NE(std::string(e.what()).find("columns"), std::string::npos) << e.what();
  }
}

TEST(DistributedRref, RankRowsSplitEveryRowOnce) {
  for (std::size_t rows : {0u, 1u, 5u, 64u, 1001u}) {
    for (int size : {1, 2, 3, 7}) {
      std::size_t next = 0;
      for (int r = 0; r < size; ++r) {
        const auto [first, count] = hepex::linalg::rank_rows(rows, r, size);
        EXPECT_EQ(first, next) << rows << " rows, rank " << r << " of " << size;
        EXPECT_LE(count, rows / size + 1);
        next = first + count;
      }
      EXPECT_EQ(next, rows) << rows << " rows over " << size;
    }
  }
  EXPECT_THROW(hepex::linalg::rank_rows(10, 2, 2), hepex::Error);
  EXPECT_THROW(hepex::linalg::rank_rows(10, 0, 0), hepex::Error);
}

TEST(DistributedRref, GatherRefusesAResultOfOtherRows) {
  const auto& comm = communicator();
  Matrix<std::uint32_t> local(4, 4, 0);
  const auto result = hepex::linalg::distributed_rref(comm, hepex::field::Zp32(65521), local);
  const Matrix<std::uint32_t> other(3, 4, 0);
  EXPECT_THROW(hepex::linalg::gather_rref(comm, other, result), hepex::Error);
}

}  // namespace
