#pragma once
// hipBLAS under the names backends/gpu/vendor_gemm.cpp uses (the code shared
// by the CUDA and HIP builds).
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>

#include <cstdint>
#include <limits>

namespace hepex::backend::blas {

inline constexpr const char* library = "hipBLAS";
using Handle = hipblasHandle_t;
using Stream = hipStream_t;
using Status = hipblasStatus_t;
inline constexpr Status success = HIPBLAS_STATUS_SUCCESS;

inline Status create(Handle* h) { return hipblasCreate(h); }
inline Status destroy(Handle h) { return hipblasDestroy(h); }
inline Status set_stream(Handle h, Stream s) { return hipblasSetStream(h, s); }

// Column-major C = A B + beta C (no transposes).
inline Status dgemm(Handle h, int m, int n, int k, const double* a, int lda, const double* b,
                    int ldb, double beta, double* c, int ldc) {
  const double one = 1.0;
  return hipblasDgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, &one, a, lda, b, ldb, &beta, c, ldc);
}

// Column-major C_t = A_t^T B_t (A_t k x m, B_t k x n), int8 in, int32 sums.
inline Status int8_tn_batched(Handle h, int batch, int m, int n, int k, const std::int8_t* a,
                              int lda, long long stride_a, const std::int8_t* b, int ldb,
                              long long stride_b, std::int32_t* c, int ldc, long long stride_c) {
  const std::int32_t one = 1, zero = 0;
  return hipblasGemmStridedBatchedEx(h, HIPBLAS_OP_T, HIPBLAS_OP_N, m, n, k, &one, a, HIPBLAS_R_8I,
                                     lda, stride_a, b, HIPBLAS_R_8I, ldb, stride_b, &zero, c,
                                     HIPBLAS_R_32I, ldc, stride_c, batch, HIPBLAS_R_32I,
                                     HIPBLAS_GEMM_DEFAULT);
}
inline Status int8_tn(Handle h, int m, int n, int k, const std::int8_t* a, int lda,
                      const std::int8_t* b, int ldb, std::int32_t* c, int ldc) {
  return int8_tn_batched(h, 1, m, n, k, a, lda, 0, b, ldb, 0, c, ldc, 0);
}

// Not measured on an AMD GPU: every product in one strided-batched call.
inline constexpr long long int8_batched_up_to = std::numeric_limits<long long>::max();
inline constexpr int int8_panel_columns = std::numeric_limits<int>::max();

}  // namespace hepex::backend::blas
