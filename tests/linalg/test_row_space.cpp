// RowSpace / RowEchelon (row_space.hpp, row_echelon.hpp): rows added in
// random blocks to a growing echelon form give, after every block, FLINT's
// RREF of all rows so far; the span test, the null space and the
// intersection against FLINT's ranks; bad rows refused with the form
// unchanged; several threads adding to one space. On every enabled space.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "exec_spaces.hpp"
#include "flint_oracle.hpp"
#include "hepex/core/error.hpp"
#include "hepex/linalg/row_space.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace {

using hepex::Matrix;
using hepex::test::random_below;

class RowSpaceOnSpace : public hepex::test::OnSpace {};

template <class Word>
Matrix<Word> random_matrix(std::size_t rows, std::size_t cols, std::uint64_t p,
                           std::mt19937_64& rng) {
  Matrix<Word> a(rows, cols);
  for (auto& x : a.data) x = static_cast<Word>(random_below(rng, p));
  return a;
}

// Rows from a fixed subspace of dimension `dim` (a random dim x cols basis):
// a block of them rarely raises the rank by its full size.
template <class Word>
Matrix<Word> rows_from(const Matrix<Word>& basis, std::size_t rows, std::uint64_t p,
                       std::mt19937_64& rng) {
  if (basis.rows == 0) return Matrix<Word>(rows, basis.cols, 0);
  return hepex::test::flint_mul(random_matrix<Word>(rows, basis.rows, p, rng), basis, p);
}

template <class Word>
Matrix<Word> stack(const Matrix<Word>& a, const Matrix<Word>& b) {
  Matrix<Word> c(a.rows + b.rows, std::max(a.cols, b.cols));
  std::copy(a.data.begin(), a.data.end(), c.data.begin());
  std::copy(b.data.begin(), b.data.end(),
            c.data.begin() + static_cast<std::ptrdiff_t>(a.data.size()));
  return c;
}

// FLINT's RREF without its zero rows, and the rank.
template <class Word>
std::pair<Matrix<Word>, std::size_t> flint_rref(const Matrix<Word>& a, std::uint64_t p) {
  if (a.rows == 0) return {Matrix<Word>(0, a.cols), 0};
  hepex::test::FlintMatrix m(a, p);
  const auto rank = static_cast<std::size_t>(nmod_mat_rref(m.get()));
  const auto full = m.template to_matrix<Word>();
  Matrix<Word> r(rank, a.cols);
  std::copy(full.data.begin(), full.data.begin() + static_cast<std::ptrdiff_t>(rank * a.cols),
            r.data.begin());
  return {r, rank};
}

template <class Word>
void grows_like_flint(hepex::Place place, std::uint64_t p, std::mt19937_64& rng) {
  using F = hepex::field::Zp<Word>;
  const F f(p);
  const std::size_t n = 1 + random_below(rng, 48);
  // Rows from a subspace (so blocks overlap) or, at times, from everywhere.
  const auto basis = random_matrix<Word>(random_below(rng, n + 1), n, p, rng);
  hepex::linalg::RowSpace<F> space(f, n, place);
  Matrix<Word> all(0, n);
  const std::size_t blocks = 1 + random_below(rng, 8);
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t k = random_below(rng, 12);
    const auto rows =
        random_below(rng, 4) == 0 ? random_matrix<Word>(k, n, p, rng) : rows_from(basis, k, p, rng);
    const std::size_t before = space.rank();
    const std::size_t grew = space.add_rows(rows);
    all = stack(all, rows);
    const auto [want, rank] = flint_rref(all, p);
    SCOPED_TRACE("p " + std::to_string(p) + ", n " + std::to_string(n) + ", block " +
                 std::to_string(b) + " of " + std::to_string(k) + " rows");
    ASSERT_EQ(space.rank(), rank);
    EXPECT_EQ(grew, rank - before);
    EXPECT_EQ(space.pivots(), hepex::test::leading_columns(want));
    EXPECT_EQ(space.rref().data, want.data);
    // Rows of the span are in it; random rows are exactly when FLINT says so.
    EXPECT_TRUE(space.contains(rows_from(want, 1 + random_below(rng, 4), p, rng)));
    const auto probes = random_matrix<Word>(3, n, p, rng);
    const auto in = space.contains_each(probes);
    for (std::size_t i = 0; i < probes.rows; ++i) {
      Matrix<Word> one(1, n);
      std::copy(probes.data.begin() + static_cast<std::ptrdiff_t>(i * n),
                probes.data.begin() + static_cast<std::ptrdiff_t>((i + 1) * n), one.data.begin());
      EXPECT_EQ(in[i], flint_rref(stack(all, one), p).second == rank) << "probe " << i;
    }
    // The null space: n - rank vectors, E N = 0, independent.
    const auto kernel = space.nullspace();
    ASSERT_EQ(kernel.cols, n - rank);
    if (rank > 0 && kernel.cols > 0) {
      const auto zero = hepex::test::flint_mul(want, kernel, p);
      for (const auto x : zero.data) ASSERT_EQ(x, 0u);
      EXPECT_EQ(flint_rref(kernel, p).second, kernel.cols);
    }
  }
}

