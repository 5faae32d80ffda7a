// Host builds: host and "device" are the same memory: the host products.
#include "dgemm.hpp"

#include "hepex/linalg/vendor_gemm.hpp"

namespace hepex::backend {

void dgemm(Backend, int m, int n, int k, const double* a, int lda, const double* b, int ldb,
           double beta, double* c, int ldc) {
  host_dgemm(m, n, k, a, lda, b, ldb, beta, c, ldc);
}

void int8_gemm(Backend, int batch, int m, int n, int k, const std::int8_t* a, int lda,
               std::ptrdiff_t stride_a, const std::int8_t* bt, int ldbt, std::ptrdiff_t stride_bt,
               std::int32_t* c, int ldc, std::ptrdiff_t stride_c) {
  host_int8_gemm(batch, m, n, k, a, lda, stride_a, bt, ldbt, stride_bt, c, ldc, stride_c);
}

}  // namespace hepex::backend
