#pragma once
// A fast self-check of the field arithmetic on a chosen backend, for
// `hepex demo` and for users validating a new build or machine: algebraic
// identities evaluated in a kernel (ring axioms, inverses, powers, Fermat,
// Shoup), plus agreement of the kernel's products with the host's.
// (The test suite checks every operation against GMP independently.)

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hepex/core/spaces.hpp"

namespace hepex::field {

struct SelfCheckRow {
  std::string field;         // "Zp32", "Zp64", "Real64", "Complex128"
  std::string parameter;     // the modulus, or the tolerance
  std::size_t cases = 0;     // random (a, b, c) triples checked
  std::size_t failures = 0;  // cases where some identity failed
  double seconds = 0;        // kernel time (fenced)
};

std::vector<SelfCheckRow> self_check(Place backend, std::size_t cases, std::uint64_t seed);

}  // namespace hepex::field
