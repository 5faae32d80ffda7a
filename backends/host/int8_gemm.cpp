// The host int8 GEMM: plain loops with int32 sums (no vendor library offers
// int8 x int8 -> int32 on the host): dot products of contiguous rows, which
// the compiler vectorises.
#include <cstdint>

#include "hepex/backend/gemm.hpp"

namespace hepex::backend {

void host_int8_gemm(int batch, int m, int n, int k, const std::int8_t* a, int lda,
                    std::ptrdiff_t stride_a, const std::int8_t* bt, int ldbt,
                    std::ptrdiff_t stride_bt, std::int32_t* c, int ldc, std::ptrdiff_t stride_c) {
  for (int t = 0; t < batch; ++t) {
    for (int i = 0; i < m; ++i) {
      const std::int8_t* arow = a + t * stride_a + static_cast<std::ptrdiff_t>(i) * lda;
      for (int j = 0; j < n; ++j) {
        const std::int8_t* brow = bt + t * stride_bt + static_cast<std::ptrdiff_t>(j) * ldbt;
        std::int32_t sum = 0;
        for (int l = 0; l < k; ++l) sum += static_cast<std::int32_t>(arow[l]) * brow[l];
        c[t * stride_c + static_cast<std::ptrdiff_t>(i) * ldc + j] = sum;
      }
    }
  }
}

}  // namespace hepex::backend
