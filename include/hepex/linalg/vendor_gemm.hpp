#pragma once
// The vendor products the modular methods are built on, implemented once per
// backend in backends/<vendor>/dgemm.cpp (cuBLAS, hipBLAS, or the host code).

#include <cstddef>
#include <cstdint>

#include "hepex/core/spaces.hpp"

namespace hepex::backend {

// Row-major C = A B + beta C in double precision on the device
// (cuBLAS/hipBLAS) or the host (CBLAS); A is m x k with row stride lda, B
// k x n (ldb), C m x n (ldc). beta = 0 ignores C's contents.
void dgemm(Backend where, int m, int n, int k, const double* a, int lda, const double* b, int ldb,
           double beta, double* c, int ldc);

// `batch` row-major products C_t = A_t Bt_t^T with int8 entries and exact
// int32 sums (the caller keeps every |sum| below 2^31): A_t is m x k, Bt_t is
// n x k, so both operands have k contiguous (the "TN" layout of the integer
// tensor-core kernels); A_t = a + t * stride_a and likewise for Bt_t and C_t.
// On the device: cuBLAS GemmEx (batched for small products, per column panel
// for large ones) or hipBLAS strided-batched GemmEx, given sizes and leading
// dimensions that are multiples of 16.
void int8_gemm(Backend where, int batch, int m, int n, int k, const std::int8_t* a, int lda,
               std::ptrdiff_t stride_a, const std::int8_t* bt, int ldbt, std::ptrdiff_t stride_bt,
               std::int32_t* c, int ldc, std::ptrdiff_t stride_c);

}  // namespace hepex::backend
