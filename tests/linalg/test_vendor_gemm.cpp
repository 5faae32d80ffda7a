// The vendor products (hepex/backend/gemm.hpp) on execution-space
// instances: operands written by a kernel on the instance, the product, and a
// kernel reading it, with no fence between them, on several instances at
// once; every entry against plain loops on the host (small integers, so the
// double products are exact).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "exec_spaces.hpp"
#include "hepex/backend/gemm.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/spaces.hpp"
#include "test_seed.hpp"

namespace {

// A small integer in [-range, range] from (seed, stream, index): the same on
// the host (reference) and in kernels.
KOKKOS_INLINE_FUNCTION std::int64_t entry(std::uint64_t seed, int stream, std::int64_t index,
                                          int range) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (std::uint64_t(stream) * 1000003u + index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<std::int64_t>(z % std::uint64_t(2 * range + 1)) - range;
}

template <class T, class Space>
Kokkos::View<T*, typename Space::memory_space> filled(const Space& space, std::int64_t size,
                                                      std::uint64_t seed, int stream, int range) {
  Kokkos::View<T*, typename Space::memory_space> v(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "operand"), size);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(space, 0, size),
      KOKKOS_LAMBDA(std::int64_t i) { v(i) = static_cast<T>(entry(seed, stream, i, range)); });
  return v;
}

template <class Space>
void check_dgemm(const char* name) {
  const std::uint64_t seed = hepex::test::seed();
  SCOPED_TRACE(std::string(name) + " " + hepex::test::seed_trace());
  const int m = 37, n = 53, k = 29, streams = 4;
  auto instances = hepex::compat::partition_instances(Space(), streams);
  std::vector<Kokkos::View<double*, typename Space::memory_space>> results;
  for (int s = 0; s < streams; ++s) {
    const auto& space = instances[s];
    auto a = filled<double>(space, m * k, seed, 3 * s, 100);
    auto b = filled<double>(space, k * n, seed, 3 * s + 1, 100);
    auto c = filled<double>(space, m * n, seed, 3 * s + 2, 100);
    const double beta = s % 2 == 0 ? 1.0 : 0.0;  // beta = 0 must ignore C
    hepex::backend::dgemm(space, m, n, k, a.data(), k, b.data(), n, beta, c.data(), n);
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Space>(space, 0, m * n), KOKKOS_LAMBDA(int i) { c(i) = 2 * c(i) + 1; });
    results.push_back(c);
  }
  for (auto& space : instances) space.fence();
  for (int s = 0; s < streams; ++s) {
    auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), results[s]);
    int wrong = 0;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        double sum = s % 2 == 0 ? double(entry(seed, 3 * s + 2, i * n + j, 100)) : 0.0;
        for (int l = 0; l < k; ++l) {
          sum += double(entry(seed, 3 * s, i * k + l, 100)) *
                 double(entry(seed, 3 * s + 1, l * n + j, 100));
        }
        if (got(i * n + j) != 2 * sum + 1 && ++wrong <= 3) {
          ADD_FAILURE() << "instance " << s << " C(" << i << ", " << j << ") = " << got(i * n + j)
                        << ", expected " << 2 * sum + 1;
        }
      }
    }
    EXPECT_EQ(wrong, 0) << "instance " << s;
  }
}

// m x n products of depth k, `batch` of them, int8 operands in the TN layout.
template <class Space>
void check_int8_gemm(const char* name, int batch, int m, int n, int k) {
  const std::uint64_t seed = hepex::test::seed();
  SCOPED_TRACE(std::string(name) + " " + hepex::test::seed_trace() + " batch " +
               std::to_string(batch) + ", " + std::to_string(m) + " x " + std::to_string(n) +
               " x " + std::to_string(k));
  const int streams = 3;
  const std::int64_t sa = std::int64_t(m) * k, sb = std::int64_t(n) * k, sc = std::int64_t(m) * n;
  auto instances = hepex::compat::partition_instances(Space(), streams);
  std::vector<Kokkos::View<std::int32_t*, typename Space::memory_space>> results;
  for (int s = 0; s < streams; ++s) {
    const auto& space = instances[s];
    auto a = filled<std::int8_t>(space, batch * sa, seed, 2 * s, 127);
    auto bt = filled<std::int8_t>(space, batch * sb, seed, 2 * s + 1, 127);
    Kokkos::View<std::int32_t*, typename Space::memory_space> c("c", batch * sc);
    hepex::backend::int8_gemm(space, batch, m, n, k, a.data(), k, sa, bt.data(), k, sb, c.data(), n,
                              sc);
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Space>(space, 0, batch * sc),
        KOKKOS_LAMBDA(std::int64_t i) { c(i) = -c(i); });
    results.push_back(c);
  }
  for (auto& space : instances) space.fence();
  for (int s = 0; s < streams; ++s) {
    auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), results[s]);
    int wrong = 0;
    for (int t = 0; t < batch; ++t) {
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          std::int32_t sum = 0;
          for (int l = 0; l < k; ++l) {
            sum += std::int32_t(entry(seed, 2 * s, t * sa + std::int64_t(i) * k + l, 127)) *
                   std::int32_t(entry(seed, 2 * s + 1, t * sb + std::int64_t(j) * k + l, 127));
          }
          const std::int32_t value = got(t * sc + std::int64_t(i) * n + j);
          if (value != -sum && ++wrong <= 3) {
            ADD_FAILURE() << "instance " << s << " C_" << t << "(" << i << ", " << j
                          << ") = " << value << ", expected " << -sum;
          }
        }
      }
    }
    EXPECT_EQ(wrong, 0) << "instance " << s;
  }
}

template <class>
class VendorGemmOnSpace : public ::testing::Test {};
TYPED_TEST_SUITE(VendorGemmOnSpace, hepex::test::EnabledSpaces, hepex::test::SpaceNames);

TYPED_TEST(VendorGemmOnSpace, DgemmOnInstances) { check_dgemm<TypeParam>(TypeParam::name()); }

TYPED_TEST(VendorGemmOnSpace, Int8GemmOnInstances) {
  check_int8_gemm<TypeParam>(TypeParam::name(), 3, 48, 32, 64);
  if constexpr (!hepex::backend::runs_on_host<TypeParam>) {
    // m n > 2048^2: on CUDA split into 8192-column panels (33, the last 16 wide)
    check_int8_gemm<TypeParam>(TypeParam::name(), 2, 16, 262160, 32);
  }
}

}  // namespace
