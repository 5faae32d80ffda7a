// Rank, null space, rank factorisation and solve over Z/p, each checked by
// multiplying back with FLINT, and against FLINT's rank and nullity.
#include <gtest/gtest.h>

#include <random>

#include "flint_oracle.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/linalg/echelon.hpp"
#include "test_seed.hpp"

namespace {

using Word = std::uint64_t;
using hepex::Matrix;
using hepex::test::flint_mul;

Matrix<Word> random_of_rank(std::size_t m, std::size_t n, std::size_t r, std::uint64_t p,
                            std::mt19937_64& rng) {
  auto random = [&](std::size_t rows, std::size_t cols) {
    Matrix<Word> a(rows, cols);
    for (auto& x : a.data) x = rng() % p;
    return a;
  };
  if (r == 0) return Matrix<Word>(m, n, 0);
  return flint_mul(random(m, r), random(r, n), p);
}

bool is_zero(const Matrix<Word>& a) {
  for (Word x : a.data)
    if (x != 0) return false;
  return true;
}

struct Shape {
  std::size_t m, n, r;
};
const std::vector<Shape> shapes = {{1, 1, 1}, {1, 1, 0}, {9, 9, 9},   {20, 31, 20},
                                   {31, 20, 20}, {25, 25, 11}, {40, 12, 5}, {12, 40, 3}};

TEST(Echelon, NullspaceIsAnnihilatedAndHasTheRightDimension) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  for (std::uint64_t p : {std::uint64_t{65521}, hepex::field::large_primes(1, 1ull << 62)[0]}) {
    const hepex::field::Zp64 f(p);
    for (const auto& s : shapes) {
      const auto a = random_of_rank(s.m, s.n, s.r, p, rng);
      const auto rank = hepex::linalg::rank(f, a);
      hepex::test::FlintMatrix fa(a, p);
      ASSERT_EQ(rank, static_cast<std::size_t>(nmod_mat_rank(fa.get())));
      const auto nullspace = hepex::linalg::nullspace(f, a);
      ASSERT_EQ(nullspace.rows, s.n);
      ASSERT_EQ(nullspace.cols, s.n - rank);
      if (nullspace.cols > 0) {
        EXPECT_TRUE(is_zero(flint_mul(a, nullspace, p)));
        hepex::test::FlintMatrix fn(nullspace, p);
        EXPECT_EQ(static_cast<std::size_t>(nmod_mat_rank(fn.get())), s.n - rank);
      }
    }
  }
}

TEST(Echelon, RankFactorisationMultipliesBack) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 1);
  const std::uint64_t p = 2147483647;
  const hepex::field::Zp64 f(p);
  for (const auto& s : shapes) {
    const auto a = random_of_rank(s.m, s.n, s.r, p, rng);
    const auto rf = hepex::linalg::rank_factorisation(f, a);
    ASSERT_EQ(rf.c.cols, s.r);
    ASSERT_EQ(rf.r.rows, s.r);
    if (s.r > 0) EXPECT_TRUE(flint_mul(rf.c, rf.r, p) == a);
  }
}

TEST(Echelon, SolveFindsSolutionsAndDetectsInconsistency) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 2);
  const std::uint64_t p = hepex::field::large_primes(1)[0];
  const hepex::field::Zp64 f(p);
  for (const auto& s : shapes) {
    const auto a = random_of_rank(s.m, s.n, s.r, p, rng);
    // Consistent: b = A x0 for random x0 (three right-hand sides at once).
    Matrix<Word> x0(s.n, 3);
    for (auto& x : x0.data) x = rng() % p;
    const auto b = flint_mul(a, x0, p);
    const auto sol = hepex::linalg::solve(f, a, b);
    ASSERT_TRUE(sol.consistent);
    EXPECT_TRUE(flint_mul(a, sol.particular, p) == b);
    EXPECT_EQ(sol.nullspace.cols, s.n - s.r);
    if (sol.nullspace.cols > 0) EXPECT_TRUE(is_zero(flint_mul(a, sol.nullspace, p)));
    // Inconsistent whenever rank A < m: a random b leaves the column space.
    if (s.r < s.m) {
      Matrix<Word> bad(s.m, 1);
      for (auto& x : bad.data) x = rng() % p;
      EXPECT_FALSE(hepex::linalg::solve(f, a, bad).consistent);
    }
  }
  EXPECT_THROW(hepex::linalg::solve(f, Matrix<Word>(3, 3), Matrix<Word>(4, 1)), hepex::Error);
}

}  // namespace
