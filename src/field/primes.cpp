#include "hepex/field/primes.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include "hepex/core/error.hpp"
#include "hepex/core/random.hpp"

namespace hepex::field {

namespace {

using u128 = unsigned __int128;

std::uint64_t mulmod(std::uint64_t a, std::uint64_t b, std::uint64_t n) {
  return static_cast<std::uint64_t>(static_cast<u128>(a) * b % n);
}

std::uint64_t powmod(std::uint64_t a, std::uint64_t e, std::uint64_t n) {
  std::uint64_t result = 1 % n;
  a %= n;
  while (e != 0) {
    if (e & 1) result = mulmod(result, a, n);
    a = mulmod(a, a, n);
    e >>= 1;
  }
  return result;
}

// One strong-probable-prime round: n - 1 = d * 2^s with d odd.
bool is_strong_probable_prime(std::uint64_t n, std::uint64_t base, std::uint64_t d, int s) {
  const std::uint64_t a = base % n;
  if (a == 0) return true;  // the base says nothing about n
  std::uint64_t x = powmod(a, d, n);
  if (x == 1 || x == n - 1) return true;
  for (int i = 1; i < s; ++i) {
    x = mulmod(x, x, n);
    if (x == n - 1) return true;
  }
  return false;
}

// Smallest prime factor below 100 of n, or 0 if none: for error messages.
std::uint64_t small_factor(std::uint64_t n) {
  for (std::uint64_t f = 2; f < 100 && f < n; ++f) {
    if (n % f == 0) return f;
  }
  return 0;
}

}  // namespace

bool is_prime(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t p : {2u, 3u, 5u, 7u, 11u, 13u, 17u, 19u, 23u, 29u, 31u, 37u}) {
    if (n % p == 0) return n == p;
  }
  std::uint64_t d = n - 1;
  int s = 0;
  while ((d & 1) == 0) {
    d >>= 1;
    ++s;
  }
  for (std::uint64_t base :
       {2ull, 325ull, 9375ull, 28178ull, 450775ull, 9780504ull, 1795265022ull}) {
    if (!is_strong_probable_prime(n, base, d, s)) return false;
  }
  return true;
}

std::uint64_t next_prime(std::uint64_t n) {
  // The largest 64-bit prime is 2^64 - 59.
  constexpr std::uint64_t largest_64bit_prime = 18446744073709551557ull;
  if (n >= largest_64bit_prime) {
    throw Error("next_prime(" + std::to_string(n) + "): no larger prime below 2^64");
  }
  std::uint64_t c = n + 1;
  while (!is_prime(c)) ++c;
  return c;
}

std::uint64_t prev_prime(std::uint64_t n) {
  if (n <= 2) {
    throw Error("prev_prime(" + std::to_string(n) + "): there is no smaller prime");
  }
  std::uint64_t c = n - 1;
  while (!is_prime(c)) --c;
  return c;
}

std::vector<std::uint64_t> large_primes(std::size_t count, std::uint64_t below) {
  static std::mutex mutex;
  static std::map<std::uint64_t, std::vector<std::uint64_t>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::uint64_t>& primes = cache[below];
  while (primes.size() < count) {
    const std::uint64_t from = primes.empty() ? below : primes.back();
    if (from <= 2) {
      throw Error("large_primes: there are fewer than " + std::to_string(count) + " primes below " +
                  std::to_string(below));
    }
    primes.push_back(prev_prime(from));
  }
  return {primes.begin(), primes.begin() + static_cast<std::ptrdiff_t>(count)};
}

std::vector<std::uint64_t> random_large_primes(std::size_t count, std::uint64_t seed) {
  constexpr std::uint64_t low = std::uint64_t{1} << 62;
  std::vector<std::uint64_t> primes;
  primes.reserve(count);
  for (std::uint64_t i = 0; primes.size() < count; ++i) {
    // The prime gaps near 2^63 are below 1600: next_prime stays below 2^63
    // unless the word is within them, and then the word is skipped.
    const std::uint64_t word = low | (random::counter_u64(seed ^ 0x7072696d6573ull, i) >> 2);
    const std::uint64_t p = next_prime(word);
    if (p >= (std::uint64_t{1} << 63)) continue;
    if (std::find(primes.begin(), primes.end(), p) != primes.end()) continue;
    primes.push_back(p);
  }
  return primes;
}

namespace {

// The checks of check_prime_modulus, `name` the text before "is not a prime".
void check_prime(std::uint64_t p, int max_bits, const std::string& name, const std::string& limit) {
  if (max_bits < 64 && p >= (std::uint64_t{1} << max_bits)) {
    throw Error(name + " is too large: " + limit + " needs a prime below 2^" +
                std::to_string(max_bits) +
                " (largest: " + std::to_string(prev_prime(std::uint64_t{1} << max_bits)) + ")");
  }
  if (!is_prime(p)) {
    const std::uint64_t f = small_factor(p);
    const bool suggest = max_bits < 64 || p < (std::uint64_t{1} << 63);
    throw Error(name + " is not a prime" +
                (f != 0 ? " (divisible by " + std::to_string(f) + ")" : std::string()) +
                (suggest ? "; the next prime is " + std::to_string(next_prime(p)) : std::string()));
  }
}

}  // namespace

void check_prime_modulus(std::uint64_t p, int max_bits, const char* field) {
  check_prime(p, max_bits, std::string(field) + " modulus " + std::to_string(p), field);
}

void check_prime_argument(std::uint64_t p, int max_bits, const std::string& name) {
  check_prime(p, max_bits, name + " = " + std::to_string(p), name);
}

}  // namespace hepex::field
