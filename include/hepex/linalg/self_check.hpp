#pragma once
// Short runs for `hepex demo`.
//
// A short elimination run: a random n x n matrix over
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

// A short modular product for `hepex demo`: n x n x n over Z/65521 by the fp64
// path (vendor DGEMM) and by the int64 kernel, which must agree exactly.
struct GemmSelfCheck {
  std::size_t n = 0;
  bool passed = false;
  double fp64_seconds = 0;
  double int64_seconds = 0;
};

GemmSelfCheck gemm_self_check(Backend backend, std::size_t n, std::uint64_t seed);

}  // namespace hepex::linalg
