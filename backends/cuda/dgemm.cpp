// CUDA builds: cuBLAS for device memory (DGEMM; int8 GemmEx), the host
// products for host memory.
#include "dgemm.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "hepex/core/error.hpp"
#include "hepex/linalg/vendor_gemm.hpp"

namespace hepex::backend {

namespace {
void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw Error(std::string("cuBLAS: ") + what + " failed (status " +
                    std::to_string(static_cast<int>(status)) + ")",
                ErrorKind::runtime);
  }
}

cublasHandle_t handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t created = nullptr;
    check(cublasCreate(&created), "cublasCreate");
    return created;
  }();
  return h;
}
}  // namespace

void dgemm(Backend where, int m, int n, int k, const double* a, int lda, const double* b, int ldb,
           double beta, double* c, int ldc) {
  if (where == Backend::host) {
    host_dgemm(m, n, k, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  if (m == 0 || n == 0) return;
  // Row-major C = A B is column-major C^T = B^T A^T.
  const double one = 1.0;
  check(
      cublasDgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, ldb, a, lda, &beta, c, ldc),
      "cublasDgemm");
  if (cudaDeviceSynchronize() != cudaSuccess) {
    throw Error("CUDA: synchronisation after cublasDgemm failed", ErrorKind::runtime);
  }
}

void int8_gemm(Backend where, int batch, int m, int n, int k, const std::int8_t* a, int lda,
               std::ptrdiff_t stride_a, const std::int8_t* bt, int ldbt, std::ptrdiff_t stride_bt,
               std::int32_t* c, int ldc, std::ptrdiff_t stride_c) {
  if (where == Backend::host) {
    host_int8_gemm(batch, m, n, k, a, lda, stride_a, bt, ldbt, stride_bt, c, ldc, stride_c);
    return;
  }
  if (m == 0 || n == 0 || batch == 0) return;
  // Row-major C = A Bt^T is column-major C^T = Bt A^T: Bt (column-major
  // k x n) transposed, A^T (column-major k x m) as is: the TN form the
  // integer tensor-core kernels take; int32 sums.
  // cuBLAS's kernel choice is uneven across sizes. Measured on the H100
  // (CUDA 13.0, ten products of n^3, random int8): at n = 2048 one
  // strided-batched call took 0.17 ms, ten calls 0.27 ms (a single product
  // has too few output tiles to fill the GPU); at 4096 and 8192 ten calls
  // were faster (0.98 vs 1.23 ms, 7.9 vs 9.1 ms); at 16384 a single call ran
  // at 790 T op/s, the batch at 1200, and products split into column panels
  // 8192 wide at 1550. Hence: small products batched, large ones one call per
  // panel of at most 8192 columns.
  const std::int32_t one = 1, zero = 0;
  constexpr long long batched_below = 2048LL * 2048 + 1, panel = 8192;
  if (static_cast<long long>(m) * n < batched_below) {
    check(cublasGemmStridedBatchedEx(handle(), CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, bt,
                                     CUDA_R_8I, ldbt, stride_bt, a, CUDA_R_8I, lda, stride_a, &zero,
                                     c, CUDA_R_32I, ldc, stride_c, batch, CUBLAS_COMPUTE_32I,
                                     CUBLAS_GEMM_DEFAULT),
          "cublasGemmStridedBatchedEx (int8)");
  } else {
    for (int t = 0; t < batch; ++t) {
      for (int j = 0; j < n; j += panel) {
        const int width = static_cast<int>(std::min<long long>(panel, n - j));
        check(cublasGemmEx(handle(), CUBLAS_OP_T, CUBLAS_OP_N, width, m, k, &one,
                           bt + t * stride_bt + static_cast<std::ptrdiff_t>(j) * ldbt, CUDA_R_8I,
                           ldbt, a + t * stride_a, CUDA_R_8I, lda, &zero, c + t * stride_c + j,
                           CUDA_R_32I, ldc, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT),
              "cublasGemmEx (int8)");
      }
    }
  }
  if (cudaDeviceSynchronize() != cudaSuccess) {
    throw Error("CUDA: synchronisation after the int8 GEMM failed", ErrorKind::runtime);
  }
}

}  // namespace hepex::backend
