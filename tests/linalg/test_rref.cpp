// RREF over Z/p against FLINT's nmod_mat_rref (the RREF is unique, so the
// matrices must agree exactly), and over floating point against a simple
// long-double Gauss-Jordan reference and against the exact RREF over Q(i)
// (GMP) of integer-valued matrices, Real32 and Complex64 included; on every
// enabled execution space (exec_spaces.hpp), each once.
#include <gtest/gtest.h>

#include <complex>
#include <iostream>
#include <random>
#include <sstream>
#include <tuple>

#include "exec_spaces.hpp"
#include "flint_oracle.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/real.hpp"
#include "hepex/linalg/rref.hpp"
#include "linalg/exact_oracle.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace hepex::test {

template <class Word>
Matrix<Word> random_matrix(std::size_t rows, std::size_t cols, std::uint64_t p,
                           std::mt19937_64& rng, int zero_percent = 0) {
  Matrix<Word> a(rows, cols);
  hepex::test::UniformInt<std::uint64_t> entry(0, p - 1);
  for (auto& x : a.data) x = static_cast<Word>(rng() % 100 < zero_percent ? 0 : entry(rng));
  return a;
}

template <class Word>
void expect_matches_flint(const Matrix<Word>& a, std::uint64_t p, Place backend,
                          const std::string& what, const linalg::RrefOptions& options = {}) {
  FlintMatrix oracle(a, p);
  const slong flint_rank = nmod_mat_rref(oracle.get());
  const Matrix<Word> want = oracle.template to_matrix<Word>();

  Matrix<Word> got = a;
  const linalg::RrefResult r = linalg::rref(field::Zp<Word>(p), got, backend, options);
  std::ostringstream where;
  where << what << ": " << a.rows << "x" << a.cols << " mod " << p << " on " << place_name(backend)
        << ", block " << options.block_columns << " leaf " << options.leaf_columns << " inverse "
        << static_cast<int>(options.panel_inverse) << " chunk " << options.trailing_chunk << " ("
        << seed_trace() << ")";
  ASSERT_EQ(r.blocked, options.block_columns > options.leaf_columns &&
                           static_cast<int>(a.cols) > options.block_columns)
      << where.str();
  ASSERT_EQ(r.rank, static_cast<std::size_t>(flint_rank)) << where.str();
  ASSERT_EQ(r.pivots, leading_columns(want)) << where.str();
  ASSERT_TRUE(got == want) << where.str();
}

template <class Word>
void random_cases_against_flint(std::uint64_t p, Place backend) {
  std::mt19937_64 rng(seed() ^ p);
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1}, {1, 7}, {7, 1}, {13, 13}, {40, 40}, {61, 17}, {17, 61}, {33, 70}, {70, 33}};
  {
    for (const auto& [m, n] : shapes) {
      expect_matches_flint(random_matrix<Word>(m, n, p, rng), p, backend, "full rank");
      expect_matches_flint(random_matrix<Word>(m, n, p, rng, 85), p, backend, "85% zeros");
      // Rank r < min(m, n) as an (m x r)(r x n) product.
      const std::size_t r = std::min(m, n) / 2;
      if (r > 0) {
        const auto low =
            flint_mul(random_matrix<Word>(m, r, p, rng), random_matrix<Word>(r, n, p, rng), p);
        expect_matches_flint(low, p, backend, "rank " + std::to_string(r));
      }
      expect_matches_flint(Matrix<Word>(m, n, 0), p, backend, "all zero");
      Matrix<Word> identity(m, n, 0);
      for (std::size_t i = 0; i < std::min(m, n); ++i) identity(i, i) = 1;
      expect_matches_flint(identity, p, backend, "identity");
    }
  }
}

