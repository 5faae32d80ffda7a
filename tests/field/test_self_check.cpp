// The demo's self-check passes on every enabled execution space and reports
// every field.
#include <gtest/gtest.h>

#include "exec_spaces.hpp"
#include "hepex/field/self_check.hpp"
#include "test_seed.hpp"

namespace {

class SelfCheckOnSpace : public hepex::test::OnSpace {};

TEST_P(SelfCheckOnSpace, Passes) {
  SCOPED_TRACE(hepex::test::seed_trace());
  {
    const auto rows = hepex::field::self_check(backend(), 20000, hepex::test::seed());
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0].field, "Zp32");
    EXPECT_EQ(rows[0].parameter, "p = 2147483647");
    EXPECT_EQ(rows[1].parameter, "p = 9223372036854775783");
    for (const auto& row : rows) {
      EXPECT_EQ(row.cases, 20000u) << row.field;
      EXPECT_EQ(row.failures, 0u) << row.field << " " << where();
      EXPECT_GT(row.seconds, 0.0);
    }
  }
}

HEPEX_TEST_ON_SPACES(SelfCheckOnSpace);

}  // namespace
