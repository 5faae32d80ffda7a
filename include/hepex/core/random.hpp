#pragma once
// Counter-based random numbers for kernels: the i-th number of stream `seed` is
// a pure function of (seed, i), so results do not depend on the backend, the
// thread count or the order of evaluation.

#include <cstdint>

#include "hepex/core/kokkos_compat.hpp"

namespace hepex::random {

// SplitMix64 finaliser (Steele, Lea, Flood, OOPSLA 2014): a bijection of
// 64-bit words with good avalanche; counter i of stream seed -> mix(seed + i*gamma).
KOKKOS_INLINE_FUNCTION std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The `index`-th 64-bit word of stream `seed`.
KOKKOS_INLINE_FUNCTION std::uint64_t counter_u64(std::uint64_t seed, std::uint64_t index) {
  return splitmix64(splitmix64(seed) ^ (index * 0xd1b54a32d192ed03ull));
}

// Uniform double in [-1, 1) from a 64-bit word (53 random bits).
KOKKOS_INLINE_FUNCTION double to_symmetric_unit(std::uint64_t word) {
  return static_cast<double>(word >> 11) * 0x1.0p-52 - 1.0;
}

}  // namespace hepex::random
