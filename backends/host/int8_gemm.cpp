// The host int8 GEMM: plain loops with int32 sums (no vendor library offers
// int8 x int8 -> int32 on the host); row order keeps B's accesses contiguous.
#include <cstdint>

#include "dgemm.hpp"

namespace hepex::backend {

void host_int8_gemm(int m, int n, int k, const std::int8_t* a, int lda, const std::int8_t* b,
                    int ldb, std::int32_t* c, int ldc) {
  for (int i = 0; i < m; ++i) {
    std::int32_t* row = c + static_cast<std::ptrdiff_t>(i) * ldc;
    for (int j = 0; j < n; ++j) row[j] = 0;
    for (int l = 0; l < k; ++l) {
      const std::int32_t x = a[static_cast<std::ptrdiff_t>(i) * lda + l];
      if (x == 0) continue;
      const std::int8_t* brow = b + static_cast<std::ptrdiff_t>(l) * ldb;
      for (int j = 0; j < n; ++j) row[j] += x * brow[j];
    }
  }
}

}  // namespace hepex::backend
