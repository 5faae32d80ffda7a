// The factored form (hepex/reconstruct/factored_form.hpp): random products
// of linear factors (irreducible, so their multiplicities are known) and
// random cofactors in 1-5 variables, over a random rational constant. The
// text must parse back (hepex's own expression parser, no FLINT involved)
// to the function at random points mod a prime, show every linear factor
// with its multiplicity, and to_shorter_string must be the shorter text.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "hepex/field/zp.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/factored_form.hpp"
#include "hepex/reconstruct/polynomial.hpp"
#include "random_functions.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex::reconstruct;
using hepex::field::Zp64;

// x_i + b x_j + c (i < j; or x_i + c with one variable): leading term x_i
// with coefficient 1 in lexicographic order, content 1.
PolynomialQ linear(std::mt19937_64& rng, std::size_t n) {
  const std::size_t i = rng() % n;
  std::map<std::vector<std::uint32_t>, mpq_class> terms;
  std::vector<std::uint32_t> e(n, 0);
  e[i] = 1;
  terms[e] = 1;
  if (i + 1 < n && rng() % 2 == 0) {
    std::vector<std::uint32_t> f(n, 0);
    f[i + 1 + rng() % (n - i - 1)] = 1;
    terms[f] = static_cast<long>(rng() % 9) - 4;
  }
  const long c = static_cast<long>(rng() % 15) - 7;
  terms[std::vector<std::uint32_t>(n, 0)] = c;
  for (auto it = terms.begin(); it != terms.end();) it = it->second == 0 ? terms.erase(it) : ++it;
  auto p = hepex::test::polynomial_of(n, terms);
  p.sort();
  return p;
}

PolynomialQ power(const PolynomialQ& p, unsigned k, std::size_t n) {
  std::vector<std::uint32_t> zero(n, 0);
  PolynomialQ out{n, {}, {}};
  out.add_term(zero.data(), 1);
  for (unsigned i = 0; i < k; ++i) out = hepex::test::multiply(out, p);
  return out;
}

std::uint64_t value(const PolynomialQ& p, const Zp64& f, const std::vector<std::uint64_t>& x) {
  std::uint64_t sum = 0;
  for (std::size_t t = 0; t < p.terms(); ++t) {
    mpz_class num = p.coefficients[t].get_num() % f.modulus(),
              den = p.coefficients[t].get_den() % f.modulus();
    if (num < 0) num += f.modulus();
    std::uint64_t term = f.mul(num.get_ui(), f.inv(den.get_ui()));
    for (std::size_t v = 0; v < p.variables; ++v) term = f.mul(term, f.pow(x[v], p.exponent(t)[v]));
    sum = f.add(sum, term);
  }
  return sum;
}

TEST(FactoredForm, ParsesBackAndShowsEveryMultiplicity) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const Zp64 f(9223372036854775783ull);
  for (int trial = 0; trial < hepex::test::cases(60); ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const std::size_t n = 1 + rng() % 5;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < n; ++i) names.push_back("x" + std::to_string(i + 1));
    RationalFunction r;
    std::vector<std::uint32_t> zero(n, 0);
    r.num = PolynomialQ{n, {}, {}};
    r.den = PolynomialQ{n, {}, {}};
    const long top = static_cast<long>(rng() % 41) - 20;  // (separate statements: one
    const unsigned long bottom = 1 + rng() % 12;          // order of the draws everywhere)
    mpq_class constant(top == 0 ? 3 : top, bottom);
    constant.canonicalize();
    r.num.add_term(zero.data(), constant);
    r.den.add_term(zero.data(), 1);
    std::vector<std::pair<std::string, unsigned>> expected;
    std::map<std::pair<int, std::string>, unsigned> multiplicity;  // (side, factor)
    for (int side = 0; side < 2; ++side) {
      const std::size_t count = rng() % 4;
      for (std::size_t k = 0; k < count; ++k) {
        const PolynomialQ q = linear(rng, n);
        const unsigned e = 1 + rng() % 3;
        auto& target = side ? r.den : r.num;
        target = hepex::test::multiply(target, power(q, e, n));
        multiplicity[{side, to_string(q, names)}] += e;
      }
      if (rng() % 3 == 0) {  // a cofactor, factored or not by FLINT
        auto& target = side ? r.den : r.num;
        target =
            hepex::test::multiply(target, hepex::test::random_polynomial(rng, n, 3, 2, 6, true));
      }
    }
    r.num.sort();
    r.den.sort();
    SCOPED_TRACE("expanded " + to_string(r, names) + ", constant " + constant.get_str());
    const std::string text = to_factored_string(r, names);
    SCOPED_TRACE("factored " + text);
    // Back through the parser, at random points.
    const auto parsed = expression_black_box({hepex::io::Expression::parse(text, names)}, n);
    for (int k = 0; k < 4; ++k) {
      std::vector<std::uint64_t> x(n);
      for (auto& v : x) v = 1 + rng() % (f.modulus() - 1);
      const std::uint64_t d = value(r.den, f, x);
      if (d == 0) continue;
      std::vector<std::uint64_t> got;
      std::vector<std::uint8_t> ok;
      parsed->evaluate(f, 1, x, got, ok);
      ASSERT_EQ(ok.at(0), 1);
      EXPECT_EQ(got.at(0), f.mul(value(r.num, f, x), f.inv(d)));
    }
    // Every linear factor with its multiplicity (a factor of both sides,
    // not cancelled here, shows on each).
    for (const auto& [key, e] : multiplicity) {
      const std::string& factor = key.second;
      const bool monomial = factor.find(' ') == std::string::npos;
      const std::string base = monomial ? factor : "(" + factor + ")";
      EXPECT_NE(text.find(base), std::string::npos) << factor;
      if (e > 1 && text.find(base + "^") == std::string::npos) ADD_FAILURE() << factor << "^" << e;
    }
    const std::string expanded = to_string(r, names);
    const std::string shorter = to_shorter_string(r, names);
    EXPECT_EQ(shorter, text.size() < expanded.size() ? text : expanded);
  }
}

TEST(FactoredForm, ConstantsAndPolynomials) {
  const std::vector<std::string> names{"x", "y"};
  const std::vector<std::uint32_t> zero{0, 0}, x{1, 0}, y{0, 1}, x2{2, 0};
  RationalFunction r{{2, {}, {}}, {2, {}, {}}};
  r.num.add_term(zero.data(), mpq_class(-5, 3));
  r.den.add_term(zero.data(), 1);
  EXPECT_EQ(to_factored_string(r, names), "-5/3");
  RationalFunction q{{2, {}, {}}, {2, {}, {}}};
  q.num.add_term(x2.data(), 2);  // 2 x^2 - 2 = 2 (x - 1)(x + 1)
  q.num.add_term(zero.data(), -2);
  q.den.add_term(y.data(), 1);
  q.num.sort();
  EXPECT_EQ(to_factored_string(q, names), "2*(x + 1)*(x - 1)/y");
  RationalFunction z{{2, {}, {}}, {2, {}, {}}};
  z.den.add_term(zero.data(), 1);
  EXPECT_EQ(to_factored_string(z, names), "0");
  (void)x;
}

}  // namespace
