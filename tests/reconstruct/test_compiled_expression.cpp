// Expressions compiled into monomial tables (detail/compiled_expressions.hpp)
// against the stack interpreter and an independent oracle: random expression
// trees (sums, products, quotients, powers and inverse powers of random sparse
// polynomials, big constants, constants that are multiples of the prime,
// exact zeros like t - t) in 1-6 variables, evaluated mod random 63-bit primes
// at random points and at points that make denominators vanish; value and ok
// flag per point. Also: the failing points of hand-picked cases, the fallback
// when expansion exceeds its limits, the choice by cost, and the per-prime
// tables when primes alternate.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "hepex/core/spaces.hpp"
#include "hepex/field/big_integer.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/detail/compiled_expressions.hpp"
#include "hepex/reconstruct/detail/expression_box.hpp"
#include "test_seed.hpp"

namespace {

using hepex::field::Zp64;
using hepex::io::Expression;
using hepex::io::Op;
using hepex::reconstruct::BlackBox;
using hepex::reconstruct::detail::CompiledExpressions;
using hepex::reconstruct::detail::CompileOptions;

// An expression tree: the oracle evaluates it with GMP, the parser reads its text.
struct Node {
  Op op = Op::constant;
  mpz_class constant;          // Op::constant (>= 0)
  std::size_t variable = 0;    // Op::variable
  std::uint64_t exponent = 0;  // Op::pow, Op::pow_inverse
  std::vector<Node> children;
};

std::string text(const Node& n) {
  auto wrapped = [](const Node& c) { return "(" + text(c) + ")"; };
  switch (n.op) {
    case Op::constant: return n.constant.get_str();
    case Op::variable: return "x" + std::to_string(n.variable + 1);
    case Op::add: return wrapped(n.children[0]) + "+" + wrapped(n.children[1]);
    case Op::sub: return wrapped(n.children[0]) + "-" + wrapped(n.children[1]);
    case Op::mul: return wrapped(n.children[0]) + "*" + wrapped(n.children[1]);
    case Op::div: return wrapped(n.children[0]) + "/" + wrapped(n.children[1]);
    case Op::neg: return "-" + wrapped(n.children[0]);
    case Op::pow: return wrapped(n.children[0]) + "^" + std::to_string(n.exponent);
    case Op::pow_inverse: return wrapped(n.children[0]) + "^-" + std::to_string(n.exponent);
  }
  return "";
}

// The value mod p with mpz arithmetic; nothing on a division by zero.
std::optional<mpz_class> oracle(const Node& n, const std::vector<mpz_class>& x,
                                const mpz_class& p) {
  if (n.op == Op::constant) return mpz_class(n.constant % p);
  if (n.op == Op::variable) return x[n.variable];
  std::vector<mpz_class> v;
  for (const auto& c : n.children) {
    const auto value = oracle(c, x, p);
    if (!value) return std::nullopt;
    v.push_back(*value);
  }
  mpz_class r;
  switch (n.op) {
    case Op::add: r = v[0] + v[1]; break;
    case Op::sub: r = v[0] - v[1]; break;
    case Op::mul: r = v[0] * v[1]; break;
    case Op::div:
      if (v[1] == 0) return std::nullopt;
      mpz_invert(r.get_mpz_t(), v[1].get_mpz_t(), p.get_mpz_t());
      r *= v[0];
      break;
    case Op::neg: r = -v[0]; break;
    case Op::pow: mpz_powm_ui(r.get_mpz_t(), v[0].get_mpz_t(), n.exponent, p.get_mpz_t()); break;
    case Op::pow_inverse:
      if (v[0] == 0) return std::nullopt;
      mpz_powm_ui(r.get_mpz_t(), v[0].get_mpz_t(), n.exponent, p.get_mpz_t());
      mpz_invert(r.get_mpz_t(), r.get_mpz_t(), p.get_mpz_t());
      break;
    default: break;
  }
  mpz_fdiv_r(r.get_mpz_t(), r.get_mpz_t(), p.get_mpz_t());
  return r;
}

Node leaf(Op op, mpz_class c = 0, std::size_t variable = 0) {
  Node n;
  n.op = op;
  n.constant = std::move(c);
  n.variable = variable;
  return n;
}

Node node(Op op, std::vector<Node> children, std::uint64_t exponent = 0) {
  Node n;
  n.op = op;
  n.children = std::move(children);
  n.exponent = exponent;
  return n;
}

// The small values that points take half of the time, so that factors like
// x - 2 vanish often.
const std::vector<unsigned> small_values = {0, 1, 2, 3};

class RandomExpressions {
 public:
  RandomExpressions(std::uint64_t seed, std::size_t variables, const mpz_class& p)
      : rng_(seed), variables_(variables), p_(p) {
    gmp_.seed(static_cast<unsigned long>(seed));
  }

