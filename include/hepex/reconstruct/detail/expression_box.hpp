#pragma once
// The kernel behind expression_black_box(): per function, its compiled tables
// (compiled_expressions.hpp) or its stack program (hepex/io/expression.hpp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/detail/compiled_expressions.hpp"

namespace hepex::reconstruct::detail {

template <class MemorySpace>
struct ExpressionBoxFunctor {
  io::ExpressionFunctor<MemorySpace> programs;  // every function's program
  CompiledTable<MemorySpace> tables;            // the compiled functions' tables

  KOKKOS_INLINE_FUNCTION bool operator()(const std::uint64_t* x, std::uint64_t* out) const {
    std::uint64_t powers[max_power_slots];
    tables.fill_powers(programs.field, x, powers);
    const std::size_t functions = tables.polynomial_begin.extent(0) - 1;
    for (std::size_t j = 0; j < functions; ++j) {
      const bool ok = tables.compiled(j) ? tables.evaluate(programs.field, j, powers, out[j])
                                         : programs.run(j, x, out[j]);
      if (!ok) return false;
    }
    return true;
  }
};

// expression_black_box() with the choice of what to compile given (tests
// force compilation with only_when_cheaper = false).
std::unique_ptr<BlackBox> expression_black_box(std::vector<io::Expression> expressions,
                                               std::size_t variables,
                                               const CompileOptions& options);

}  // namespace hepex::reconstruct::detail
