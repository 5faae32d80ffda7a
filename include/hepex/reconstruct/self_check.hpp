#pragma once
// A short reconstruction with a known answer, for `hepex demo`: expressions in
// four variables (a sparse polynomial, rational functions with and without a
// constant term in the denominator, rational coefficients) reconstructed over
// Q and compared with their expanded, reduced forms.

#include <cstddef>
#include <cstdint>

namespace hepex::reconstruct {

struct SelfCheck {
  std::size_t functions = 0;  // reconstructed together
  std::size_t terms = 0;      // monomials in the known answers
  std::size_t primes = 0;     // primes combined
  bool passed = false;
  double seconds = 0;
};

SelfCheck self_check(std::uint64_t seed);

}  // namespace hepex::reconstruct
