#pragma once
// Prime fields Z/p on one machine word, usable inside Kokkos kernels:
//   Zp32: p < 2^31 on 32-bit words,  Zp64: p < 2^63 on 64-bit words.
//
// A field object carries the modulus and its precomputed constants; elements
// are plain words in [0, p). No operation on the hot path divides: products
// are reduced with the Moller-Granlund 2-by-1 division by a precomputed
// reciprocal ("Improved division by invariant integers", IEEE TC 60(2), 2011,
// Alg. 4) -- the scheme behind FLINT's n_mulmod2_preinv -- and products by a
// fixed multiplier can use Shoup's precomputed quotient. Only inv() (extended
// Euclid) divides; it is meant for pivots, not inner loops.

#include <cstdint>
#include <type_traits>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/wide_multiply.hpp"

namespace hepex::field {

template <class Word>
class Zp {
  static_assert(std::is_same<Word, std::uint32_t>::value ||
                    std::is_same<Word, std::uint64_t>::value,
                "Zp is defined for 32- and 64-bit words");

 public:
  using value_type = Word;
  using signed_type = std::make_signed_t<Word>;
  static constexpr int word_bits = 8 * sizeof(Word);
  // One bit of headroom: a + b never overflows a word, and the normalising
  // shift below is at least 1.
  static constexpr int max_modulus_bits = word_bits - 1;
  static constexpr bool is_exact = true;

  // An unusable field (modulus 0), for default-constructed containers only.
  Zp() = default;

  // Host only: checks that p is prime and 2 <= p < 2^max_modulus_bits
  // (hepex::Error otherwise), then precomputes the reduction constants.
  explicit Zp(std::uint64_t p) {
    check_prime_modulus(p, max_modulus_bits, word_bits == 32 ? "Zp32" : "Zp64");
    p_ = static_cast<Word>(p);
    shift_ = leading_zero_bits(p_);
    d_ = static_cast<Word>(p_ << shift_);
    // v = floor((B^2 - 1) / d) - B with B = 2^word_bits (Moller-Granlund eq. 3).
    using U2 = std::conditional_t<word_bits == 32, std::uint64_t, unsigned __int128>;
    const U2 all_ones = ~U2{0};
    v_ = static_cast<Word>(all_ones / d_);  // the leading 1 (i.e. B) drops out
  }

  KOKKOS_INLINE_FUNCTION Word modulus() const { return p_; }

  KOKKOS_INLINE_FUNCTION Word zero() const { return 0; }
  KOKKOS_INLINE_FUNCTION Word one() const { return 1; }
  KOKKOS_INLINE_FUNCTION bool is_zero(Word a) const { return a == 0; }

  KOKKOS_INLINE_FUNCTION Word add(Word a, Word b) const {
    const Word s = a + b;  // < 2p <= 2^word_bits: no overflow
    return s >= p_ ? s - p_ : s;
  }
  KOKKOS_INLINE_FUNCTION Word sub(Word a, Word b) const { return a >= b ? a - b : a + (p_ - b); }
  KOKKOS_INLINE_FUNCTION Word neg(Word a) const { return a == 0 ? 0 : p_ - a; }

  KOKKOS_INLINE_FUNCTION Word mul(Word a, Word b) const {
    const auto ab = mul_wide(a, b);
    return reduce_double_word(ab.hi, ab.lo);
  }

  // a*b + c, reduced once: (p-1)^2 + (p-1) < p * 2^word_bits.
  KOKKOS_INLINE_FUNCTION Word fma(Word a, Word b, Word c) const {
    auto ab = mul_wide(a, b);
    const Word lo = ab.lo + c;
    ab.hi += (lo < c) ? 1 : 0;
    return reduce_double_word(ab.hi, lo);
  }

  // Shoup's precomputed quotient for a fixed multiplier b: floor(b * 2^W / p).
  KOKKOS_INLINE_FUNCTION Word shoup(Word b) const {
    // (b * 2^shift) * 2^W / (p * 2^shift): numerator high word b<<shift < d.
    return divide_normalised(static_cast<Word>(b << shift_), 0).quotient;
  }
  // a*b mod p given b_shoup = shoup(b): one multiply-high, two multiplies.
  KOKKOS_INLINE_FUNCTION Word mul_shoup(Word a, Word b, Word b_shoup) const {
    const Word q = mul_high(a, b_shoup);
    const Word r = static_cast<Word>(a * b - q * p_);  // exact: r < 2p
    return r >= p_ ? r - p_ : r;
  }

