#pragma once
// Short runs for `hepex demo`.
//
// A short elimination run: a random n x n matrix over
// Z/(2^31 - 1) whose last `deficiency` columns are combinations of earlier
// ones, reduced on the chosen backend; passed when the rank is n - deficiency
// and A * nullspace == 0 for the canonical null-space basis.

#include <utility>
#include <vector>

#include <cstddef>
#include <cstdint>
#include "hepex/linalg/modgemm_methods.hpp"

#include "hepex/core/spaces.hpp"

namespace hepex::linalg {

struct RrefSelfCheck {
  std::size_t n = 0;
  std::size_t expected_rank = 0;
  std::size_t rank = 0;
  bool passed = false;
  double seconds = 0;  // the reduction alone
};

RrefSelfCheck rref_self_check(Place backend, std::size_t n, std::size_t deficiency,
                              std::uint64_t seed);

// A short modular product for `hepex demo`: n x n x n over Z/p (p < 2^31) by
// each of `methods`, which must all agree exactly.
struct GemmSelfCheck {
  std::size_t n = 0;
  std::uint64_t p = 0;
  bool passed = false;
  std::vector<std::pair<GemmMethod, double>> seconds;  // per method
};

GemmSelfCheck gemm_self_check(Place backend, std::size_t n, std::uint64_t p,
                              const std::vector<GemmMethod>& methods, std::uint64_t seed);

}  // namespace hepex::linalg