// The blocked algorithm at small sizes (panels of 4 to 16 columns, recursing
// down to 1- or 2-column leaves): shapes straddling the panel boundaries,
// tall and wide, low rank (products (m x r)(r x n)), sparse panels where
// pivots vanish inside a panel, all-zero panels and zero columns.
template <class Word>
void blocked_cases_against_flint(std::uint64_t p, Place backend) {
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(seed() ^ (p * 3));
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {9, 9}, {16, 17}, {17, 16}, {33, 31}, {24, 70}, {70, 24}, {64, 64}, {5, 40}};
  // Panels of `block` down to `leaf` columns, each way to the pivot block's
  // inverse, trailing updates in chunks of 3, 5, 7 columns or all at once.
  using Inverse = linalg::RrefOptions::PanelInverse;
  struct Config {
    int block, leaf;
    Inverse inverse;
    int chunk;
  };
  for (const auto& [block, leaf, inverse, chunk] :
       std::vector<Config>{{4, 1, Inverse::beside, -1},
                           {4, 1, Inverse::separate, 3},
                           {8, 2, Inverse::beside, 5},
                           {8, 2, Inverse::separate, -1},
                           {16, 4, Inverse::beside, 7},
                           {16, 4, Inverse::separate, -1}}) {
    linalg::RrefOptions options;
    options.block_columns = block;
    options.leaf_columns = leaf;
    options.panel_inverse = inverse;
    options.trailing_chunk = chunk;
    {
      for (const auto& [m, n] : shapes) {
        if (static_cast<int>(n) <= block) continue;
        expect_matches_flint(random_matrix<Word>(m, n, p, rng), p, backend, "full rank", options);
        // The first 2 x block rows zero in the first two panels: each
        // panel's sample (rref_blocked.hpp: its first block + max(4,
        // block / 16) free rows) has rank 0 there, the whole panel does not.
        auto late = random_matrix<Word>(m, n, p, rng);
        for (std::size_t i = 0; i < std::min(m, std::size_t(2 * block)); ++i) {
          for (std::size_t j = 0; j < std::min(n, std::size_t(2 * block)); ++j) late(i, j) = 0;
        }
        expect_matches_flint(late, p, backend, "pivots below the panel's sample", options);
        expect_matches_flint(random_matrix<Word>(m, n, p, rng, 90), p, backend, "90% zeros",
                             options);
        for (const std::size_t r : {std::size_t{1}, std::size_t{3}, std::min(m, n) / 2}) {
          auto low =
              flint_mul(random_matrix<Word>(m, r, p, rng), random_matrix<Word>(r, n, p, rng), p);
          expect_matches_flint(low, p, backend, "rank " + std::to_string(r), options);
          // Zero the second panel and every third column: all-zero panels.
          for (std::size_t i = 0; i < m; ++i) {
            for (std::size_t j = 0; j < n; ++j) {
              if (j % 3 == 2 || (j >= std::size_t(block) && j < std::size_t(2 * block)))
                low(i, j) = 0;
            }
          }
          expect_matches_flint(low, p, backend, "zero panel, rank <= " + std::to_string(r),
                               options);
        }
        expect_matches_flint(Matrix<Word>(m, n, 0), p, backend, "all zero", options);
      }
    }
  }
}

// Gauss-Jordan with partial pivoting in long double: the float reference.
template <class T>
Matrix<std::complex<long double>> reference_rref(const Matrix<T>& a, long double tolerance) {
  using C = std::complex<long double>;
  Matrix<C> r(a.rows, a.cols);
  for (std::size_t i = 0; i < a.rows; ++i) {
    long double scale = 0;
    for (std::size_t j = 0; j < a.cols; ++j) {
      if constexpr (std::is_arithmetic<T>::value) {
        r(i, j) = C(a(i, j), 0);
      } else {
        r(i, j) = C(a(i, j).real(), a(i, j).imag());
      }
      scale = std::max(scale, std::abs(r(i, j)));
    }
    for (std::size_t j = 0; j < a.cols && scale > 0; ++j) r(i, j) /= scale;
  }
  std::size_t row = 0;
  for (std::size_t col = 0; col < a.cols && row < a.rows; ++col) {
    std::size_t best = row;
    for (std::size_t i = row; i < a.rows; ++i)
      if (std::abs(r(i, col)) > std::abs(r(best, col))) best = i;
    if (std::abs(r(best, col)) <= tolerance) continue;
    for (std::size_t j = 0; j < a.cols; ++j) std::swap(r(row, j), r(best, j));
    const C inv = C(1) / r(row, col);
    for (std::size_t j = 0; j < a.cols; ++j) r(row, j) *= inv;
    for (std::size_t i = 0; i < a.rows; ++i) {
      if (i == row) continue;
      const C f = r(i, col);
      for (std::size_t j = 0; j < a.cols; ++j) r(i, j) -= f * r(row, j);
    }
    ++row;
  }
  return r;
}

