// The host DGEMM: CBLAS (Debian: OpenBLAS through libopenblas-dev).
#include <cblas.h>

#include "hepex/backend/gemm.hpp"

namespace hepex::backend {

void host_dgemm(int m, int n, int k, const double* a, int lda, const double* b, int ldb,
                double beta, double* c, int ldc) {
  if (m == 0 || n == 0) return;
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, lda, b, ldb, beta, c,
              ldc);
}

}  // namespace hepex::backend