  Node expression(int depth) {
    if (depth == 0 || rng_() % 4 == 0) return operand();
    const auto pick = rng_() % 16;
    if (pick < 3) return node(Op::add, {expression(depth - 1), expression(depth - 1)});
    if (pick < 5) return node(Op::sub, {expression(depth - 1), expression(depth - 1)});
    if (pick < 8) return node(Op::mul, {expression(depth - 1), expression(depth - 1)});
    if (pick < 11) return node(Op::div, {expression(depth - 1), expression(depth - 1)});
    if (pick < 12) return node(Op::neg, {expression(depth - 1)});
    if (pick < 13) return node(Op::pow, {expression(depth - 1)}, rng_() % 5);
    if (pick < 15) return node(Op::pow_inverse, {expression(depth - 1)}, rng_() % 4);
    // Zero over Q: t - t, or t/t (zero where t is).
    Node t = expression(depth - 1);
    return node(rng_() % 2 ? Op::sub : Op::div, {t, t});
  }

  std::vector<mpz_class> point() {
    std::vector<mpz_class> x(variables_);
    for (auto& v : x) {
      if (rng_() % 2) {
        v = gmp_.get_z_range(p_);
      } else {
        v = small_values[rng_() % small_values.size()];
      }
    }
    return x;
  }

 private:
  Node operand() {
    switch (rng_() % 8) {
      case 0: return leaf(Op::constant, rng_() % 6);
      case 1:  // big: up to 300 bits
        return leaf(Op::constant, gmp_.get_z_bits(1 + rng_() % 300));
      case 2:  // a big rational constant
        return node(Op::div, {leaf(Op::constant, gmp_.get_z_bits(1 + rng_() % 200)),
                              leaf(Op::constant, gmp_.get_z_bits(1 + rng_() % 200) + 1)});
      case 3:  // zero mod p
        return leaf(Op::constant, p_ * (1 + rng_() % 3));
      case 4: {  // x_v - s, s a small value
        return node(Op::sub, {variable(), leaf(Op::constant, small_values[rng_() % 4])});
      }
      default: return sparse_polynomial();
    }
  }

  Node variable() { return leaf(Op::variable, 0, rng_() % variables_); }

  // 1-4 terms c * x_a^e * x_b^f.
  Node sparse_polynomial() {
    Node sum;
    const std::size_t terms = 1 + rng_() % 4;
    for (std::size_t t = 0; t < terms; ++t) {
      Node term = node(Op::mul, {leaf(Op::constant, gmp_.get_z_bits(1 + rng_() % 64)),
                                 node(Op::pow, {variable()}, rng_() % 4)});
      if (rng_() % 2) term = node(Op::mul, {term, node(Op::pow, {variable()}, 1 + rng_() % 3)});
      sum = t == 0 ? term : node(rng_() % 3 ? Op::add : Op::sub, {sum, term});
    }
    return sum;
  }

