// Host builds: host and "device" are the same memory: the host products.
#include "hepex/linalg/modgemm.hpp"
#include "dgemm.hpp"

namespace hepex::backend {

void dgemm(Backend, int m, int n, int k, const double* a, int lda, const double* b, int ldb,
           double* c, int ldc) {
  host_dgemm(m, n, k, a, lda, b, ldb, c, ldc);
}

void int8_gemm(Backend, int m, int n, int k, const std::int8_t* a, int lda,
               const std::int8_t* bt, int ldbt, std::int32_t* c, int ldc) {
  host_int8_gemm(m, n, k, a, lda, bt, ldbt, c, ldc);
}

}  // namespace hepex::backend
