// Rank, null space, rank factorisation and solve over Z/p, each checked by
// multiplying back with FLINT, and against FLINT's rank and nullity; and over
// every field on every enabled execution space (EchelonOnSpace).
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <iostream>
#include <random>

#include "exec_spaces.hpp"
#include "flint_oracle.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/real.hpp"
#include "hepex/linalg/echelon.hpp"
#include "linalg/exact_oracle.hpp"
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
const std::vector<Shape> shapes = {{1, 1, 1},    {1, 1, 0},    {9, 9, 9},   {20, 31, 20},
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

// Null space, solve and rank factorisation over every field (Zp32, Zp64,
// Real64, Real32, Complex128, Complex64) on every enabled execution space,
// against oracles independent of the reduction: over Z/p, FLINT's rank and
// products in the field's own arithmetic; over floating point, integer-valued
// (Gaussian-integer) matrices of known rank, rows scaled by powers of two,
// whose exact rank, pivots and consistency come from exact_rref over Q(i)
// (GMP), and products summed in long double. Checks: rank = exact rank; N is
// n x (n - rank), -1 at its free column and 0 at the other free columns (so
// rank N = n - rank), A N = 0; C R = A with C A's pivot columns; A X = B for
// B = A X0, and [A | b] inconsistent exactly when the exact reduction says.
template <class F>
struct FieldCase;
template <class Word>
struct FieldCase<hepex::field::Zp<Word>> {
  using T = Word;
  static constexpr bool exact = true;
  std::uint64_t p;
  hepex::field::Zp<Word> field() const { return hepex::field::Zp<Word>(p); }
  Matrix<T> random(std::size_t m, std::size_t n, std::size_t r, std::mt19937_64& rng,
                   bool = false) const {
    Matrix<T> l(m, r), rr(r, n);
    for (auto& x : l.data) x = static_cast<T>(rng() % p);
    for (auto& x : rr.data) x = static_cast<T>(rng() % p);
    return product(l, rr);
  }
  Matrix<T> product(const Matrix<T>& a, const Matrix<T>& b) const {
    const auto f = field();
    Matrix<T> c(a.rows, b.cols, 0);
    for (std::size_t i = 0; i < a.rows; ++i)
      for (std::size_t k = 0; k < a.cols; ++k)
        for (std::size_t j = 0; j < b.cols; ++j) c(i, j) = f.fma(a(i, k), b(k, j), c(i, j));
    return c;
  }
  // The pivot columns of FLINT's RREF.
  std::vector<int> pivots(const Matrix<T>& a) const {
    hepex::test::FlintMatrix fa(a, p);
    nmod_mat_rref(fa.get());
    return hepex::test::leading_columns(fa.to_matrix<T>());
  }
  // How far A B is from Y: 0 or 1 over Z/p.
  double residual(const Matrix<T>& a, const Matrix<T>& b, const Matrix<T>& y) const {
    return product(a, b) == y ? 0 : 1;
  }
};
template <class F>
struct FloatingCase {
  using T = typename F::value_type;
  static constexpr bool exact = false;
  // Float's default tolerance (1e-4) is at the edge for [A | b] of rank 11
  // in 25 x 26 (the residual of a consistent b reached it): 1e-3 here, still
  // far below the O(1) residual of an inconsistent b.
  F field() const {
    return sizeof(typename F::real_type) == 4 ? F(typename F::real_type(1e-3)) : F();
  }
  // Entries in [-4, 4] (times 2^[-4, 4] per row), or small ones in [-1, 1]
  // (unscaled): products with a small right factor stay exact in float.
  Matrix<T> random(std::size_t m, std::size_t n, std::size_t r, std::mt19937_64& rng,
                   bool small = false) const {
    const int dominance = sizeof(typename F::real_type) == 4 ? 4 * static_cast<int>(r) : 0;
    return hepex::test::integer_matrix_of_rank<T>(m, n, r, small ? 1 : 4, small ? 0 : 4, rng,
                                                  small ? 0 : dominance);
  }
  // In long double (complex), rounded back to T.
  Matrix<T> product(const Matrix<T>& a, const Matrix<T>& b) const {
    Matrix<T> c(a.rows, b.cols);
    for (std::size_t i = 0; i < a.rows; ++i)
      for (std::size_t j = 0; j < b.cols; ++j) {
        std::complex<long double> sum = 0;
        for (std::size_t k = 0; k < a.cols; ++k)
          sum += hepex::test::as_complex(a(i, k)) * hepex::test::as_complex(b(k, j));
        c(i, j) = hepex::test::ScalarParts<T>::make(static_cast<double>(sum.real()),
                                                    static_cast<double>(sum.imag()));
      }
    return c;
  }
  std::vector<int> pivots(const Matrix<T>& a) const {
    return hepex::test::exact_rref(hepex::test::exact_matrix(a)).pivots;
  }
  // max |A B - Y| / max (|A| |B| + |Y|), entrywise sizes, in long double: the
  // normwise backward-style residual, free of the cancellation in A B.
  double residual(const Matrix<T>& a, const Matrix<T>& b, const Matrix<T>& y) const {
    long double worst = 0, size = 0;
    for (std::size_t i = 0; i < a.rows; ++i)
      for (std::size_t j = 0; j < b.cols; ++j) {
        std::complex<long double> sum = 0;
        long double magnitude = std::abs(hepex::test::as_complex(y(i, j)));
        for (std::size_t k = 0; k < a.cols; ++k) {
          const auto term = hepex::test::as_complex(a(i, k)) * hepex::test::as_complex(b(k, j));
          sum += term;
          magnitude += std::abs(term);
        }
        worst = std::max(worst, std::abs(sum - hepex::test::as_complex(y(i, j))));
        size = std::max(size, magnitude);
      }
    return size == 0 ? 0.0 : static_cast<double>(worst / size);
  }
};
template <>
struct FieldCase<hepex::field::Real64> : FloatingCase<hepex::field::Real64> {};
template <>
struct FieldCase<hepex::field::Real32> : FloatingCase<hepex::field::Real32> {};
template <>
struct FieldCase<hepex::field::Complex128> : FloatingCase<hepex::field::Complex128> {};
template <>
struct FieldCase<hepex::field::Complex64> : FloatingCase<hepex::field::Complex64> {};

template <class F>
void check_every_operation(const FieldCase<F>& c, hepex::Place backend, double bound,
                           const std::string& name) {
  using T = typename FieldCase<F>::T;
  SCOPED_TRACE(name + " on " + hepex::place_name(backend) + " " + hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 5);
  const F f = c.field();
  const auto zero = f.zero(), minus_one = f.neg(f.one());
  double worst = 0;
  // A B = Y to the bound.
  const auto near = [&](const Matrix<T>& a, const Matrix<T>& b, const Matrix<T>& y) {
    const double d = c.residual(a, b, y);
    worst = std::max(worst, d);
    return d <= bound;
  };
  for (const auto& s : shapes) {
    for (int trial = 0; trial < hepex::test::cases(2); ++trial) {
      SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + " rank " +
                   std::to_string(s.r) + " trial " + std::to_string(trial));
      const Matrix<T> a = c.random(s.m, s.n, s.r, rng);
      const std::vector<int> pivots = c.pivots(a);
      const std::size_t rank = pivots.size();
      ASSERT_EQ(hepex::linalg::rank(f, a, backend), rank);
      std::vector<std::size_t> free_columns;
      for (std::size_t j = 0; j < s.n; ++j)
        if (std::find(pivots.begin(), pivots.end(), static_cast<int>(j)) == pivots.end())
          free_columns.push_back(j);
      // Null space.
      const auto nullspace = hepex::linalg::nullspace(f, a, backend);
      ASSERT_EQ(nullspace.rows, s.n);
      ASSERT_EQ(nullspace.cols, s.n - rank);
      if (nullspace.cols > 0) {
        EXPECT_TRUE(near(a, nullspace, Matrix<T>(s.m, nullspace.cols, zero))) << "A N != 0";
        // Column k has -1 at the k-th free column (of the exact reduction)
        // and 0 at the other free columns: rank N = n - rank.
        for (std::size_t k = 0; k < nullspace.cols; ++k)
          for (std::size_t l = 0; l < nullspace.cols; ++l)
            EXPECT_TRUE(nullspace(free_columns[l], k) == (l == k ? minus_one : zero))
                << "N(" << free_columns[l] << ", " << k << ")";
      }
      // Rank factorisation.
      const auto rf = hepex::linalg::rank_factorisation(f, a, backend);
      ASSERT_EQ(rf.c.cols, rank);
      ASSERT_EQ(rf.r.rows, rank);
      if (rank > 0) EXPECT_TRUE(near(rf.c, rf.r, a)) << "C R != A";
      // Solve: B = A X0 (three right-hand sides) is consistent.
      const Matrix<T> x0 = c.random(s.n, 3, std::min<std::size_t>(s.n, 3), rng, true);
      const Matrix<T> b = c.product(a, x0);
      const auto sol = hepex::linalg::solve(f, a, b, backend);
      ASSERT_TRUE(sol.consistent);
      EXPECT_TRUE(near(a, sol.particular, b)) << "A X != B";
      EXPECT_EQ(sol.nullspace.cols, s.n - rank);
      // A random b: consistent exactly when rank [A | b] = rank A.
      const Matrix<T> other = c.random(s.m, 1, 1, rng);
      Matrix<T> augmented(s.m, s.n + 1);
      for (std::size_t i = 0; i < s.m; ++i) {
        for (std::size_t j = 0; j < s.n; ++j) augmented(i, j) = a(i, j);
        augmented(i, s.n) = other(i, 0);
      }
      const bool consistent = c.pivots(augmented).size() == rank;
      const auto random_solve = hepex::linalg::solve(f, a, other, backend);
      ASSERT_EQ(random_solve.consistent, consistent);
      if (consistent) EXPECT_TRUE(near(a, random_solve.particular, other));
    }
  }
  if (!FieldCase<F>::exact) {
    std::cout << "[ " << name << " on " << hepex::place_name(backend)
              << " ] null space, factorisation, solve: max relative residual " << worst
              << " (bound " << bound << ")\n";
  }
}