  // a^e by square-and-multiply (no squaring after the top bit); 0^0 = 1.
  KOKKOS_INLINE_FUNCTION Word pow(Word a, std::uint64_t e) const {
    Word result = 1;
    while (true) {
      if (e & 1) result = mul(result, a);
      e >>= 1;
      if (e == 0) return result;
      a = mul(a, a);
    }
  }

  // Inverse by the extended Euclidean algorithm. Precondition: a != 0 (callers
  // test is_zero first); inv(0) returns 0 rather than trapping in a kernel.
  KOKKOS_INLINE_FUNCTION Word inv(Word a) const {
    // Bezout coefficients stay below p in absolute value: int64 suffices.
    std::int64_t t = 0, new_t = 1;
    std::uint64_t r = p_, new_r = a;
    while (new_r != 0) {
      const std::uint64_t q = r / new_r;
      const std::int64_t tmp_t = t - static_cast<std::int64_t>(q) * new_t;
      t = new_t;
      new_t = tmp_t;
      const std::uint64_t tmp_r = r - q * new_r;
      r = new_r;
      new_r = tmp_r;
    }
    if (r != 1) return 0;
    return static_cast<Word>(t < 0 ? t + static_cast<std::int64_t>(p_) : t);
  }

  // Any signed 64-bit integer, reduced into [0, p).
  KOKKOS_INLINE_FUNCTION Word from_int(std::int64_t x) const {
    // |x| as an unsigned value, valid for INT64_MIN too.
    const std::uint64_t magnitude =
        x < 0 ? ~static_cast<std::uint64_t>(x) + 1 : static_cast<std::uint64_t>(x);
    const Word r = from_uint(magnitude);
    return x < 0 ? neg(r) : r;
  }

  // Any unsigned 64-bit integer, reduced into [0, p).
  KOKKOS_INLINE_FUNCTION Word from_uint(std::uint64_t x) const {
    if constexpr (word_bits == 64) {
      return reduce_double_word(0, x);
    } else {
      const Word high = reduce_double_word(0, static_cast<Word>(x >> 32));
      return reduce_double_word(high, static_cast<Word>(x));
    }
  }

  // Centred representative in (-p/2, p/2].
  KOKKOS_INLINE_FUNCTION signed_type centred(Word a) const {
    return a > p_ / 2 ? static_cast<signed_type>(a) - static_cast<signed_type>(p_)
                      : static_cast<signed_type>(a);
  }

  // (hi * 2^W + lo) mod p, for any hi < p.
  KOKKOS_INLINE_FUNCTION Word reduce_double_word(Word hi, Word lo) const {
    // Normalise: multiply numerator and divisor by 2^shift (1 <= shift < W), so
    // the divisor d has its top bit set; hi < p keeps the new high word < d.
    const Word u1 = static_cast<Word>((hi << shift_) | (lo >> (word_bits - shift_)));
    const Word u0 = static_cast<Word>(lo << shift_);
    return divide_normalised(u1, u0).remainder >> shift_;
  }

 private:
  struct QuotientRemainder {
    Word quotient;
    Word remainder;
  };

  // Moller-Granlund Alg. 4: (u1*2^W + u0) / d for normalised d and u1 < d.
  KOKKOS_INLINE_FUNCTION QuotientRemainder divide_normalised(Word u1, Word u0) const {
    auto q = mul_wide(v_, u1);
    const Word q0 = q.lo + u0;
    Word q1 = q.hi + u1 + 1 + (q0 < u0 ? 1 : 0);
    Word r = static_cast<Word>(u0 - q1 * d_);
    if (r > q0) {
      --q1;
      r += d_;
    }
    if (r >= d_) {  // rare
      ++q1;
      r -= d_;
    }
    return {q1, r};
  }

  static int leading_zero_bits(Word x) {
    int n = 0;
    for (Word bit = Word{1} << (word_bits - 1); (x & bit) == 0; bit >>= 1) ++n;
    return n;
  }

  Word p_ = 0;     // the prime
  Word d_ = 0;     // p << shift_, top bit set
  Word v_ = 0;     // reciprocal of d_ (Moller-Granlund)
  int shift_ = 0;  // leading zeros of p, >= 1
};

using Zp32 = Zp<std::uint32_t>;
using Zp64 = Zp<std::uint64_t>;

}  // namespace hepex::field
