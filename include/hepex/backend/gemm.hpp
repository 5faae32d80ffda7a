#pragma once
// The vendor products the modular methods and the ME's BLAS colour sum are
// built on: cuBLAS / hipBLAS for device memory, CBLAS (int8: plain loops) for
// host memory. Each product runs on the caller's execution-space instance:
// on the device it is enqueued on the instance's stream (one vendor handle per
// stream, backends/gpu/vendor_gemm.cpp), ordered after the work already on
// that instance and before the work that follows, with no device-wide
// synchronisation; on the host it runs once the instance's work is done.

#include <cstddef>
#include <cstdint>

#include "hepex/core/spaces.hpp"

namespace hepex::backend {

// The host products (backends/host/): row-major C = A B + beta C through
// CBLAS; A is m x k with row stride lda, B k x n (ldb), C m x n (ldc);
// beta = 0 ignores C's contents.
void host_dgemm(int m, int n, int k, const double* a, int lda, const double* b, int ldb,
                double beta, double* c, int ldc);
// `batch` row-major products C_t = A_t Bt_t^T with int8 entries and exact
// int32 sums (the caller keeps every |sum| below 2^31): A_t is m x k, Bt_t is
// n x k, so both operands have k contiguous (the "TN" layout of the integer
// tensor-core kernels); A_t = a + t * stride_a and likewise for Bt_t and C_t.
void host_int8_gemm(int batch, int m, int n, int k, const std::int8_t* a, int lda,
                    std::ptrdiff_t stride_a, const std::int8_t* bt, int ldbt,
                    std::ptrdiff_t stride_bt, std::int32_t* c, int ldc, std::ptrdiff_t stride_c);

// The same products on the device, on `space`'s stream; defined only in
// builds with an accelerator. The int8 product takes sizes and leading
// dimensions that are multiples of 16.
void device_dgemm(const DeviceSpace& space, int m, int n, int k, const double* a, int lda,
                  const double* b, int ldb, double beta, double* c, int ldc);
void device_int8_gemm(const DeviceSpace& space, int batch, int m, int n, int k,
                      const std::int8_t* a, int lda, std::ptrdiff_t stride_a, const std::int8_t* bt,
                      int ldbt, std::ptrdiff_t stride_bt, std::int32_t* c, int ldc,
                      std::ptrdiff_t stride_c);
// What the device products use ("cuBLAS", "hipBLAS", "Kokkos kernels").
const char* device_gemm_library();

// True when `ExecSpace`'s memory is host memory (the host products apply).
template <class ExecSpace>
inline constexpr bool runs_on_host =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

// C = A B + beta C on `space`, operands in its memory.
template <class ExecSpace>
void dgemm(const ExecSpace& space, int m, int n, int k, const double* a, int lda, const double* b,
           int ldb, double beta, double* c, int ldc) {
  if constexpr (runs_on_host<ExecSpace>) {
    space.fence();  // the operands may still be written by `space`'s kernels
    host_dgemm(m, n, k, a, lda, b, ldb, beta, c, ldc);
  } else {
    device_dgemm(space, m, n, k, a, lda, b, ldb, beta, c, ldc);
  }
}

// The int8 products C_t = A_t Bt_t^T on `space`, operands in its memory.
template <class ExecSpace>
void int8_gemm(const ExecSpace& space, int batch, int m, int n, int k, const std::int8_t* a,
               int lda, std::ptrdiff_t stride_a, const std::int8_t* bt, int ldbt,
               std::ptrdiff_t stride_bt, std::int32_t* c, int ldc, std::ptrdiff_t stride_c) {
  if constexpr (runs_on_host<ExecSpace>) {
    space.fence();
    host_int8_gemm(batch, m, n, k, a, lda, stride_a, bt, ldbt, stride_bt, c, ldc, stride_c);
  } else {
    device_int8_gemm(space, batch, m, n, k, a, lda, stride_a, bt, ldbt, stride_bt, c, ldc,
                     stride_c);
  }
}

}  // namespace hepex::backend
