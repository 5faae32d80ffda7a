// Runtime, build information, backends, errors and the Kokkos compat layer.
#include <gtest/gtest.h>

#include <regex>

#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/traits.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::test {
// Kernels live in free functions: nvcc rejects extended lambdas inside
// GoogleTest's private TestBody().
double compat_math_on_device() {
  double result = 0;
  Kokkos::parallel_reduce(
      "compat", Kokkos::RangePolicy<hepex::DeviceSpace>(0, 4),
      KOKKOS_LAMBDA(const int i, double& sum) {
        sum += hepex::compat::fabs(-1.5 * i) + hepex::compat::sqrt(4.0 * i * i);
      },
      result);
  return result;
}
}  // namespace hepex::test

namespace {

TEST(Runtime, VersionLineHasTheDocumentedShape) {
  const std::string line = hepex::version_line();
  EXPECT_TRUE(std::regex_match(
      line, std::regex(R"(hepex \d+\.\d+\.\d+ \(Kokkos \d+\.\d+\.\d+; backends: [A-Za-z, ]+\))")))
      << line;
}

TEST(Runtime, BuildInfoNamesTheDefaultSpaceAmongTheEnabledOnes) {
  const auto info = hepex::build_info();
  EXPECT_EQ(info.kokkos_version, std::to_string(KOKKOS_VERSION / 10000) + "." +
                                     std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
                                     std::to_string(KOKKOS_VERSION % 100));
  bool found = false;
  for (const auto& s : info.exec_spaces) found = found || s == info.default_space;
  EXPECT_TRUE(found) << info.default_space;
}

TEST(Runtime, DevicesReportNamesAndMemory) {
  const auto devices = hepex::devices();
  ASSERT_FALSE(devices.empty());
  for (const auto& d : devices) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_GT(d.memory_bytes, std::size_t{1} << 26) << d.name;
  }
}

TEST(Spaces, ParseBackend) {
  EXPECT_EQ(hepex::parse_place("host"), hepex::Place::host);
  EXPECT_EQ(hepex::parse_place("device"), hepex::Place::device);
  EXPECT_THROW(hepex::parse_place("gpu"), hepex::Error);
  EXPECT_STREQ(hepex::place_name(hepex::Place::device), "device");
}

TEST(Error, KindFixesTheExitCode) {
  EXPECT_EQ(hepex::Error("x").exit_code(), 1);
  EXPECT_EQ(hepex::Error("x", hepex::ErrorKind::runtime).exit_code(), 2);
  EXPECT_EQ(hepex::Error("x", hepex::ErrorKind::negative_answer).exit_code(), 3);
}

TEST(KokkosCompat, MathFunctionsOnTheDevice) {
  EXPECT_DOUBLE_EQ(hepex::test::compat_math_on_device(), (1.5 + 2.0) * (0 + 1 + 2 + 3));
  EXPECT_GE(hepex::compat::concurrency<hepex::DeviceSpace>(), 1);
}

static_assert(hepex::field::is_field_v<hepex::field::Zp32>);
static_assert(hepex::field::is_field_v<hepex::field::Zp64>);
static_assert(hepex::field::is_field_v<hepex::field::Real64>);
static_assert(hepex::field::is_field_v<hepex::field::Real32>);
static_assert(hepex::field::is_field_v<hepex::field::Complex128>);
static_assert(hepex::field::is_field_v<hepex::field::Complex64>);
static_assert(!hepex::field::is_field_v<double>);

}  // namespace
