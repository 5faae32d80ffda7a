// The pieces of the sparse shift and the factor scan: unshift against an
// independent expansion of N(x + s) (repeated products by x_i + s_i), the
// univariate factors and vanishing hyperplanes of known black boxes, and the
// shift chosen for denominators without a constant term (a single variable
// where one suffices).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "hepex/field/primes.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/detail/factor_scan.hpp"
#include "hepex/reconstruct/detail/shift.hpp"
#include "random_functions.hpp"
#include "test_seed.hpp"

namespace {

using hepex::field::Zp64;
using namespace hepex::reconstruct;
using namespace hepex::reconstruct::detail;
using TermsModP = std::map<std::vector<std::uint32_t>, std::uint64_t>;

TermsModP times_linear(const Zp64& f, const TermsModP& a, std::size_t i, std::uint64_t s) {
  TermsModP out;  // a * (x_i + s)
  for (const auto& [e, c] : a) {
    auto up = e;
    ++up[i];
    out[up] = f.add(out[up], c);
    out[e] = f.add(out[e], f.mul(c, s));
  }
  for (auto it = out.begin(); it != out.end();) it = it->second == 0 ? out.erase(it) : ++it;
  return out;
}

TermsModP terms_of(const PolynomialModP& p) {
  TermsModP out;
  for (std::size_t t = 0; t < p.terms(); ++t) {
    auto& c = out[std::vector<std::uint32_t>(p.exponent(t), p.exponent(t) + p.variables)];
    c = c + p.coefficients[t];  // distinct monomials: at most one term each
  }
  return out;
}

TEST(Shift, UnshiftUndoesTheExpansionAlongShiftedLines) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const Zp64 f(hepex::field::large_primes(1).front());
  for (std::size_t c = 0; c < 60; ++c) {
    const std::size_t n = 1 + c % 6;
    const std::uint32_t degree = 1 + static_cast<std::uint32_t>(rng() % 9);
    const std::size_t terms =
        std::min<std::size_t>(1 + rng() % 25, hepex::test::monomial_count(n, degree));
    SCOPED_TRACE("case " + std::to_string(c) + ", " + std::to_string(n) + " variables");
    // N: random terms of total degree <= degree; s: zero in some variables.
    TermsModP N;
    while (N.size() < terms) {
      std::vector<std::uint32_t> e(n, 0);
      for (std::uint32_t k = rng() % (degree + 1); k > 0; --k) ++e[rng() % n];
      N[e] = 1 + f.from_uint(rng()) % (f.modulus() - 1);
      if (N.size() == 1 && c % 7 == 0) break;  // single terms too
    }
    std::vector<std::uint64_t> s(n, 0);
    for (auto& v : s) v = rng() % 3 == 0 ? 0 : f.from_uint(rng());
    // N(x + s) term by term, each factor (x_i + s_i) multiplied in.
    TermsModP M;
    for (const auto& [e, coefficient] : N) {
      TermsModP term = {{std::vector<std::uint32_t>(n, 0), coefficient}};
      for (std::size_t i = 0; i < n; ++i)
        for (std::uint32_t k = 0; k < e[i]; ++k) term = times_linear(f, term, i, s[i]);
      for (const auto& [m, v] : term) M[m] = f.add(M[m], v);
    }
    // nu_r(z): the degree-r terms of N(x + s), x_0 dropped (x = t (1, z)).
    std::vector<PolynomialModP> nu(degree + 1, PolynomialModP{n - 1, {}, {}});
    for (const auto& [m, v] : M) {
      if (v == 0) continue;
      std::uint32_t r = 0;
      for (const auto k : m) r += k;
      nu[r].add_term(m.data() + 1, v);
    }
    EXPECT_EQ(terms_of(unshift(f, nu, s)), N);
  }
}

std::unique_ptr<BlackBox> box_of(const std::string& text, std::size_t n) {
  std::vector<std::string> vars;
  for (std::size_t i = 0; i < n; ++i) vars.push_back("x" + std::to_string(i + 1));
  std::vector<hepex::io::Expression> e;
  e.push_back(hepex::io::Expression::parse(text, vars));
  return expression_black_box(std::move(e), n);
}

TEST(FactorScan, FindsTheUnivariateFactorsOfNumeratorAndDenominator) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const auto box =
      box_of("(x1 - 2)*(x2 + x3 + 1) / (x1^2*(x2 - 3)*(2*x3 - 7)*(x1 + x2)*(x3*x4 + 1))", 4);
  const auto primes = hepex::field::random_large_primes(3, hepex::test::seed());
  for (const std::uint64_t p : primes) {
    const Zp64 f(p);
    RandomElements random(hepex::test::seed() + p);
    EXPECT_EQ(vanishing_hyperplanes(*box, f, random), std::vector<std::size_t>{0});
    const auto factors = scan_factors(*box, f, random, ZippelOptions{}, {0, 1, 2, 3});
    ASSERT_EQ(factors.size(), 1u);
    const auto& g = factors[0];
    // Monic over Q, lowest degree first: x1^2, x2 - 3, x3 - 7/2; x1 - 2 above.
    ASSERT_EQ(g.den.size(), 3u);
    EXPECT_EQ(g.den[0].variable, 0u);
    EXPECT_EQ(g.den[0].coefficients, (std::vector<mpq_class>{0, 0, 1}));
    EXPECT_EQ(g.den[1].variable, 1u);
    EXPECT_EQ(g.den[1].coefficients, (std::vector<mpq_class>{-3, 1}));
    EXPECT_EQ(g.den[2].variable, 2u);
    EXPECT_EQ(g.den[2].coefficients, (std::vector<mpq_class>{mpq_class(-7, 2), 1}));
    ASSERT_EQ(g.num.size(), 1u);
    EXPECT_EQ(g.num[0].variable, 0u);
    EXPECT_EQ(g.num[0].coefficients, (std::vector<mpq_class>{-2, 1}));
  }
}

TEST(FactorScan, NoFactorsWhereThereAreNone) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const auto box = box_of("(x1*x2 + 3)/(x1 + x2^2 + x3 + 5)", 3);
  const Zp64 f(hepex::field::random_large_primes(1, hepex::test::seed()).front());
  RandomElements random(hepex::test::seed());
  EXPECT_TRUE(vanishing_hyperplanes(*box, f, random).empty());
  const auto factors = scan_factors(*box, f, random, ZippelOptions{}, {0, 1, 2});
  ASSERT_EQ(factors.size(), 1u);
  EXPECT_TRUE(factors[0].empty());
}

// A denominator whose only vanishing at the origin comes from one variable:
// the shift is in that variable alone (the sparse shift), and shape_of
// reports the line's degrees.
TEST(Shift, OneVariableSuffices) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const auto box = box_of("(x1 + x2*x3 + x4)/(x2*(x1 + x3 + 1) + x4^2*x2)", 4);
  for (const std::uint64_t p : hepex::field::random_large_primes(3, hepex::test::seed())) {
    const Zp64 f(p);
    RandomElements random(hepex::test::seed() + p);
    const auto choice = choose_shift(*box, f, random, ZippelOptions{});
    std::size_t shifted = 0;
    for (const auto v : choice.shift) shifted += v != 0;
    EXPECT_EQ(shifted, 1u);
    EXPECT_NE(choice.shift[1], 0u) << "x2 is the variable that must move off zero";
    ASSERT_EQ(choice.shapes.size(), 1u);
  }
}

}  // namespace