  std::mt19937_64 rng_;
  gmp_randclass gmp_{gmp_randinit_default};
  std::size_t variables_;
  mpz_class p_;
};

// A random prime in [2^62, 2^63).
std::uint64_t random_prime(std::mt19937_64& rng) {
  mpz_class p(std::to_string((rng() >> 2) | (std::uint64_t{1} << 62)));
  mpz_nextprime(p.get_mpz_t(), p.get_mpz_t());
  return std::stoull(p.get_str());
}

std::vector<std::string> names(std::size_t n) {
  std::vector<std::string> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back("x" + std::to_string(i + 1));
  return v;
}

std::unique_ptr<BlackBox> interpreter_box(std::vector<Expression> e, std::size_t variables) {
  using Functor = hepex::io::ExpressionFunctor<hepex::DeviceMemory>;
  const std::size_t functions = e.size();
  return std::make_unique<hepex::reconstruct::DeviceBlackBox<hepex::DeviceSpace, Functor>>(
      variables, functions, [e = std::move(e)](const Zp64& f) {
        return Functor{f, hepex::io::make_program_table<hepex::DeviceMemory>(e, f)};
      });
}

struct Values {
  std::vector<std::uint64_t> values;
  std::vector<std::uint8_t> ok;
};

Values run(const BlackBox& box, const Zp64& f, const std::vector<std::uint64_t>& points) {
  Values v;
  box.evaluate(f, points.size() / std::max<std::size_t>(box.variables(), 1), points, v.values,
               v.ok);
  return v;
}

std::vector<std::uint64_t> flatten(const std::vector<std::vector<mpz_class>>& points) {
  std::vector<std::uint64_t> out;
  for (const auto& x : points) {
    for (const auto& v : x) out.push_back(std::stoull(v.get_str()));
  }
  return out;
}

TEST(CompiledExpression, RandomExpressionsAgreeWithInterpreterAndOracle) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  std::size_t compiled = 0, functions = 0, failing_points = 0, points_total = 0;
  for (int c = 0; c < 300; ++c) {
    const std::uint64_t case_seed = rng();
    std::mt19937_64 case_rng(case_seed);
    const std::size_t n = 1 + case_rng() % 6;
    const std::uint64_t prime = random_prime(case_rng);
    const mpz_class p(std::to_string(prime));
    const Zp64 f(prime);
    RandomExpressions random(case_seed, n, p);
    std::vector<Node> trees;
    std::vector<Expression> expressions;
    std::string texts;
    for (std::size_t k = 1 + case_rng() % 3; k > 0; --k) {
      trees.push_back(random.expression(4));
      texts += "\n  " + text(trees.back());
      expressions.push_back(Expression::parse(text(trees.back()), names(n)));
    }
    SCOPED_TRACE("case " + std::to_string(c) + " (seed " + std::to_string(case_seed) +
                 "), p = " + std::to_string(prime) + ", expressions:" + texts);
    std::vector<std::vector<mpz_class>> points;
    for (int i = 0; i < 24; ++i) points.push_back(random.point());

    const CompiledExpressions tables(expressions, n, CompileOptions{false});
    for (std::size_t j = 0; j < expressions.size(); ++j) compiled += tables.compiled(j) ? 1 : 0;
    functions += expressions.size();
    const auto forced = hepex::reconstruct::detail::expression_black_box(expressions, n, {false});
    const auto chosen = hepex::reconstruct::expression_black_box(expressions, n);
    const auto interpreted = interpreter_box(expressions, n);
    const auto flat = flatten(points);
    const Values a = run(*forced, f, flat), b = run(*chosen, f, flat),
                 i = run(*interpreted, f, flat);
    for (std::size_t r = 0; r < points.size(); ++r) {
      SCOPED_TRACE("point " + std::to_string(r));
      std::vector<std::optional<mpz_class>> want;
      bool ok = true;
      for (const auto& t : trees) {
        want.push_back(oracle(t, points[r], p));
        ok = ok && want.back().has_value();
      }
      ++points_total;
      failing_points += ok ? 0 : 1;
      ASSERT_EQ(i.ok[r], ok ? 1 : 0);
      ASSERT_EQ(a.ok[r], ok ? 1 : 0);
      ASSERT_EQ(b.ok[r], ok ? 1 : 0);
      if (!ok) continue;
      for (std::size_t j = 0; j < trees.size(); ++j) {
        const std::uint64_t expected = std::stoull(want[j]->get_str());
        const std::size_t at = r * trees.size() + j;
        ASSERT_EQ(i.values[at], expected) << "interpreter, function " << j;
        ASSERT_EQ(a.values[at], expected) << "compiled, function " << j;
        ASSERT_EQ(b.values[at], expected) << "chosen, function " << j;
      }
    }
  }
  // Not vacuous: most functions compiled, and points both succeed and fail.
  EXPECT_GT(compiled * 4, functions * 3) << compiled << " of " << functions;
  EXPECT_GT(failing_points * 10, points_total) << failing_points << " of " << points_total;
  EXPECT_LT(failing_points * 10, points_total * 9) << failing_points << " of " << points_total;
}

