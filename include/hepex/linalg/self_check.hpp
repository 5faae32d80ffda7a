#pragma once
// A short elimination run for `hepex demo`: a random n x n matrix over
// Z/(2^31 - 1) whose last `deficiency` columns are combinations of earlier
// ones, reduced on the chosen backend; passed when the rank is n - deficiency
// and A * nullspace == 0 for the canonical null-space basis.

#include <cstddef>
#include <cstdint>

#include "hepex/core/spaces.hpp"

namespace hepex::linalg {

struct RrefSelfCheck {
  std::size_t n = 0;
  std::size_t expected_rank = 0;
  std::size_t rank = 0;
  bool passed = false;
  double seconds = 0;  // the reduction alone
};

RrefSelfCheck rref_self_check(Backend backend, std::size_t n, std::size_t deficiency,
                              std::uint64_t seed);

}  // namespace hepex::linalg
