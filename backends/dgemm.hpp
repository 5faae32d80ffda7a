#pragma once
// Row-major C = A B in double precision: the host implementation (CBLAS),
// which every vendor's backend::dgemm uses for Backend::host.

namespace hepex::backend {

void host_dgemm(int m, int n, int k, const double* a, int lda, const double* b, int ldb,
                double* c, int ldc);

}  // namespace hepex::backend
