// The expression parser and its evaluation kernel: values mod p against GMP
// evaluation of the same expressions written as rationals, division by zero
// reported per point, and malformed input rejected with its column.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/field/big_integer.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "test_seed.hpp"

namespace {

using hepex::field::Zp64;
using hepex::io::Expression;

// Evaluates expressions over (x, y) at one point; ok = 0 on division by zero.
std::vector<std::uint64_t> values_at(const std::vector<std::string>& texts, const Zp64& f,
                                     std::uint64_t x, std::uint64_t y, std::uint8_t& ok) {
  std::vector<Expression> e;
  for (const auto& t : texts) e.push_back(Expression::parse(t, {"x", "y"}));
  const auto box = hepex::reconstruct::expression_black_box(std::move(e), 2);
  std::vector<std::uint64_t> out;
  std::vector<std::uint8_t> oks;
  box->evaluate(f, 1, {x, y}, out, oks);
  ok = oks.at(0);
  return out;
}

TEST(Expression, EvaluatesLikeExactRationals) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const Zp64 f(hepex::field::large_primes(1).front());
  const mpq_class x(3), y(-5);
  const mpz_class big("123456789012345678901234567890123456789");
  struct Case {
    std::string text;
    mpq_class value;
  };
  const std::vector<Case> cases = {
      {"1 + 2*3", 7},
      {"3/7", mpq_class(3, 7)},
      {"-x^2", -9},
      {"(-x)^2", 9},
      {"2 - 3 - 4", -5},
      {"24 / 4 / 3", 2},
      {"x^-2 * y", mpq_class(-5, 9)},
      {"x^(-1) + y^(+2)", mpq_class(76, 3)},
      {"-(x + y) * --y", -10},
      {"x^0 + 0^0", 2},
      {"123456789012345678901234567890123456789 * x", mpq_class(big * 3)},
      {"  ( x*y ) / (x - y)  ", mpq_class(-15, 8)},
      {"010 + 09", 19},  // decimal with leading zeros (GMP's base 0 read 010 as octal)
      {"x^010 - x^(08)", 59049 - 6561},
  };
  std::vector<std::string> texts;
  for (const auto& c : cases) texts.push_back(c.text);
  std::uint8_t ok = 0;
  const auto got =
      values_at(texts, f, hepex::field::from_big(f, x), hepex::field::from_big(f, y), ok);
  ASSERT_EQ(ok, 1);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(got[i], hepex::field::from_big(f, cases[i].value)) << cases[i].text;
  }
}

// Random expressions against a direct evaluation with GMP. A random tree
// (integers of 1 to 60 digits, sometimes with leading zeros, quotients of
// integers, variables, + - * /, unary signs, powers with exponents -3..6) is
// written out with the parentheses its precedence needs plus random extra
// ones and spaces, parsed, and evaluated mod p at random points by the
// kernel; the oracle evaluates the tree itself, mod p with mpz_class
// (mpz_invert for divisions and negative powers), and must agree on the
// value and on whether some division by zero occurs. Primes of 63, 31, 20
// and 7 bits (the small ones make zero divisors common).
struct RandomTree {
  enum Kind { integer, variable, add, sub, mul, div, neg, plus, pow } kind;
  std::string digits;     // integer: as written (maybe leading zeros)
  std::size_t index = 0;  // variable
  int exponent = 0;       // pow
  std::vector<RandomTree> children;
};

// Precedence as the grammar has it: sum 1, product 2, unary 3, power 4, primary 5.
int precedence(const RandomTree& t) {
  switch (t.kind) {
    case RandomTree::add:
    case RandomTree::sub: return 1;
    case RandomTree::mul:
    case RandomTree::div: return 2;
    case RandomTree::neg:
    case RandomTree::plus: return 3;
    case RandomTree::pow: return 4;
    default: return 5;
  }
}

