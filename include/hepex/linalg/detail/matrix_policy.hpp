#pragma once
// The iteration space of an elementwise kernel on a row-major matrix: (i, j)
// with j fastest (coalesced on GPUs, no index division on CPUs).

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace hepex::linalg::detail {

template <class ExecSpace>
using MatrixPolicy =
    Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                          Kokkos::IndexType<std::int64_t>>;

template <class ExecSpace>
MatrixPolicy<ExecSpace> over_matrix(const ExecSpace& space, std::size_t rows, std::size_t cols) {
  return MatrixPolicy<ExecSpace>(space, {0, 0},
                                 {static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols)});
}

}  // namespace hepex::linalg::detail