// Random A = L R of known rank, rows scaled by 10^[-6, 6], against the
// long-double reference. The error is relative to the reference's largest
// entry (pivots are 1, so at least 1) and printed; returns the worst.
template <class F>
double floating_cases(Place backend, double bound, const linalg::RrefOptions& options = {}) {
  using T = typename F::value_type;
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(seed());
  double worst_case = 0;
  hepex::test::UniformReal uniform(-1, 1);
  auto draw = [&]() -> T {
    if constexpr (std::is_arithmetic<T>::value) {
      return static_cast<T>(uniform(rng));
    } else {
      return T(uniform(rng), uniform(rng));
    }
  };
  for (const auto& [m, n, rank] : std::vector<std::tuple<std::size_t, std::size_t, std::size_t>>{
           {1, 1, 1}, {12, 12, 12}, {30, 45, 30}, {45, 30, 30}, {40, 40, 25}, {20, 50, 7}}) {
    // A = L * R with L (m x rank), R (rank x n), then rows scaled by 10^[-6, 6].
    Matrix<T> l(m, rank), r(rank, n), a(m, n, T(0));
    for (auto& x : l.data) x = draw();
    for (auto& x : r.data) x = draw();
    for (std::size_t i = 0; i < m; ++i) {
      const double row_scale = std::pow(10.0, static_cast<int>(rng() % 13) - 6);
      for (std::size_t j = 0; j < n; ++j) {
        T sum(0);
        for (std::size_t k = 0; k < rank; ++k) sum += l(i, k) * r(k, j);
        a(i, j) = sum * static_cast<typename F::real_type>(row_scale);
      }
    }
    const auto want = reference_rref(a, 1e-9L);
    {
      Matrix<T> got = a;
      const auto result = linalg::rref(F(1e-9), got, backend, options);
      EXPECT_EQ(result.rank, rank) << m << "x" << n << " on " << place_name(backend);
      long double worst = 0, size = 1;
      for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
          worst = std::max(worst, std::abs(as_complex(got(i, j)) - want(i, j)));
          size = std::max(size, std::abs(want(i, j)));
        }
      }
      const double error = static_cast<double>(worst / size);
      worst_case = std::max(worst_case, error);
      EXPECT_LT(error, bound) << m << "x" << n << " rank " << rank << " on " << place_name(backend)
                              << ": relative error " << error;
    }
  }
  return worst_case;
}

// Integer-valued (Gaussian-integer) A = L R of rank r, rows scaled by powers
// of two (exact in float: the exact RREF is that of the integer matrix),
// against the exact RREF over Q(i): the same rank and pivots, the entries to
// `bound` relative to the largest; the error printed. Shapes square, tall,
// wide, full and low rank; unblocked and, where the field has a block
// product, blocked. Returns the worst error.
template <class F>
double exact_cases(Place backend, double bound, const std::string& field_name,
                   const linalg::RrefOptions& options = {}) {
  using T = typename F::value_type;
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(seed() ^ 0x9e3779b97f4a7c15ull);
  double worst = 0;
  for (const auto& [m, n, r] :
       std::vector<std::tuple<std::size_t, std::size_t, std::size_t>>{{1, 1, 1},
                                                                      {1, 5, 1},
                                                                      {5, 1, 1},
                                                                      {8, 8, 8},
                                                                      {12, 20, 12},
                                                                      {20, 12, 12},
                                                                      {16, 16, 9},
                                                                      {10, 30, 5},
                                                                      {30, 10, 4},
                                                                      {24, 24, 24},
                                                                      {7, 9, 0}}) {
    for (int trial = 0; trial < hepex::test::cases(3); ++trial) {
      // Float: diagonally dominant leading blocks (random integer matrices of
      // rank 9 in 16 x 16 can be too ill-conditioned for float's tolerance).
      const bool single = sizeof(typename F::real_type) == 4;
      const Matrix<T> a =
          integer_matrix_of_rank<T>(m, n, r, 4, 10, rng, single ? 4 * static_cast<int>(r) : 0);
      const ExactRref want = exact_rref(exact_matrix(a));
      Matrix<T> got = a;
      const auto result = linalg::rref(F(), got, backend, options);
      const double error = relative_error(got, want.r);
      worst = std::max(worst, error);
      const std::string where = field_name + " " + std::to_string(m) + "x" + std::to_string(n) +
                                " rank " + std::to_string(want.rank()) + " on " +
                                place_name(backend) + ", trial " + std::to_string(trial);
      EXPECT_EQ(result.rank, want.rank()) << where;
      EXPECT_EQ(result.pivots, want.pivots) << where;
      EXPECT_LT(error, bound) << where << ": relative error " << error;
    }
  }
  std::cout << "[ " << field_name << " on " << place_name(backend)
            << " ] RREF vs the exact one: max relative error " << worst << " (bound " << bound
            << ")\n";
  return worst;
}

}  // namespace hepex::test