RandomTree random_tree(std::mt19937_64& rng, int depth, std::size_t variables) {
  RandomTree t;
  const unsigned pick = static_cast<unsigned>(rng() % 100);
  if (depth == 0 || pick < 25) {
    if (rng() % 2 == 0) {
      t.kind = RandomTree::variable;
      t.index = rng() % variables;
    } else {
      t.kind = RandomTree::integer;
      const std::size_t length = rng() % 4 == 0 ? 1 + rng() % 60 : 1 + rng() % 3;
      if (rng() % 10 == 0) t.digits = "0";  // a leading zero, or the number 0
      for (std::size_t i = 0; i < length; ++i) t.digits += static_cast<char>('0' + rng() % 10);
    }
    return t;
  }
  static const RandomTree::Kind binary[] = {RandomTree::add, RandomTree::sub, RandomTree::mul,
                                            RandomTree::div};
  if (pick < 75) {
    t.kind = binary[rng() % 4];
    t.children = {random_tree(rng, depth - 1, variables), random_tree(rng, depth - 1, variables)};
  } else if (pick < 88) {
    t.kind = rng() % 3 == 0 ? RandomTree::plus : RandomTree::neg;
    t.children = {random_tree(rng, depth - 1, variables)};
  } else {
    t.kind = RandomTree::pow;
    t.exponent = static_cast<int>(rng() % 10) - 3;
    t.children = {random_tree(rng, depth - 1, variables)};
  }
  return t;
}

std::string write(const RandomTree& t, const std::vector<std::string>& names,
                  std::mt19937_64& rng) {
  const auto space = [&] { return rng() % 4 == 0 ? std::string(" ") : std::string(); };
  // Child c of t, parenthesised when the grammar needs it (or at random).
  const auto operand = [&](const RandomTree& c, int needs_above) {
    const std::string text = write(c, names, rng);
    const bool wrap = precedence(c) <= needs_above || rng() % 8 == 0;
    return wrap ? "(" + space() + text + space() + ")" : text;
  };
  switch (t.kind) {
    case RandomTree::integer: return t.digits;
    case RandomTree::variable: return names[t.index];
    case RandomTree::add:
    case RandomTree::sub:
    case RandomTree::mul:
    case RandomTree::div: {
      static const char symbol[] = {'+', '-', '*', '/'};
      const int p = precedence(t);
      // Left-associative: the left operand may share the precedence, the
      // right one must bind tighter.
      return operand(t.children[0], p - 1) + space() + symbol[t.kind - RandomTree::add] + space() +
             operand(t.children[1], p);
    }
    case RandomTree::neg:
    case RandomTree::plus:
      // unary := sign unary | power: the operand binds at least as a unary.
      return std::string(t.kind == RandomTree::neg ? "-" : "+") + space() +
             operand(t.children[0], 2);
    case RandomTree::pow: {
      // power := primary '^' exponent: the base must be a primary.
      const std::string e = std::to_string(t.exponent);
      const unsigned style = static_cast<unsigned>(rng() % 3);
      std::string exponent = style == 0 ? e : "(" + e + ")";
      if (style == 2 && t.exponent >= 0) exponent = "(+" + e + ")";
      return operand(t.children[0], 4) + space() + "^" + space() + exponent;
    }
  }
  return "";
}

// The tree's value mod p at x, or nothing on a division by zero.
std::optional<mpz_class> evaluate(const RandomTree& t, const mpz_class& p,
                                  const std::vector<mpz_class>& x) {
  const auto reduce = [&](mpz_class v) {
    mpz_class r;
    mpz_mod(r.get_mpz_t(), v.get_mpz_t(), p.get_mpz_t());
    return r;
  };
  const auto invert = [&](const mpz_class& v) -> std::optional<mpz_class> {
    mpz_class r;
    if (v == 0 || mpz_invert(r.get_mpz_t(), v.get_mpz_t(), p.get_mpz_t()) == 0) return {};
    return r;
  };
  switch (t.kind) {
    case RandomTree::integer: return reduce(mpz_class(t.digits, 10));
    case RandomTree::variable: return x[t.index];
    case RandomTree::neg:
    case RandomTree::plus: {
      const auto a = evaluate(t.children[0], p, x);
      if (!a) return {};
      return t.kind == RandomTree::neg ? reduce(-*a) : *a;
    }
    case RandomTree::pow: {
      const auto a = evaluate(t.children[0], p, x);
      if (!a) return {};
      mpz_class r;
      mpz_powm_ui(r.get_mpz_t(), a->get_mpz_t(), static_cast<unsigned long>(std::abs(t.exponent)),
                  p.get_mpz_t());
      if (t.exponent >= 0) return r;
      return invert(r);
    }
    default: {
      const auto a = evaluate(t.children[0], p, x);
      const auto b = evaluate(t.children[1], p, x);
      if (!a || !b) return {};
      switch (t.kind) {
        case RandomTree::add: return reduce(*a + *b);
        case RandomTree::sub: return reduce(*a - *b);
        case RandomTree::mul: return reduce(*a * *b);
        default: {
          const auto inverse = invert(*b);
          if (!inverse) return {};
          return reduce(*a * *inverse);
        }
      }
    }
  }
}

