// Rational functions whose denominators have no constant term — the
// denominators of IBP coefficients and of FireFly's benchmark functions:
// products of monomials, x - 3, 2x - 7, x + y, x y - z^2 and a random
// cofactor, in 1 to 10 variables, sparse and dense numerators, small and
// 110-bit coefficients, the factor scan automatic, on and off. Checked
// exactly (GMP cross-multiplication against the generated function), and
// every prime after the first must cost at most 1.05 T + 10 probes for the
// T terms of the answer (the first prime's lines and terms reused).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/rational.hpp"
#include "random_functions.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex::reconstruct;
using hepex::io::Expression;
using hepex::test::multiply;
using Terms = std::map<std::vector<std::uint32_t>, mpq_class>;

std::vector<std::string> names(std::size_t n) {
  std::vector<std::string> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back("x" + std::to_string(i + 1));
  return v;
}

Reconstruction from_text(const std::vector<std::string>& texts,
                         const std::vector<std::string>& vars, ReconstructOptions options) {
  std::vector<Expression> e;
  for (const auto& t : texts) e.push_back(Expression::parse(t, vars));
  return reconstruct(*expression_black_box(std::move(e), vars.size()), options);
}

// sum c_k x^e_k from (exponents, coefficient) pairs.
PolynomialQ poly(std::size_t n,
                 const std::vector<std::pair<std::vector<std::uint32_t>, long>>& terms) {
  Terms out;
  for (const auto& [e, c] : terms) out[e] += c;
  return hepex::test::polynomial_of(n, out);
}

std::vector<std::uint32_t> unit(std::size_t n, std::size_t i, std::uint32_t k = 1) {
  std::vector<std::uint32_t> e(n, 0);
  e[i] += k;
  return e;
}

// One factor of an IBP-like denominator; `homogeneous`: one without a
// constant term (x_i^k, x_i + x_j, x_i x_j - x_k^2).
PolynomialQ denominator_factor(std::mt19937_64& rng, std::size_t n, bool homogeneous) {
  const std::size_t i = rng() % n, j = n > 1 ? (i + 1 + rng() % (n - 1)) % n : i, k = rng() % n;
  const std::vector<std::uint32_t> one(n, 0);
  switch (homogeneous ? (n == 1 ? 0 : rng() % 3) : 3 + rng() % 2) {  // n = 1: x1 x1 - x1^2 = 0
    case 0: return poly(n, {{unit(n, i, 1 + rng() % 2), 1}});
    case 1: return poly(n, {{unit(n, i), 1}, {unit(n, j), 1}});
    case 2: {
      auto ij = unit(n, i);
      ++ij[j];
      return poly(n, {{ij, 1}, {unit(n, k, 2), -1}});
    }
    case 3: return poly(n, {{unit(n, i), 1}, {one, -3}});
    default: return poly(n, {{unit(n, i), 2}, {one, -7}});
  }
}

struct Case {
  RationalFunction truth;
  std::string what;
};

// Case c of the family: n = 1 + c % 10 variables, every fourth a denominator
// with a constant term (the bound on later primes holds for both), every
// third with 110-bit coefficients, every fifth (n <= 3) a dense numerator.
Case make_case(std::mt19937_64& rng, std::size_t c) {
  const std::size_t n = 1 + c % 10;
  const bool constant = c % 4 == 3, dense = c % 5 == 1 && n <= 3;
  const unsigned bits = c % 3 == 0 ? 110 : 16;
  const std::uint32_t dense_degree = n == 1 ? 12 : n == 2 ? 6 : 4;
  const std::size_t all = hepex::test::monomial_count(n, dense_degree);
  PolynomialQ num = dense ? hepex::test::random_polynomial(rng, n, all, dense_degree, bits, true)
                          : hepex::test::random_polynomial(
                                rng, n, std::min<std::size_t>(1 + rng() % 12, n == 1 ? 7 : 12), 7,
                                bits, rng() % 2);
  PolynomialQ den = hepex::test::random_polynomial(rng, n, 1 + rng() % 3, 3, bits, true);
  std::string what = std::to_string(n) + " variables, " + (dense ? "dense, " : "sparse, ") +
                     std::to_string(bits) + "-bit coefficients, " +
                     (constant ? "a constant term" : "no constant term");
  const std::size_t factors = 1 + rng() % 3;
  for (std::size_t k = 0; k < factors; ++k) {
    den = multiply(den, denominator_factor(rng, n, !constant && k == 0));
  }
  return {{num, den}, what};
}

