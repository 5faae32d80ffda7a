#pragma once
// The host implementations of the row-major products C = A B that every
// vendor's backend::dgemm / backend::int8_gemm uses for Backend::host.

#include <cstddef>
#include <cstdint>

namespace hepex::backend {

// double precision through CBLAS
void host_dgemm(int m, int n, int k, const double* a, int lda, const double* b, int ldb,
                double beta, double* c, int ldc);
// `batch` products C_t = A_t Bt_t^T with int8 entries, int32 sums (the
// layout of backend::int8_gemm)
void host_int8_gemm(int batch, int m, int n, int k, const std::int8_t* a, int lda,
                    std::ptrdiff_t stride_a, const std::int8_t* bt, int ldbt,
                    std::ptrdiff_t stride_bt, std::int32_t* c, int ldc, std::ptrdiff_t stride_c);

}  // namespace hepex::backend
