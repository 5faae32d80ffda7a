#pragma once
// The one place where the double-word product of two machine words is formed.
// 32-bit words: a native 32x32->64 multiply everywhere. 64-bit words:
// `unsigned __int128` on the host, the vendor multiply-high intrinsic
// (__umul64hi: one IMAD.HI pair on NVIDIA, v_mul_hi_u32 sequence on AMD) in
// CUDA/HIP device code. Nothing here divides: HIP cannot lower 128-bit division.
// Public: the exact sums of other families (modular GEMM words, Vandermonde
// solves, product trees) are built on TripleWord.

#include <cstdint>

#include "hepex/core/kokkos_compat.hpp"

namespace hepex::field {

template <class Word>
struct DoubleWord {
  Word hi;
  Word lo;
};

KOKKOS_FORCEINLINE_FUNCTION DoubleWord<std::uint32_t> mul_wide(std::uint32_t a, std::uint32_t b) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  return {static_cast<std::uint32_t>(p >> 32), static_cast<std::uint32_t>(p)};
}

KOKKOS_FORCEINLINE_FUNCTION DoubleWord<std::uint64_t> mul_wide(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return {__umul64hi(a, b), a * b};
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  return {static_cast<std::uint64_t>(p >> 64), static_cast<std::uint64_t>(p)};
#endif
}

// High word of a*b.
template <class Word>
KOKKOS_FORCEINLINE_FUNCTION Word mul_high(Word a, Word b) {
  return mul_wide(a, b).hi;
}

// An exact sum of double-word products in three words (top, hi, lo): for
// 64-bit words 2^192 / (2^64 - 1)^2 > 2^64 terms, for 32-bit words 2^32
// terms before it can overflow. `field.reduce_double_word` reduces it.
template <class Word>
struct TripleWord {
  Word top = 0, hi = 0, lo = 0;
  KOKKOS_FORCEINLINE_FUNCTION void add_product(Word a, Word b) {
    const auto product = mul_wide(a, b);
    lo += product.lo;
    const Word high = product.hi + (lo < product.lo ? 1 : 0);  // product.hi <= 2^W - 2
    hi += high;
    top += hi < high ? 1 : 0;
  }
  template <class Field>
  KOKKOS_FORCEINLINE_FUNCTION Word reduce(const Field& f) const {
    return f.reduce_double_word(f.reduce_double_word(f.reduce_double_word(0, top), hi), lo);
  }
};

}  // namespace hepex::field
