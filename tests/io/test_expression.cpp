// The expression parser and its evaluation kernel: values mod p against GMP
// evaluation of the same expressions written as rationals, division by zero
// reported per point, and malformed input rejected with its column.
#include <gmpxx.h>
#include <gtest/gtest.h>

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