TEST(Expression, RandomExpressionsAgreeWithGmp) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 11);
  const std::vector<std::string> names = {"x", "y1", "Z_2"};
  const std::size_t points = 16;
  std::size_t values = 0, zero_divisions = 0;
  for (const std::uint64_t p : {hepex::field::large_primes(1).front(), std::uint64_t{2147483647},
                                std::uint64_t{1000003}, std::uint64_t{101}}) {
    const Zp64 f(p);
    const mpz_class big_p(std::to_string(p));
    for (int trial = 0; trial < hepex::test::cases(60); ++trial) {
      const RandomTree tree = random_tree(rng, 1 + trial % 6, names.size());
      const std::string text = write(tree, names, rng);
      SCOPED_TRACE("p=" + std::to_string(p) + ": " + text);
      Expression e = Expression::parse(text, names);
      std::vector<std::uint64_t> x(points * names.size());
      for (auto& v : x) v = rng() % 5 == 0 ? rng() % 3 : f.from_uint(rng());  // 0, 1, 2 often
      const auto box = hepex::reconstruct::expression_black_box({std::move(e)}, names.size());
      std::vector<std::uint64_t> out;
      std::vector<std::uint8_t> ok;
      box->evaluate(f, points, x, out, ok);
      ASSERT_EQ(ok.size(), points);
      for (std::size_t k = 0; k < points; ++k) {
        std::vector<mpz_class> at;
        for (std::size_t v = 0; v < names.size(); ++v)
          at.emplace_back(std::to_string(x[k * names.size() + v]));
        const auto want = evaluate(tree, big_p, at);
        ASSERT_EQ(ok[k] != 0, want.has_value()) << "point " << k;
        if (want) {
          EXPECT_EQ(std::to_string(out[k]), want->get_str()) << "point " << k;
          ++values;
        } else {
          ++zero_divisions;
        }
      }
    }
  }
  // Both outcomes occur (the small primes see zero divisors often).
  EXPECT_GT(values, 1000u);
  EXPECT_GT(zero_divisions, 10u);
}

TEST(Expression, DivisionByZeroIsReportedPerPoint) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const Zp64 f(1000003);
  const auto box = hepex::reconstruct::expression_black_box(
      {Expression::parse("1/(x - y) + x^-1", {"x", "y"})}, 2);
  std::vector<std::uint64_t> out;
  std::vector<std::uint8_t> ok;
  box->evaluate(f, 4, {2, 2, 3, 1, 0, 5, 1000002, 1}, out, ok);
  EXPECT_EQ(ok, (std::vector<std::uint8_t>{0, 1, 0, 1}));
  EXPECT_EQ(out[1], f.add(f.inv(2), f.inv(3)));
  EXPECT_EQ(out[3], f.add(f.inv(1000001), 1000002));
}

