#pragma once
// Portable random draws for the tests. The standard engines' words are fixed
// by the standard (std::mt19937_64's 10000th is 9981545732273789042 on every
// library), but std::uniform_int_distribution, uniform_real_distribution,
// bernoulli_distribution and std::shuffle are not: their output differs
// between libstdc++, libc++ and MSVC, so a seed printed on failure would
// reproduce the case only on the same toolchain. These draw from the
// engine's words alone, the same everywhere.

#include <cstdint>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>

#include "hepex/field/primes.hpp"

namespace hepex::test {

// 64 random bits (two words of a 32-bit engine).
template <class Engine>
std::uint64_t random_word(Engine& rng) {
  static_assert(Engine::min() == 0, "a standard engine");
  if constexpr (Engine::max() == std::numeric_limits<std::uint64_t>::max()) {
    return static_cast<std::uint64_t>(rng());
  } else {
    static_assert(Engine::max() == std::numeric_limits<std::uint32_t>::max(), "32 or 64 bits");
    const std::uint64_t high = static_cast<std::uint64_t>(rng());
    return (high << 32) | static_cast<std::uint64_t>(rng());
  }
}

// Uniform in [0, n), n > 0, by rejection (no modulo bias).
template <class Engine>
std::uint64_t random_below(Engine& rng, std::uint64_t n) {
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
  for (;;) {
    const std::uint64_t w = random_word(rng);
    if (w < limit) return w % n;
  }
}

// Uniform integer in [low, high].
template <class Int, class Engine>
Int random_int(Engine& rng, Int low, Int high) {
  using U = std::make_unsigned_t<Int>;
  const std::uint64_t span = static_cast<std::uint64_t>(static_cast<U>(high) - static_cast<U>(low));
  const std::uint64_t offset = span == std::numeric_limits<std::uint64_t>::max()
                                   ? random_word(rng)
                                   : random_below(rng, span + 1);
  return static_cast<Int>(static_cast<U>(low) + static_cast<U>(offset));
}

// Uniform double in [low, high) from 53 random bits.
template <class Engine>
double random_real(Engine& rng, double low, double high) {
  const double unit = static_cast<double>(random_word(rng) >> 11) * 0x1.0p-53;
  return low + (high - low) * unit;
}

// True with probability p.
template <class Engine>
bool random_chance(Engine& rng, double p) {
  return random_real(rng, 0.0, 1.0) < p;
}

// Fisher-Yates (Knuth, TAOCP 2, Algorithm P) over [first, last).
template <class RandomIt, class Engine>
void random_shuffle(RandomIt first, RandomIt last, Engine& rng) {
  const auto n = static_cast<std::uint64_t>(std::distance(first, last));
  for (std::uint64_t i = n; i > 1; --i) {
    using std::swap;
    swap(first[i - 1], first[random_below(rng, i)]);
  }
}

// A random prime of exactly `bits` bits (2 <= bits <= 63): the smallest
// prime above a uniform draw from [2^(bits-1), 2^bits), drawn again when that
// prime has more bits (is_prime decides, field/primes.hpp).
template <class Engine>
std::uint64_t random_prime(Engine& rng, int bits) {
  const std::uint64_t low = std::uint64_t{1} << (bits - 1);
  for (;;) {
    const std::uint64_t p = hepex::field::next_prime(low - 1 + random_below(rng, low));
    if (p >> bits == 0) return p;
  }
}

// Drop-in for std::uniform_int_distribution<Int>(low, high): the same
// interval, portable draws.
template <class Int>
class UniformInt {
 public:
  UniformInt(Int low, Int high) : low_(low), high_(high) {}
  template <class Engine>
  Int operator()(Engine& rng) const {
    return random_int(rng, low_, high_);
  }

 private:
  Int low_, high_;
};

// Drop-in for std::uniform_real_distribution<double>(low, high).
class UniformReal {
 public:
  UniformReal(double low, double high) : low_(low), high_(high) {}
  template <class Engine>
  double operator()(Engine& rng) const {
    return random_real(rng, low_, high_);
  }

 private:
  double low_, high_;
};

}  // namespace hepex::test
