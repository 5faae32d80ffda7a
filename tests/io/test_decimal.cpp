// Decimal numbers as the user types them (io/decimal.hpp): every finite
// double is taken as strtod reads it, and what is not one is named exactly
// (issue 36: 1e-400 was called "not finite").
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "hepex/io/decimal.hpp"
#include "test_seed.hpp"

namespace {

using hepex::io::parse_decimal;

std::string problem(const std::string& text) {
  const auto d = parse_decimal(text);
  return d.problem != nullptr ? d.problem : "";
}

TEST(Decimal, NamesWhatIsWrong) {
  EXPECT_EQ(problem("1e-400"), "is below the smallest double (about 4.9e-324) and would be 0");
  EXPECT_EQ(problem("-1e-400"), "is below the smallest double (about 4.9e-324) and would be 0");
  EXPECT_EQ(problem("1e400"), "is beyond the largest double (about 1.8e308)");
  EXPECT_EQ(problem("-1e400"), "is beyond the largest double (about 1.8e308)");
  EXPECT_EQ(problem("inf"), "is infinite, not a finite number");
  EXPECT_EQ(problem("nan"), "is NaN, not a finite number");
  for (const char* bad : {"", "x", "1.5x", " 1", "1 ", "--1", "0x"}) {
    EXPECT_EQ(problem(bad), "is not a number") << "'" << bad << "'";
  }
}

TEST(Decimal, TakesEveryFiniteDoubleAsStrtodDoes) {
  SCOPED_TRACE(hepex::test::seed_trace());
  for (const char* good :
       {"0", "-0", "1", "1e-310", "4.9e-324", "1.7976931348623157e308", "+2.5", "0x1p-3"}) {
    const auto d = parse_decimal(good);
    EXPECT_EQ(d.problem, nullptr) << good;
    EXPECT_EQ(d.value, std::strtod(good, nullptr)) << good;
  }
  std::mt19937_64 rng(hepex::test::seed());
  for (int i = 0; i < 10000; ++i) {
    double x = 0;
    const std::uint64_t bits = rng();
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x)) continue;
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", x);
    const auto d = parse_decimal(text);
    ASSERT_EQ(d.problem, nullptr) << text;
    ASSERT_EQ(d.value, x) << text;
  }
}

}  // namespace
