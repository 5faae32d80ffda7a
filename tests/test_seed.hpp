#pragma once
// The tests' random seed: fixed by default so that runs are reproducible,
// overridable with HEPEX_TEST_SEED; printed with every failure.

#include <cstdint>
#include <cstdlib>
#include <string>

namespace hepex::test {

inline std::uint64_t seed() {
  const char* text = std::getenv("HEPEX_TEST_SEED");
  return text != nullptr ? std::strtoull(text, nullptr, 10) : 20261122u;
}

// "seed=S" for SCOPED_TRACE, so every failure names the seed that reproduces it.
inline std::string seed_trace() {
  return "HEPEX_TEST_SEED=" + std::to_string(seed());
}

}  // namespace hepex::test