namespace {

using hepex::test::random_cases_against_flint;

class RrefOnSpace : public hepex::test::OnSpace {};

TEST_P(RrefOnSpace, Zp32MatchesFlintFor65521) {
  random_cases_against_flint<std::uint32_t>(65521, backend());
}
TEST_P(RrefOnSpace, Zp32MatchesFlintFor2To31Minus1) {
  random_cases_against_flint<std::uint32_t>(2147483647, backend());
}
TEST_P(RrefOnSpace, Zp64MatchesFlintFor62BitPrime) {
  random_cases_against_flint<std::uint64_t>(hepex::field::large_primes(1, 1ull << 62).front(),
                                            backend());
}
TEST_P(RrefOnSpace, Zp64MatchesFlintFor63BitPrime) {
  random_cases_against_flint<std::uint64_t>(hepex::field::large_primes(1).front(), backend());
}
// Double RREF relative to the largest entry. Measured worst (Serial): 2e-13
// on the badly scaled rows; bound 1e-11, well below what a float (1e-7) or a
// wrong pivot choice gives.
// Primes of every width from 2 to 63 bits, drawn from the seed: each a few
// random matrices of every shape against FLINT (Zp32 below 2^31, Zp64 above).
TEST_P(RrefOnSpace, RandomPrimesOfEveryWidthMatchFlint) {
  std::mt19937_64 rng(hepex::test::seed() + 31);
  for (int bits = 2; bits <= 63; ++bits) {
    const std::uint64_t p = hepex::test::random_prime(rng, bits);
    SCOPED_TRACE("p = " + std::to_string(p) + " (" + std::to_string(bits) + " bits), " +
                 hepex::test::seed_trace());
    for (int c = 0; c < hepex::test::cases(1); ++c) {
      const std::size_t m = 1 + hepex::test::random_below(rng, 24);
      const std::size_t n = 1 + hepex::test::random_below(rng, 24);
      const int zeros = static_cast<int>(hepex::test::random_below(rng, 90));
      if (bits <= 31) {
        hepex::test::expect_matches_flint(
            hepex::test::random_matrix<std::uint32_t>(m, n, p, rng, zeros), p, backend(),
            "random prime");
      } else {
        hepex::test::expect_matches_flint(
            hepex::test::random_matrix<std::uint64_t>(m, n, p, rng, zeros), p, backend(),
            "random prime");
      }
    }
  }
}

TEST_P(RrefOnSpace, Real64MatchesReferenceWithBadlyScaledRows) {
  const double worst = hepex::test::floating_cases<hepex::field::Real64>(backend(), 1e-11);
  std::cout << "[ Real64 " << where() << " ] RREF, badly scaled rows: max relative error " << worst
            << '\n';
}
TEST_P(RrefOnSpace, BlockedZp32MatchesFlint) {
  hepex::test::blocked_cases_against_flint<std::uint32_t>(65521, backend());
  hepex::test::blocked_cases_against_flint<std::uint32_t>(2147483647, backend());
}
TEST_P(RrefOnSpace, BlockedZp64MatchesFlint) {
  hepex::test::blocked_cases_against_flint<std::uint64_t>(
      hepex::field::large_primes(1, 1ull << 62).front(), backend());
  hepex::test::blocked_cases_against_flint<std::uint64_t>(hepex::field::large_primes(1).front(),
                                                          backend());
}
TEST_P(RrefOnSpace, BlockedReal64MatchesReference) {
  hepex::linalg::RrefOptions options;
  options.block_columns = 8;
  options.leaf_columns = 2;
  for (const auto inverse : {hepex::linalg::RrefOptions::PanelInverse::beside,
                             hepex::linalg::RrefOptions::PanelInverse::separate}) {
    options.panel_inverse = inverse;
    options.trailing_chunk = inverse == hepex::linalg::RrefOptions::PanelInverse::beside ? 5 : -1;
    const double worst =
        hepex::test::floating_cases<hepex::field::Real64>(backend(), 1e-11, options);
    std::cout << "[ Real64 " << where() << " ] blocked RREF, badly scaled rows: max relative error "
              << worst << '\n';
  }
}
TEST_P(RrefOnSpace, AutomaticChoiceMatchesFlint) {
  // From automatic_blocking().from rows and columns on, the blocked path;
  // below, the unblocked one. Rank 40, so that FLINT is quick at these sizes.
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const std::uint64_t p = 2147483647;
  const std::size_t from = hepex::test::with_space(backend(), [](auto space) {
    return static_cast<std::size_t>(hepex::linalg::automatic_blocking<decltype(space)>().from);
  });
  for (const std::size_t m : {from, from - 1}) {
    const auto a =
        hepex::test::flint_mul(hepex::test::random_matrix<std::uint32_t>(m, 40, p, rng),
                               hepex::test::random_matrix<std::uint32_t>(40, from, p, rng), p);
    hepex::Matrix<std::uint32_t> got = a;
    const auto result = hepex::linalg::rref(hepex::field::Zp32(p), got, backend());
    EXPECT_EQ(result.blocked, m == from) << m << " x " << from;
    hepex::test::FlintMatrix oracle(a, p);
    EXPECT_EQ(nmod_mat_rref(oracle.get()), 40);
    EXPECT_EQ(result.rank, 40U);
    EXPECT_TRUE(got == oracle.to_matrix<std::uint32_t>()) << m << " x " << from;
  }
}
TEST_P(RrefOnSpace, Complex128MatchesReferenceWithBadlyScaledRows) {
  const double worst = hepex::test::floating_cases<hepex::field::Complex128>(backend(), 1e-11);
  std::cout << "[ Complex128 " << where() << " ] RREF, badly scaled rows: max relative error "
            << worst << '\n';
}

// Every floating-point field against the exact RREF over Q(i). Measured worst
// (Serial, seeds 1-8 and the default; Cuda and OpenMP at the default): double
// 1.4e-12, float 3e-6 (printed); bounds 2e-11 and 3e-5: float's far below an
// O(1) error of a wrong pivot or rank, double's far below float's rounding
// (a silent fall-back to float fails).
TEST_P(RrefOnSpace, Real64MatchesExactRref) {
  hepex::test::exact_cases<hepex::field::Real64>(backend(), 2e-11, "Real64");
  hepex::linalg::RrefOptions blocked;
  blocked.block_columns = 4;
  blocked.leaf_columns = 2;
  hepex::test::exact_cases<hepex::field::Real64>(backend(), 2e-11, "Real64 blocked", blocked);
}
TEST_P(RrefOnSpace, Real32MatchesExactRref) {
  hepex::test::exact_cases<hepex::field::Real32>(backend(), 3e-5, "Real32");
}
TEST_P(RrefOnSpace, Complex128MatchesExactRref) {
  hepex::test::exact_cases<hepex::field::Complex128>(backend(), 2e-11, "Complex128");
}
TEST_P(RrefOnSpace, Complex64MatchesExactRref) {
  hepex::test::exact_cases<hepex::field::Complex64>(backend(), 3e-5, "Complex64");
}

HEPEX_TEST_ON_SPACES(RrefOnSpace);

TEST(Rref, EmptyMatrices) {
  hepex::Matrix<std::uint32_t> a(0, 5);
  EXPECT_EQ(hepex::linalg::rref(hepex::field::Zp32(65521), a).rank, 0u);
  hepex::Matrix<std::uint32_t> b(5, 0);
  EXPECT_EQ(hepex::linalg::rref(hepex::field::Zp32(65521), b).rank, 0u);
}

}  // namespace
