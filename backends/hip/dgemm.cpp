// HIP builds: hipBLAS for device memory (DGEMM; int8 GemmEx), the host
// products for host memory.
#include "dgemm.hpp"

#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>

#include <string>

#include "hepex/core/error.hpp"
#include "hepex/linalg/vendor_gemm.hpp"

namespace hepex::backend {

namespace {
void check(hipblasStatus_t status, const char* what) {
  if (status != HIPBLAS_STATUS_SUCCESS) {
    throw Error(std::string("hipBLAS: ") + what + " failed (status " +
                    std::to_string(static_cast<int>(status)) + ")",
                ErrorKind::runtime);
  }
}

hipblasHandle_t handle() {
  static hipblasHandle_t h = [] {
    hipblasHandle_t created = nullptr;
    check(hipblasCreate(&created), "hipblasCreate");
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
  check(hipblasDgemm(handle(), HIPBLAS_OP_N, HIPBLAS_OP_N, n, m, k, &one, b, ldb, a, lda, &beta, c,
                     ldc),
        "hipblasDgemm");
  if (hipDeviceSynchronize() != hipSuccess) {
    throw Error("HIP: synchronisation after hipblasDgemm failed", ErrorKind::runtime);
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
  const std::int32_t one = 1, zero = 0;
  check(hipblasGemmStridedBatchedEx(handle(), HIPBLAS_OP_T, HIPBLAS_OP_N, n, m, k, &one, bt,
                                    HIPBLAS_R_8I, ldbt, stride_bt, a, HIPBLAS_R_8I, lda, stride_a,
                                    &zero, c, HIPBLAS_R_32I, ldc, stride_c, batch, HIPBLAS_R_32I,
                                    HIPBLAS_GEMM_DEFAULT),
        "hipblasGemmStridedBatchedEx (int8)");
  if (hipDeviceSynchronize() != hipSuccess) {
    throw Error("HIP: synchronisation after the int8 GEMM failed", ErrorKind::runtime);
  }
}

}  // namespace hepex::backend