// '**' is '^' (Python's, sympy's and Fortran's spelling), '* *' is not.
TEST(Expression, DoubleStarIsPower) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const Zp64 f(1000003);
  const auto box = hepex::reconstruct::expression_black_box(
      {Expression::parse("x**3 - 2*y ** 2 + x**-1*y**(2)", {"x", "y"}),
       Expression::parse("x^3 - 2*y^2 + x^-1*y^(2)", {"x", "y"})},
      2);
  std::vector<std::uint64_t> out;
  std::vector<std::uint8_t> ok;
  box->evaluate(f, 2, {2, 5, 7, 1000002}, out, ok);
  ASSERT_EQ(ok, (std::vector<std::uint8_t>{1, 1}));
  EXPECT_EQ(out[0], out[1]);
  EXPECT_EQ(out[2], out[3]);
  EXPECT_EQ(out[0], f.add(f.sub(8, 50), f.mul(25, f.inv(2))));
}

TEST(Expression, MalformedInputNamesTheColumn) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "column 1: the expression is empty"},
      {"x +", "column 4: expected a number"},
      {"x * * y", "column 5: expected a number"},
      {"(x + y", "column 7: expected ')'"},
      {"x + z", "column 5: unknown variable 'z'"},
      {"2x", "column 2: a number followed by a name"},
      {"x^y", "column 3: expected an integer exponent"},
      {"x^2^3", "column 4: chained exponents"},
      {"x^99999999999999999999", "column 3: the exponent 99999999999999999999 does not fit"},
      {"x y", "column 3: expected an operator"},
      {"x # y", "column 3: expected an operator"},
      {"x^(2", "column 5: expected ')' to close the exponent"},
      {"x**2**3", "column 5: chained exponents"},
      {"x***2", "column 4: expected an integer exponent"},
      {"x* *2", "column 4: expected a number"},
  };
  for (const auto& [text, message] : cases) {
    try {
      Expression::parse(text, {"x", "y"});
      ADD_FAILURE() << "accepted: " << text;
    } catch (const hepex::Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos)
          << text << " -> " << e.what();
      EXPECT_EQ(e.exit_code(), 1);
    }
  }
}

TEST(Expression, DeepNestingIsRefusedNotTruncated) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::string deep = "x";
  for (int i = 0; i < 80; ++i) deep = "x+(" + deep + ")";
  EXPECT_THROW(Expression::parse(deep, {"x"}), hepex::Error);
  std::string shallow = "x";
  for (int i = 0; i < 80; ++i) shallow = "(" + shallow + ")+x";
  EXPECT_LE(Expression::parse(shallow, {"x"}).stack_depth(), 2u);
}

// Parentheses and signs nested 20000 deep are refused with a message (they
// used to overflow the parser's call stack); 1000 levels still parse.
TEST(Expression, NestingBeyondTheLimitIsAnErrorNotACrash) {
  const auto nested = [](std::size_t levels, const std::string& open, const std::string& close) {
    std::string text;
    for (std::size_t i = 0; i < levels; ++i) text += open;
    text += "x";
    for (std::size_t i = 0; i < levels; ++i) text += close;
    return text;
  };
  for (const auto& [open, close] : {std::pair<std::string, std::string>{"(", ")"}, {"-", ""}}) {
    SCOPED_TRACE("nesting '" + open + "'");
    EXPECT_NO_THROW(Expression::parse(nested(1000, open, close), {"x"}));
    try {
      Expression::parse(nested(20000, open, close), {"x"});
      ADD_FAILURE() << "20000 levels accepted";
    } catch (const hepex::Error& e) {
      EXPECT_NE(std::string(e.what()).find("nests more than 1000"), std::string::npos) << e.what();
      EXPECT_EQ(e.exit_code(), 1);
    }
  }
}

TEST(Expression, VariableLists) {
  SCOPED_TRACE(hepex::test::seed_trace());
  EXPECT_EQ(hepex::io::parse_variable_list("x,y_1,Z"), (std::vector<std::string>{"x", "y_1", "Z"}));
  EXPECT_THROW(hepex::io::parse_variable_list("x,,y"), hepex::Error);
  EXPECT_THROW(hepex::io::parse_variable_list("x,1y"), hepex::Error);
  EXPECT_THROW(hepex::io::parse_variable_list("x,y,x"), hepex::Error);
}

}  // namespace
