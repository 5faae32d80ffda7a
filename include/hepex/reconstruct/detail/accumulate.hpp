#pragma once
// sum += a * b on a three-word exact sum (field::TripleWord), the
// inner step of the Vandermonde solves and the device product tree. In CUDA
// device code it is one PTX carry chain (mad.lo.cc, madc.hi.cc, addc), which
// ptxas lowers to 32-bit multiply-adds with hardware carries; elsewhere the
// portable version with comparisons for the carries.

#include <cstdint>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/field/wide_multiply.hpp"

namespace hepex::reconstruct::detail {

KOKKOS_FORCEINLINE_FUNCTION void add_product(field::TripleWord<std::uint64_t>& sum, std::uint64_t a,
                                             std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  asm("mad.lo.cc.u64 %0, %3, %4, %0;\n\t"
      "madc.hi.cc.u64 %1, %3, %4, %1;\n\t"
      "addc.u64 %2, %2, 0;"
      : "+l"(sum.lo), "+l"(sum.hi), "+l"(sum.top)
      : "l"(a), "l"(b));
#else
  sum.add_product(a, b);
#endif
}

}  // namespace hepex::reconstruct::detail
