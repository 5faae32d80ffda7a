// Host builds: host and "device" are the same memory, so both use CBLAS.
#include "hepex/linalg/modgemm.hpp"
#include "dgemm.hpp"

namespace hepex::backend {

void dgemm(Backend, int m, int n, int k, const double* a, int lda, const double* b, int ldb,
           double* c, int ldc) {
  host_dgemm(m, n, k, a, lda, b, ldb, c, ldc);
}

}  // namespace hepex::backend
