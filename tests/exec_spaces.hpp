#pragma once
// The distinct execution spaces this build enables, for tests typed over
// them: as the API's Backends (hepex::Place::host/device) with their Kokkos
// names for value-parameterized tests, and as Kokkos types for typed tests
// of code templated on the execution space.
//
//   Serial-only build (CI):     {host: "Serial"}
//   Cuda + OpenMP + Serial:     {device: "Cuda", host: "OpenMP"}, and for the
//                               typed tests Serial too (EnabledSpaces)
//
// hepex::DeviceSpace is the host space in a build without an accelerator;
// it is then listed once, so no space runs twice. Each test case's name ends
// in its space ("On/RrefOnSpace.Zp32MatchesFlint/Serial",
// "RamboOnSpace/Cuda.MomentaAreConserved"): --gtest_filter='*Cuda*' runs (and
// counts) the cases of one space.
//
// Value-parameterized:
//   class RrefOnSpace : public hepex::test::OnSpace {};
//   TEST_P(RrefOnSpace, Something) { ... backend() ... }
//   HEPEX_TEST_ON_SPACES(RrefOnSpace);
// Typed (device code; functors, not lambdas in the test body: CUDA's
// extended lambdas may not sit in gtest's private TestBody):
//   template <class> class RamboOnSpace : public ::testing::Test {};
//   TYPED_TEST_SUITE(RamboOnSpace, hepex::test::EnabledSpaces, hepex::test::SpaceNames);
//   TYPED_TEST(RamboOnSpace, Something) { using Space = TypeParam; ... }

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "hepex/core/spaces.hpp"

namespace hepex::test {

struct SpaceParam {
  Place backend;
  std::string name;  // the Kokkos execution space's name: Serial, OpenMP, Cuda, HIP...
};

inline std::ostream& operator<<(std::ostream& out, const SpaceParam& s) {
  return out << s.name << " (" << place_name(s.backend) << ")";
}

// The device first (when there is one), then the host.
inline std::vector<SpaceParam> enabled_spaces() {
  std::vector<SpaceParam> spaces;
  if (has_accelerator) spaces.push_back({Place::device, DeviceSpace::name()});
  spaces.push_back({Place::host, HostSpace::name()});
  return spaces;
}

// The test-name suffix: the Kokkos name.
inline std::string space_name(const ::testing::TestParamInfo<SpaceParam>& info) {
  return info.param.name;
}

// Calls f(space) with an instance of the execution space that `backend` runs on.
template <class F>
decltype(auto) with_space(Place backend, F&& f) {
  if (backend == Place::device) return f(DeviceSpace());
  return f(HostSpace());
}

class OnSpace : public ::testing::TestWithParam<SpaceParam> {
 protected:
  Place backend() const { return GetParam().backend; }
  // "on Serial" for failure messages.
  std::string where() const { return "on " + GetParam().name; }
};

// The Kokkos execution space types, distinct, device first: the default
// device space, the default host space, and Serial where the build enables it
// beside another host space (an OpenMP + Serial build): code templated on the
// execution space runs on each, although the Place-based API reaches only
// the first two.
namespace detail {
template <class List, class Space, bool add>
struct Append {
  using type = List;
};
template <class... Spaces, class Space>
struct Append<::testing::Types<Spaces...>, Space, true> {
  using type = ::testing::Types<Spaces..., Space>;
};
using DeviceAndHost = std::conditional_t<has_accelerator, ::testing::Types<DeviceSpace, HostSpace>,
                                         ::testing::Types<HostSpace>>;
#ifdef KOKKOS_ENABLE_SERIAL
using WithSerial = typename Append<DeviceAndHost, Kokkos::Serial,
                                   !std::is_same<Kokkos::Serial, HostSpace>::value &&
                                       !std::is_same<Kokkos::Serial, DeviceSpace>::value>::type;
#else
using WithSerial = DeviceAndHost;
#endif
}  // namespace detail
using EnabledSpaces = detail::WithSerial;

// Typed tests named by their space.
struct SpaceNames {
  template <class Space>
  static std::string GetName(int) {
    return Space::name();
  }
};

}  // namespace hepex::test

#define HEPEX_TEST_ON_SPACES(Suite)                                                         \
  INSTANTIATE_TEST_SUITE_P(On, Suite, ::testing::ValuesIn(::hepex::test::enabled_spaces()), \
                           ::hepex::test::space_name)
