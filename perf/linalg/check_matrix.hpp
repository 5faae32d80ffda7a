#pragma once
// The integer matrix M = [B | B C] of the large-RREF checks (rref-check,
// spread-rref): B (n x (n-d)) has uniform 32-bit entries from the
// counter-based generator, and column s of C is e_a + c e_b (a, b < n - d and
// 1 <= c <= 1000 drawn from s), so that RREF(M) = [[I, C], [0, 0]] over Z
// and mod every prime for which B keeps full column rank. Any entry of M or
// of its RREF is a function of (i, j): a rank can build and check its own
// rows without the others'.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hepex/core/random.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::perf {

struct CheckMatrix {
  std::uint64_t seed;
  std::int64_t n;
  std::int64_t independent;  // n - d

  // Column s of the dependent block: M(:, n-d+s) = M(:, a) + c M(:, b).
  KOKKOS_INLINE_FUNCTION std::int64_t a(std::int64_t s) const {
    return static_cast<std::int64_t>(hepex::random::counter_u64(seed + 1, 3 * s) %
                                     static_cast<std::uint64_t>(independent));
  }
  KOKKOS_INLINE_FUNCTION std::int64_t b(std::int64_t s) const {
    return static_cast<std::int64_t>(hepex::random::counter_u64(seed + 1, 3 * s + 1) %
                                     static_cast<std::uint64_t>(independent));
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t c(std::int64_t s) const {
    return 1 + hepex::random::counter_u64(seed + 1, 3 * s + 2) % 1000;
  }
  // B(i, j): a uniform 32-bit integer.
  KOKKOS_INLINE_FUNCTION std::uint64_t b_entry(std::int64_t i, std::int64_t j) const {
    return hepex::random::counter_u64(seed, static_cast<std::uint64_t>(i * n + j)) >> 32;
  }
  // M(i, j) mod p.
  template <class Word>
  KOKKOS_INLINE_FUNCTION Word entry(const field::Zp<Word>& f, std::int64_t i,
                                    std::int64_t j) const {
    if (j < independent) return f.from_uint(b_entry(i, j));
    const std::int64_t s = j - independent;
    return f.add(f.from_uint(b_entry(i, a(s))),
                 f.mul(f.from_uint(c(s)), f.from_uint(b_entry(i, b(s)))));
  }
  // RREF(M)(i, j) mod p.
  template <class Word>
  KOKKOS_INLINE_FUNCTION Word rref_entry(const field::Zp<Word>& f, std::int64_t i,
                                         std::int64_t j) const {
    Word want = f.zero();
    if (i < independent) {
      if (j < independent) {
        want = i == j ? f.one() : f.zero();
      } else {
        const std::int64_t s = j - independent;
        if (i == a(s)) want = f.add(want, f.one());
        if (i == b(s)) want = f.add(want, f.from_uint(c(s)));
      }
    }
    return want;
  }
};

}  // namespace hepex::perf