TEST_P(RowSpaceOnSpace, EveryBlockLeavesFlintsRrefOfAllRows) {
  std::mt19937_64 rng(hepex::test::seed());
  for (int trial = 0; trial < hepex::test::cases(40); ++trial) {
    SCOPED_TRACE(hepex::test::seed_trace() + " trial " + std::to_string(trial) + " " + where());
    // Primes of every width: 32-bit words below 2^31, 64-bit words above.
    const int bits = 2 + static_cast<int>(random_below(rng, 62));
    const std::uint64_t p = hepex::test::random_prime(rng, bits);
    if (bits <= 31) {
      grows_like_flint<std::uint32_t>(backend(), p, rng);
    } else {
      grows_like_flint<std::uint64_t>(backend(), p, rng);
    }
    if (HasFatalFailure()) return;
  }
}

TEST_P(RowSpaceOnSpace, IntersectionHasTheDimensionOfFlintsRanks) {
  using F = hepex::field::Zp64;
  std::mt19937_64 rng(hepex::test::seed() + 1);
  const std::uint64_t p = 4611686018427387847ull;
  const F f(p);
  for (int trial = 0; trial < hepex::test::cases(20); ++trial) {
    SCOPED_TRACE(hepex::test::seed_trace() + " trial " + std::to_string(trial) + " " + where());
    const std::size_t n = 1 + random_below(rng, 30);
    // U and W share a subspace S of random dimension; each has its own part.
    const auto shared = random_matrix<std::uint64_t>(random_below(rng, n / 2 + 1), n, p, rng);
    const auto u_rows =
        stack(shared, random_matrix<std::uint64_t>(random_below(rng, 8), n, p, rng));
    const auto w_rows =
        stack(random_matrix<std::uint64_t>(random_below(rng, 8), n, p, rng), shared);
    hepex::linalg::RowSpace<F> u(f, n, backend()), w(f, n, backend());
    u.add_rows(u_rows);
    w.add_rows(w_rows);
    const auto both = u.intersection(w);
    const std::size_t sum = flint_rref(stack(u_rows, w_rows), p).second;
    EXPECT_EQ(both.rank(), u.rank() + w.rank() - sum);
    const auto basis = both.rref();
    EXPECT_TRUE(u.contains(basis));
    EXPECT_TRUE(w.contains(basis));
    EXPECT_EQ(both.place(), u.place());
  }
}

TEST_P(RowSpaceOnSpace, BadRowsAreRefusedAndLeaveTheFormAsItWas) {
  using F = hepex::field::Zp32;
  const F f(65521);
  hepex::linalg::RowSpace<F> space(f, 3, backend());
  Matrix<std::uint32_t> good(1, 3);
  good.data = {1, 2, 3};
  ASSERT_EQ(space.add_rows(good), 1u);
  Matrix<std::uint32_t> wide(1, 4, 1), unreduced(2, 3, 1);
  unreduced(1, 2) = 65521;
  try {
    space.add_rows(wide);
    ADD_FAILURE() << "4 entries in a space of 3";
  } catch (const hepex::Error& e) {
    EXPECT_NE(std::string(e.what()).find("4 entries"), std::string::npos) << e.what();
  }
  try {
    space.add_rows(unreduced);
    ADD_FAILURE() << "an entry equal to p";
  } catch (const hepex::Error& e) {
    EXPECT_NE(std::string(e.what()).find("rows(1, 2) = 65521"), std::string::npos) << e.what();
  }
  EXPECT_THROW(space.contains(wide), hepex::Error);
  hepex::linalg::RowSpace<hepex::field::Zp32> other(hepex::field::Zp32(65519), 3, backend());
  EXPECT_THROW(space.intersection(other), hepex::Error);
  EXPECT_EQ(space.rank(), 1u);
  EXPECT_EQ(space.rref().data, (std::vector<std::uint32_t>{1, 2, 3}));
  // No rows, and a space of vectors with no entries.
  EXPECT_EQ(space.add_rows(Matrix<std::uint32_t>(0, 3)), 0u);
  hepex::linalg::RowSpace<F> empty(f, 0, backend());
  EXPECT_EQ(empty.add_rows(Matrix<std::uint32_t>(5, 0)), 0u);
  EXPECT_EQ(empty.rank(), 0u);
}

// Four threads add their own blocks to one space: the form ends as FLINT's
// RREF of all the rows (the span does not depend on the order).
TEST_P(RowSpaceOnSpace, ThreadsAddingToOneSpaceGetTheSpanOfAllRows) {
  using F = hepex::field::Zp32;
  const std::uint64_t p = 2147483647;
  const F f(p);
  std::mt19937_64 rng(hepex::test::seed() + 2);
  const std::size_t n = 40;
  const auto basis = random_matrix<std::uint32_t>(30, n, p, rng);
  std::vector<Matrix<std::uint32_t>> blocks;
  Matrix<std::uint32_t> all(0, n);
  for (int t = 0; t < 4; ++t) {
    for (int b = 0; b < 5; ++b) {
      blocks.push_back(rows_from(basis, 1 + random_below(rng, 3), p, rng));
      all = stack(all, blocks.back());
    }
  }
  hepex::linalg::RowSpace<F> space(f, n, backend());
  std::vector<std::thread> threads;
  std::vector<std::size_t> grown(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int b = 0; b < 5; ++b) grown[t] += space.add_rows(blocks[5 * t + b]);
    });
  }
  for (auto& thread : threads) thread.join();
  const auto [want, rank] = flint_rref(all, p);
  EXPECT_EQ(space.rank(), rank);
  EXPECT_EQ(grown[0] + grown[1] + grown[2] + grown[3], rank);
  EXPECT_EQ(space.rref().data, want.data);
}

HEPEX_TEST_ON_SPACES(RowSpaceOnSpace);

}  // namespace
