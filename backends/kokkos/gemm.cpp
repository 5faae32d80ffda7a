// Any device without a vendor BLAS (HIP builds without hipBLAS: Debian 12
// packages HIP but not hipBLAS; or HEPEX_DEVICE_GEMM=kokkos): the device
// products of hepex/backend/gemm.hpp as plain Kokkos kernels on the caller's
// instance, one thread per entry of C. They are exact and portable but far
// from the vendor's speed; build with the vendor's BLAS for production (the
// CMake configuration says which one it took).
#include <Kokkos_Core.hpp>

#include "hepex/backend/gemm.hpp"

namespace hepex::backend {

const char* device_gemm_library() { return "plain Kokkos kernels (no vendor BLAS)"; }

void device_dgemm(const DeviceSpace& space, int m, int n, int k, const double* a, int lda,
                  const double* b, int ldb, double beta, double* c, int ldc) {
  if (m == 0 || n == 0) return;
  Kokkos::parallel_for(
      "hepex::dgemm_kokkos",
      Kokkos::MDRangePolicy<DeviceSpace, Kokkos::Rank<2>>(space, {0, 0}, {m, n}),
      KOKKOS_LAMBDA(int i, int j) {
        double sum = 0;
        for (int p = 0; p < k; ++p) sum += a[i * lda + p] * b[p * ldb + j];
        // beta = 0 ignores C, which may hold anything (as BLAS does)
        c[i * ldc + j] = beta == 0 ? sum : sum + beta * c[i * ldc + j];
      });
}

void device_int8_gemm(const DeviceSpace& space, int batch, int m, int n, int k,
                      const std::int8_t* a, int lda, std::ptrdiff_t stride_a, const std::int8_t* bt,
                      int ldbt, std::ptrdiff_t stride_bt, std::int32_t* c, int ldc,
                      std::ptrdiff_t stride_c) {
  if (m == 0 || n == 0 || batch == 0) return;
  Kokkos::parallel_for(
      "hepex::int8_gemm_kokkos",
      Kokkos::MDRangePolicy<DeviceSpace, Kokkos::Rank<3>>(space, {0, 0, 0}, {batch, m, n}),
      KOKKOS_LAMBDA(int t, int i, int j) {
        const std::int8_t* row = a + t * stride_a + std::ptrdiff_t(i) * lda;
        const std::int8_t* column = bt + t * stride_bt + std::ptrdiff_t(j) * ldbt;
        std::int32_t sum = 0;
        for (int p = 0; p < k; ++p) sum += std::int32_t(row[p]) * std::int32_t(column[p]);
        c[t * stride_c + std::ptrdiff_t(i) * ldc + j] = sum;
      });
}

}  // namespace hepex::backend