// ok flags of one expression in x over the given points.
std::vector<std::uint8_t> oks(const std::string& text, const Zp64& f,
                              const std::vector<std::uint64_t>& xs) {
  const auto box = hepex::reconstruct::detail::expression_black_box(
      {Expression::parse(text, {"x"})}, 1, {false});
  return run(*box, f, xs).ok;
}

TEST(CompiledExpression, FailsWhereTheInterpreterDividesByZero) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const std::uint64_t p = 1000003;
  const Zp64 f(p);
  const std::vector<std::uint64_t> xs = {0, 1, 2, p - 1};
  const std::string P = std::to_string(p);
  const std::vector<std::pair<std::string, std::vector<std::uint8_t>>> cases = {
      {"x/x", {0, 1, 1, 1}},
      {"1/(x-x)", {0, 0, 0, 0}},
      {"(1/(x-1))*(x-1)", {1, 0, 1, 1}},
      {"1/(1/(x-1))", {1, 0, 1, 1}},
      {"(x-1)^-0", {1, 0, 1, 1}},
      {"(x^2-1)/(x+1)", {1, 1, 1, 0}},
      {"x^-2 - 1/x", {0, 1, 1, 1}},
      {"0*(1/(x-2))", {1, 1, 0, 1}},
      {"x/" + P, {0, 0, 0, 0}},  // a constant divisor 0 mod p
      {"(x/" + P + ")*" + P, {0, 0, 0, 0}},
      {"(2*x+2)/(" + P + "*x+1)", {1, 1, 1, 1}},  // P*x+1 = 1 mod p
      {"1/(" + P + "*x+" + P + ")", {0, 0, 0, 0}},
  };
  for (const auto& [text, want] : cases) {
    EXPECT_EQ(oks(text, f, xs), want) << text;
    const CompiledExpressions tables({Expression::parse(text, {"x"})}, 1, CompileOptions{false});
    EXPECT_TRUE(tables.compiled(0)) << text;
  }
  // Another prime: the constant divisors are fine there.
  const Zp64 g(1000033);
  EXPECT_EQ(oks("(x/" + P + ")*" + P, g, xs), (std::vector<std::uint8_t>{1, 1, 1, 1}));
  // Constants only, no variables.
  const auto box = hepex::reconstruct::detail::expression_black_box(
      {Expression::parse("3/7", {}), Expression::parse("5/(" + P + "*2)", {})}, 0, {false});
  std::vector<std::uint64_t> values;
  std::vector<std::uint8_t> ok;
  box->evaluate(g, 1, {}, values, ok);
  ASSERT_EQ(ok, std::vector<std::uint8_t>{1});
  EXPECT_EQ(values[0], g.mul(3, g.inv(7)));
  box->evaluate(f, 1, {}, values, ok);
  EXPECT_EQ(ok, std::vector<std::uint8_t>{0});
}

