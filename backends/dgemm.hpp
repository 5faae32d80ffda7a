#pragma once
// The host implementations of the row-major products C = A B that every
// vendor's backend::dgemm / backend::int8_gemm uses for Backend::host.

#include <cstdint>

namespace hepex::backend {

// double precision through CBLAS
void host_dgemm(int m, int n, int k, const double* a, int lda, const double* b, int ldb,
                double* c, int ldc);
// C = A Bt^T with int8 entries, int32 sums
void host_int8_gemm(int m, int n, int k, const std::int8_t* a, int lda, const std::int8_t* bt,
                    int ldbt, std::int32_t* c, int ldc);

}  // namespace hepex::backend