class EchelonOnSpace : public hepex::test::OnSpace {};

TEST_P(EchelonOnSpace, EveryOperationOverZp32) {
  check_every_operation(FieldCase<hepex::field::Zp32>{65521}, backend(), 0, "Zp32 65521");
  check_every_operation(FieldCase<hepex::field::Zp32>{2147483647}, backend(), 0, "Zp32 2^31-1");
}
TEST_P(EchelonOnSpace, EveryOperationOverZp64) {
  check_every_operation(FieldCase<hepex::field::Zp64>{hepex::field::large_primes(1)[0]}, backend(),
                        0, "Zp64");
}
// Residuals relative to the larger entry size; measured worst (Serial, seeds
// 1-8 and the default; Cuda and OpenMP at the default): 9.4e-15 double,
// 3.5e-7 float (printed); bounds about ten times that.
TEST_P(EchelonOnSpace, EveryOperationOverReal64) {
  check_every_operation(FieldCase<hepex::field::Real64>{}, backend(), 1e-13, "Real64");
}
TEST_P(EchelonOnSpace, EveryOperationOverReal32) {
  check_every_operation(FieldCase<hepex::field::Real32>{}, backend(), 5e-6, "Real32");
}
TEST_P(EchelonOnSpace, EveryOperationOverComplex128) {
  check_every_operation(FieldCase<hepex::field::Complex128>{}, backend(), 1e-13, "Complex128");
}
TEST_P(EchelonOnSpace, EveryOperationOverComplex64) {
  check_every_operation(FieldCase<hepex::field::Complex64>{}, backend(), 5e-6, "Complex64");
}

HEPEX_TEST_ON_SPACES(EchelonOnSpace);

}  // namespace
