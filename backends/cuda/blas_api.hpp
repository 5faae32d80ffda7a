#pragma once
// cuBLAS under the names backends/gpu/vendor_gemm.cpp uses (the code shared
// by the CUDA and HIP builds).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace hepex::backend::blas {

inline constexpr const char* library = "cuBLAS";
using Handle = cublasHandle_t;
using Stream = cudaStream_t;
using Status = cublasStatus_t;
inline constexpr Status success = CUBLAS_STATUS_SUCCESS;

inline Status create(Handle* h) { return cublasCreate(h); }
inline Status destroy(Handle h) { return cublasDestroy(h); }
inline Status set_stream(Handle h, Stream s) { return cublasSetStream(h, s); }

// Column-major C = A B + beta C (no transposes).
inline Status dgemm(Handle h, int m, int n, int k, const double* a, int lda, const double* b,
                    int ldb, double beta, double* c, int ldc) {
  const double one = 1.0;
  return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, lda, b, ldb, &beta, c, ldc);
}

// Column-major C_t = A_t^T B_t (A_t k x m, B_t k x n), int8 in, int32 sums.
inline Status int8_tn_batched(Handle h, int batch, int m, int n, int k, const std::int8_t* a,
                              int lda, long long stride_a, const std::int8_t* b, int ldb,
                              long long stride_b, std::int32_t* c, int ldc, long long stride_c) {
  const std::int32_t one = 1, zero = 0;
  return cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, a, CUDA_R_8I, lda,
                                    stride_a, b, CUDA_R_8I, ldb, stride_b, &zero, c, CUDA_R_32I,
                                    ldc, stride_c, batch, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
}
inline Status int8_tn(Handle h, int m, int n, int k, const std::int8_t* a, int lda,
                      const std::int8_t* b, int ldb, std::int32_t* c, int ldc) {
  const std::int32_t one = 1, zero = 0;
  return cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, a, CUDA_R_8I, lda, b, CUDA_R_8I,
                      ldb, &zero, c, CUDA_R_32I, ldc, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
}

// cuBLAS's int8 kernel choice is uneven across sizes. Measured on the H100
// (CUDA 13.0, ten products of n^3, random int8): at n = 2048 one
// strided-batched call took 0.17 ms, ten calls 0.27 ms (a single product has
// too few output tiles to fill the GPU); at 4096 and 8192 ten calls were
// faster (0.98 vs 1.23 ms, 7.9 vs 9.1 ms); at 16384 a single call ran at
// 790 T op/s, the batch at 1200, and products split into column panels 8192
// wide at 1550. Hence: products of up to 2048^2 entries batched, larger ones
// one call per panel of at most 8192 columns.
inline constexpr long long int8_batched_up_to = 2048LL * 2048;
inline constexpr int int8_panel_columns = 8192;

}  // namespace hepex::backend::blas