void check_later_primes(const Reconstruction& r, std::size_t T) {
  std::string uses;
  for (const auto& use : r.prime_uses)
    uses += std::string(" ") + to_string(use.role) + " " + std::to_string(use.probes);
  bool first = true;
  for (const auto& use : r.prime_uses) {
    if (use.role != PrimeUse::Role::image) continue;
    if (!first) {
      EXPECT_LE(static_cast<double>(use.probes), 1.05 * static_cast<double>(T) + 10)
          << "a prime after the first cost " << use.probes << " probes for " << T
          << " terms; primes:" << uses;
    }
    first = false;
  }
}

TEST(Reconstruct, DenominatorsWithoutConstantTermOneToTenVariables) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 37);
  const ReconstructOptions::FactorScan scans[] = {ReconstructOptions::FactorScan::automatic,
                                                  ReconstructOptions::FactorScan::on,
                                                  ReconstructOptions::FactorScan::off};
  std::size_t later_primes = 0;
  for (std::size_t c = 0; c < 100; ++c) {
    const Case k = make_case(rng, c);
    const auto vars = names(k.truth.num.variables);
    const std::string text = to_string(k.truth, vars);
    SCOPED_TRACE("case " + std::to_string(c) + " (" + k.what + "): " + text);
    ReconstructOptions options;
    options.seed = hepex::test::seed() + c;
    options.max_primes = 60;
    options.factor_scan = scans[c % 3];
    const auto r = from_text({text}, vars, options);
    ASSERT_EQ(r.functions.size(), 1u);
    EXPECT_TRUE(hepex::test::same_function(r.functions[0], k.truth))
        << "got " << to_string(r.functions[0], vars);
    check_later_primes(r, r.functions[0].num.terms() + r.functions[0].den.terms());
    later_primes += r.primes - 1;
  }
  EXPECT_GE(later_primes, 50u);  // the bound was tested on many primes
}

// Several such functions from one black box (as the coefficients of one IBP
// system): T is the largest of theirs, since one probe serves them all.
TEST(Reconstruct, ManyFunctionsWithoutConstantTermsFromOneBlackBox) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 38);
  const std::size_t n = 4;
  std::vector<RationalFunction> truth;
  std::vector<std::string> texts;
  const auto vars = names(n);
  for (std::size_t g = 0; g < 12; ++g) {
    PolynomialQ den = hepex::test::random_polynomial(rng, n, 1 + rng() % 2, 2, 16, true);
    for (std::size_t k = 0; k < 1 + rng() % 3; ++k)
      den = multiply(den, denominator_factor(rng, n, k == 0));
    truth.push_back(
        {hepex::test::random_polynomial(rng, n, 1 + rng() % 20, 6, g % 3 == 0 ? 100 : 12, false),
         den});
    texts.push_back(to_string(truth.back(), vars));
  }
  ReconstructOptions options;
  options.seed = hepex::test::seed();
  const auto r = from_text(texts, vars, options);
  ASSERT_EQ(r.functions.size(), truth.size());
  std::size_t T = 0;
  for (std::size_t g = 0; g < truth.size(); ++g) {
    EXPECT_TRUE(hepex::test::same_function(r.functions[g], truth[g]))
        << texts[g] << "\n  got " << to_string(r.functions[g], vars);
    T = std::max(T, r.functions[g].num.terms() + r.functions[g].den.terms());
  }
  EXPECT_GE(r.primes, 3u);
  check_later_primes(r, T);
}