TEST(CompiledExpression, FallsBackToTheInterpreterBeyondTheLimits) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const auto vars = names(3);
  const std::vector<std::string> texts = {
      "(x1+x2+x3+1)^40 - x1",  // 12341 terms
      "(x1+2)^300",            // beyond the power table
      "3^1000000000000 * x2 / (x3 - 5)^1000000",
      "(x1^2 + 34567^2468 - x2 + 3783)^-122 - x2^8/890 - 2",  // 8 GB before the bits limit
      "x1*x2 + 1/(x3-1)",                                     // compiled, in the same box
  };
  std::vector<Expression> e;
  for (const auto& t : texts) e.push_back(Expression::parse(t, vars));
  const CompiledExpressions tables(e, 3, CompileOptions{false});
  EXPECT_FALSE(tables.compiled(0));
  EXPECT_FALSE(tables.compiled(1));
  EXPECT_FALSE(tables.compiled(2));
  EXPECT_FALSE(tables.compiled(3));
  EXPECT_TRUE(tables.compiled(4));
  const Zp64 f(hepex::field::large_primes(1).front());
  std::mt19937_64 rng(hepex::test::seed());
  std::vector<std::uint64_t> points;
  for (int i = 0; i < 30; ++i) {
    points.push_back(rng() % f.modulus());
    points.push_back(rng() % f.modulus());
    points.push_back(i % 3 == 0 ? 1 : i % 3 == 1 ? 5 : rng() % f.modulus());
  }
  const auto box = hepex::reconstruct::detail::expression_black_box(e, 3, {false});
  const Values a = run(*box, f, points), b = run(*interpreter_box(e, 3), f, points);
  EXPECT_EQ(a.ok, b.ok);
  EXPECT_EQ(a.values, b.values);
  EXPECT_NE(std::count(a.ok.begin(), a.ok.end(), 1), 0);
  EXPECT_NE(std::count(a.ok.begin(), a.ok.end(), 0), 0);
}

TEST(CompiledExpression, CompilesWhatIsCheaper) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  std::string polynomial;
  for (int t = 0; t < 200; ++t) {
    polynomial += (t ? " + " : "") + std::to_string(rng() % 1000000 + 1);
    for (int v = 1; v <= 6; ++v)
      polynomial += "*x" + std::to_string(v) + "^" + std::to_string(rng() % 17);
  }
  const auto vars = names(6);
  const auto compiled = [&](const std::string& text, bool only_when_cheaper) {
    return CompiledExpressions({Expression::parse(text, vars)}, 6, {only_when_cheaper}).compiled(0);
  };
  EXPECT_TRUE(compiled(polynomial, true));
  EXPECT_TRUE(compiled("(" + polynomial + ")/(x1-x2)", true));
  EXPECT_FALSE(compiled("(x1+x2)^100", true));  // 101 terms against a few squarings
  EXPECT_TRUE(compiled("(x1+x2)^100", false));
}

TEST(CompiledExpression, TablesPerPrimeWhenPrimesAlternate) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const auto primes = hepex::field::large_primes(3);
  const mpz_class big("98765432109876543210987654321");
  const std::string text = "(x1^3*x2 - " + big.get_str() + "/7*x2^2 + 1)/(x1 - 2) + x2^-1";
  const auto box =
      hepex::reconstruct::expression_black_box({Expression::parse(text, {"x1", "x2"})}, 2);
  for (int round = 0; round < 9; ++round) {
    const Zp64 f(primes[round % primes.size()]);
    SCOPED_TRACE("round " + std::to_string(round) + ", p = " + std::to_string(f.modulus()));
    std::vector<std::uint64_t> points;
    for (int i = 0; i < 8; ++i) {
      points.push_back(i == 0 ? 2 : rng() % f.modulus());
      points.push_back(i == 1 ? 0 : rng() % f.modulus());
    }
    const Values v = run(*box, f, points);
    for (int i = 0; i < 8; ++i) {
      const std::uint64_t x = points[2 * i], y = points[2 * i + 1];
      ASSERT_EQ(v.ok[i], i >= 2 ? 1 : 0) << i;
      if (i < 2) continue;
      const std::uint64_t num =
          f.add(f.sub(f.mul(f.pow(x, 3), y),
                      f.mul(f.mul(hepex::field::from_big(f, big), f.inv(7)), f.mul(y, y))),
                1);
      const std::uint64_t want = f.add(f.mul(num, f.inv(f.sub(x, 2))), f.inv(y));
      ASSERT_EQ(v.values[i], want) << i;
    }
  }
}

}  // namespace
