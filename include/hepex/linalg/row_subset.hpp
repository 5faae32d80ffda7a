#pragma once
// Some rows of a matrix, from one column on, as the destination of a product:
// entry (i, j) is matrix(rows(i), first + j). The blocked rref's update of
// its free rows (rows scattered through the matrix) writes through it, so
// that the products that can read and write those rows in place (modgemm's
// fp64 and multiword methods) do, and the others go through a gathered copy
// (gather_rows, scatter_rows).

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hepex/core/matrix.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"
#include "hepex/linalg/gemm_workspace.hpp"

namespace hepex::linalg {

template <class T, class Memory>
struct RowSubset {
  DeviceMatrix<T, Memory> matrix;
  Kokkos::View<const int*, Memory> rows;  // distinct rows of `matrix`
  std::int64_t first = 0;                 // the first column

  KOKKOS_INLINE_FUNCTION T& operator()(const std::int64_t i, const std::int64_t j) const {
    return matrix(rows(i), first + j);
  }
};

namespace detail {

// The products that cannot write through a RowSubset work on a copy of it:
// gather_rows returns a rows x cols copy of `target` in workspace slot
// `slot` (its entries read from target when `load`), scatter_rows writes
// the copy back.
template <class ExecSpace, class T>
DeviceMatrix<T, typename ExecSpace::memory_space> gather_rows(
    const ExecSpace& space, const RowSubset<T, typename ExecSpace::memory_space>& target,
    std::size_t cols, bool load, GemmWorkspace<typename ExecSpace::memory_space>& workspace,
    int slot) {
  const std::size_t rows = target.rows.extent(0);
  const auto copy = workspace.template matrix<T>(slot, rows, cols);
  if (load) {
    for_each_entry(
        "hepex::gather_rows", space, rows, cols,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { copy(i, j) = target(i, j); });
  }
  return copy;
}

template <class ExecSpace, class T>
void scatter_rows(const ExecSpace& space,
                  const DeviceMatrix<T, typename ExecSpace::memory_space>& copy,
                  const RowSubset<T, typename ExecSpace::memory_space>& target) {
  for_each_entry(
      "hepex::scatter_rows", space, copy.extent(0), copy.extent(1),
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { target(i, j) = copy(i, j); });
}

}  // namespace detail
}  // namespace hepex::linalg
