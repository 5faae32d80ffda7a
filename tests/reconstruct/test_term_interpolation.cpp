// One Zippel coefficient from its values at geometric points: random
// univariate polynomials, sparse (1-4 terms of degree up to 60) and dense,
// evaluated by FLINT (nmod_poly_evaluate_nmod, the oracle); the coefficients
// must come back exactly, a single term after two values whatever its
// degree, a dense polynomial after degree + 2 values at most, and a degree
// beyond an unbounded search's limit must be reported.
#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/detail/term_interpolation.hpp"
#include "test_seed.hpp"

namespace {

using hepex::field::Zp64;
using hepex::reconstruct::detail::GeometricPoints;
using hepex::reconstruct::detail::TermInterpolation;

// Feeds c(sigma g^i), i = 0, 1, .. until done (at most `limit` values); the
// number of values used.
std::size_t interpolate(const Zp64& f, const GeometricPoints& points, const nmod_poly_t c,
                        TermInterpolation& term, std::size_t limit) {
  for (std::size_t i = 0; i < limit; ++i) {
    const std::uint64_t v = nmod_poly_evaluate_nmod(c, points.point(i));
    if (term.add(points, i, v)) return i + 1;
  }
  return limit + 1;
}

std::vector<std::uint64_t> coefficients(const nmod_poly_t c) {
  std::vector<std::uint64_t> out(nmod_poly_length(c));
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = nmod_poly_get_coeff_ui(c, k);
  return out;
}

TEST(TermInterpolation, SparseAndDensePolynomialsAgainstFlint) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const Zp64 f(hepex::field::large_primes(1).front());
  const std::size_t budget = 60;
  for (int trial = 0; trial < hepex::test::cases(400); ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const GeometricPoints points(f, 1 + rng() % (f.modulus() - 1), 2 + rng() % (f.modulus() - 2),
                                 budget);
    nmod_poly_t c;
    nmod_poly_init(c, f.modulus());
    const bool dense = trial % 4 == 3;
    const std::size_t terms = dense ? 0 : 1 + rng() % 4;
    if (dense) {
      const std::size_t degree = rng() % 12;
      for (std::size_t k = 0; k <= degree; ++k)
        nmod_poly_set_coeff_ui(c, k, 1 + rng() % (f.modulus() - 1));
    } else {
      for (std::size_t s = 0; s < terms; ++s)
        nmod_poly_set_coeff_ui(c, rng() % (budget + 1), 1 + rng() % (f.modulus() - 1));
    }
    const std::size_t degree = static_cast<std::size_t>(std::max<long>(0, nmod_poly_degree(c)));
    TermInterpolation term(budget, trial % 2 == 0);
    const std::size_t used = interpolate(f, points, c, term, budget + 2);
    ASSERT_TRUE(term.done());
    const auto truth = coefficients(c);
    EXPECT_EQ(term.coefficients(), truth);
    const auto monomials = static_cast<std::size_t>(
        std::count_if(truth.begin(), truth.end(), [](std::uint64_t v) { return v != 0; }));
    EXPECT_LE(used, std::min(2 * monomials, degree + 2) + (monomials == 0 ? 2 : 0));
    nmod_poly_clear(c);
  }
}

TEST(TermInterpolation, DegreeBeyondTheLimitIsReported) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const Zp64 f(1000003);
  const GeometricPoints points(f, 5, 7, 5);
  nmod_poly_t c;
  nmod_poly_init(c, f.modulus());
  nmod_poly_set_coeff_ui(c, 9, 1);
  nmod_poly_set_coeff_ui(c, 8, 3);  // two terms: no sparse answer in degree <= 5
  TermInterpolation term(5, false);
  for (std::size_t i = 0; i < 7 && !term.done(); ++i)
    term.add(points, i, nmod_poly_evaluate_nmod(c, points.point(i)));
  EXPECT_FALSE(term.done());
  EXPECT_TRUE(term.beyond_limit());
  nmod_poly_clear(c);
}

}  // namespace