// Shaped like FireFly's benchmark functions (our own formulas): f1's sum of
// 20 variables over another without a constant term, factors4's products of
// univariate factors in 20 variables, and a denominator x1^3 (x2 - 3)^2 under
// a numerator of degree 40 in two variables; built with GMP here.
TEST(Reconstruct, FireFlyShapedFunctions) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const std::size_t n = 20;
  const std::vector<std::uint32_t> one(n, 0);
  Terms sum_num, sum_den, all_linear;
  PolynomialQ factored = poly(n, {{one, 1}});
  for (std::size_t i = 0; i < n; ++i) {
    sum_num[unit(n, i, 1 + i % 3)] += 3 * static_cast<long>(i) + 2;
    auto xy = unit(n, i);
    ++xy[(i + 1) % n];
    sum_den[xy] -= static_cast<long>(i) + 1;
    all_linear[unit(n, i)] += 1;
    for (std::size_t k = 0; i < 6 && k < 1 + i % 2; ++k) {
      factored = multiply(factored, poly(n, {{unit(n, i), 1}, {one, -static_cast<long>(i) - 1}}));
    }
  }
  factored = multiply(factored, poly(n, {{unit(n, 6), 1}, {unit(n, 7), 1}}));
  factored = multiply(factored, poly(n, {{unit(n, 8, 2), 1}}));

  // (x1 + 2 x2 - 5)^40 + 7 over x1^3 (x2 - 3)^2.
  const std::vector<std::uint32_t> none(2, 0);
  const PolynomialQ base = poly(2, {{{1, 0}, 1}, {{0, 1}, 2}, {none, -5}});
  PolynomialQ power = poly(2, {{none, 1}});
  for (int k = 0; k < 40; ++k) power = multiply(power, base);
  Terms plus_seven = hepex::test::product(power, poly(2, {{none, 1}}));
  plus_seven[none] += 7;
  const PolynomialQ x2_minus_3 = poly(2, {{{0, 1}, 1}, {none, -3}});
  const PolynomialQ small_den = multiply(poly(2, {{{3, 0}, 1}}), multiply(x2_minus_3, x2_minus_3));
  const std::vector<RationalFunction> inputs = {
      {hepex::test::polynomial_of(n, sum_num), hepex::test::polynomial_of(n, sum_den)},
      {hepex::test::polynomial_of(n, all_linear), factored},
      {hepex::test::polynomial_of(2, plus_seven), small_den},
  };
  for (const auto& truth : inputs) {
    const auto vars = names(truth.num.variables);
    const std::string text = to_string(truth, vars);
    SCOPED_TRACE(text.substr(0, 300));
    ReconstructOptions options;
    options.seed = hepex::test::seed();
    const auto r = from_text({text}, vars, options);
    ASSERT_EQ(r.functions.size(), 1u);
    EXPECT_TRUE(hepex::test::same_function(r.functions[0], truth))
        << "got " << to_string(r.functions[0], vars);
    check_later_primes(r, r.functions[0].num.terms() + r.functions[0].den.terms());
  }
}

}  // namespace

// The algebra on several host threads (ReconstructOptions::threads) changes
// nothing: the same functions, primes and probes as on one, for the cases
// above and for many functions of one black box (one fit, one Vandermonde
// system and one known value per function and probe, spread over threads).
TEST(Reconstruct, HostThreadsGiveTheSameAnswerAndProbes) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 39);
  const auto run = [](const std::vector<std::string>& texts, const std::vector<std::string>& vars,
                      std::uint64_t seed, std::size_t threads) {
    ReconstructOptions options;
    options.seed = seed;
    options.max_primes = 60;
    options.threads = threads;
    return from_text(texts, vars, options);
  };
  const auto same = [](const Reconstruction& one, const Reconstruction& many,
                       const std::vector<std::string>& vars) {
    ASSERT_EQ(one.functions.size(), many.functions.size());
    for (std::size_t g = 0; g < one.functions.size(); ++g)
      EXPECT_EQ(to_string(one.functions[g], vars), to_string(many.functions[g], vars))
          << "function " << g;
    EXPECT_EQ(one.probes, many.probes);
    ASSERT_EQ(one.prime_uses.size(), many.prime_uses.size());
    for (std::size_t k = 0; k < one.prime_uses.size(); ++k) {
      EXPECT_EQ(one.prime_uses[k].prime, many.prime_uses[k].prime);
      EXPECT_EQ(one.prime_uses[k].probes, many.prime_uses[k].probes);
    }
  };
  for (std::size_t c = 0; c < 30; ++c) {
    const Case k = make_case(rng, c);
    const auto vars = names(k.truth.num.variables);
    const std::string text = to_string(k.truth, vars);
    SCOPED_TRACE("case " + std::to_string(c) + " (" + k.what + "): " + text);
    const auto one = run({text}, vars, hepex::test::seed() + c, 1);
    const auto many = run({text}, vars, hepex::test::seed() + c, 2 + c % 6);
    EXPECT_TRUE(hepex::test::same_function(many.functions.at(0), k.truth));
    same(one, many, vars);
  }
  const std::size_t n = 3;
  const auto vars = names(n);
  std::vector<RationalFunction> truth;
  std::vector<std::string> texts;
  for (std::size_t g = 0; g < 80; ++g) {
    PolynomialQ den = hepex::test::random_polynomial(rng, n, 1 + rng() % 2, 2, 16, true);
    for (std::size_t k = 0; k < 1 + rng() % 3; ++k)
      den = multiply(den, denominator_factor(rng, n, k == 0));
    truth.push_back(
        {hepex::test::random_polynomial(rng, n, 1 + rng() % 30, 7, g % 4 == 0 ? 90 : 12, false),
         den});
    texts.push_back(to_string(truth.back(), vars));
  }
  const auto one = run(texts, vars, hepex::test::seed(), 1);
  const auto many = run(texts, vars, hepex::test::seed(), 7);
  for (std::size_t g = 0; g < truth.size(); ++g)
    EXPECT_TRUE(hepex::test::same_function(many.functions.at(g), truth[g])) << texts[g];
  same(one, many, vars);
}
