#pragma once
// The tests' random seed: fixed by default so that runs are reproducible,
// overridable with HEPEX_TEST_SEED; printed with every failure. And
// HEPEX_TEST_MULTIPLIER: the randomized tests run that many times their
// cases (default 1; e.g. 20 in a long run on a GPU node).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace hepex::test {

inline std::uint64_t seed() {
  const char* text = std::getenv("HEPEX_TEST_SEED");
  return text != nullptr ? std::strtoull(text, nullptr, 10) : 20261122u;
}

// HEPEX_TEST_MULTIPLIER, a whole number from 1 to 10^6; anything else stops
// the tests with a message (a typo must not run the default quietly).
inline int multiplier() {
  const char* text = std::getenv("HEPEX_TEST_MULTIPLIER");
  if (text == nullptr) return 1;
  char* end = nullptr;
  const long m = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || m < 1 || m > 1000000) {
    std::fprintf(stderr, "HEPEX_TEST_MULTIPLIER=%s: a whole number from 1 to 1000000\n", text);
    std::exit(2);
  }
  return static_cast<int>(m);
}

// How many cases a randomized test runs: `n` times the multiplier.
inline int cases(int n) { return n * multiplier(); }

// "HEPEX_TEST_SEED=S" (and the multiplier when not 1) for SCOPED_TRACE, so
// every failure names what reproduces it.
inline std::string seed_trace() {
  std::string trace = "HEPEX_TEST_SEED=" + std::to_string(seed());
  if (multiplier() != 1) trace += " HEPEX_TEST_MULTIPLIER=" + std::to_string(multiplier());
  return trace;
}

}  // namespace hepex::test
