// The host BLAS path through Kokkos Kernels (Debian: the system BLAS, which
// libopenblas-dev makes OpenBLAS) against a plain triple loop.
#include <gtest/gtest.h>

#include <KokkosBlas3_gemm.hpp>
#include <random>

#include "test_seed.hpp"

namespace {

TEST(HostBlas, GemmMatchesTripleLoop) {
  SCOPED_TRACE(hepex::test::seed_trace());
  using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  const int m = 67, k = 45, n = 31;
  Matrix a("a", m, k), b("b", k, n), c("c", m, n);
  std::mt19937_64 rng(hepex::test::seed());
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < k; ++j) a(i, j) = uniform(rng);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < n; ++j) b(i, j) = uniform(rng);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) c(i, j) = uniform(rng);
  Matrix expected("expected", m, n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = 0.5 * c(i, j);
      for (int l = 0; l < k; ++l) sum += 2.0 * a(i, l) * b(l, j);
      expected(i, j) = sum;
    }
  }
  KokkosBlas::gemm("N", "N", 2.0, a, b, 0.5, c);  // c = 2 a b + 0.5 c
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) ASSERT_NEAR(c(i, j), expected(i, j), 1e-12) << i << "," << j;
}

}  // namespace
