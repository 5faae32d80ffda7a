#pragma once
// The unblocked reduction (Linac section 3.2): the host launches the kernels
// of detail/rref_kernels.hpp pass by pass (two columns, two launches) and
// reads nothing back until the end. Floating-point rows must already be
// rescaled (rref.hpp does it once).

#include "hepex/core/matrix.hpp"
#include "hepex/core/progress.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"
#include "hepex/linalg/detail/rref_kernels.hpp"
#include "hepex/linalg/rref_types.hpp"

namespace hepex::linalg::detail {

// What reduce_in_place leaves: the rank and pivot columns, and where the
// pivot rows are (rows do not move).
template <class Memory>
struct InPlaceReduction {
  RrefResult result;
  Kokkos::View<int*, Memory> row_of_pivot;  // row_of_pivot(r): the row of pivot r, r < rank
};

// Gauss-Jordan reduction of `a` (rows, cols >= 1) with the pivot rows left
// where they were found: on return row_of_pivot(r) holds pivot r's row,
// which is 1 in pivot column r and 0 in the other pivot columns, and every
// other row is 0 in the pivot columns. With pivot_columns >= 0, pivots are
// searched in the first pivot_columns columns only, and with
// marker_column >= 0 the r-th pivot row gets a 1 in column marker_column + r
// when it is chosen (the blocked algorithm's panels; rref_kernels.hpp).
template <class ExecSpace, class F>
InPlaceReduction<typename ExecSpace::memory_space> reduce_in_place(
    const ExecSpace& space, const F& field,
    const DeviceMatrix<typename F::value_type, typename ExecSpace::memory_space>& a,
    ProgressTask* task, int pivot_columns = -1, int marker_column = -1) {
  using Kernels = RrefKernels<F, ExecSpace>;
  const int rows = static_cast<int>(a.extent(0));
  const int cols = static_cast<int>(a.extent(1));
  const int most = std::min(rows, cols);
  Kernels k{field,
            a,
            typename Kernels::state_type("hepex::rref::state"),
            typename Kernels::ints_type("hepex::rref::pivot_of_row", rows),
            typename Kernels::ints_type("hepex::rref::row_of_pivot", most),
            typename Kernels::ints_type("hepex::rref::pivots", most),
            rows,
            cols,
            pivot_columns >= 0 ? pivot_columns : cols,
            marker_column};
  Kokkos::deep_copy(space, k.pivot_of_row, -1);
  using FinishAndSelect = typename Kernels::FinishAndSelect;
  const Kokkos::TeamPolicy<ExecSpace, typename Kernels::Eliminate> eliminate(space, rows,
                                                                             Kokkos::AUTO);
  k.next = 0;
  Kokkos::parallel_for("hepex::rref::select",
                       Kokkos::TeamPolicy<ExecSpace, FinishAndSelect>(space, 1, Kokkos::AUTO), k);
  for (int column = 0; column < k.pivot_columns; column += 2) {
    k.column = column;
    Kokkos::parallel_for("hepex::rref::eliminate", eliminate, k);
    k.next = column + 2 < k.pivot_columns ? column + 2 : -1;
    const int finishing_teams = (cols - column + Kernels::finish_chunk - 1) / Kernels::finish_chunk;
    Kokkos::parallel_for(
        "hepex::rref::finish_and_select",
        Kokkos::TeamPolicy<ExecSpace, FinishAndSelect>(space, 1 + finishing_teams, Kokkos::AUTO),
        k);
    // Between passes: an interruption is seen here, and a report (after
    // waiting for the device) when one is due.
    if (task == nullptr) {
      interruption_point();
    } else if (task->report_due()) {
      space.fence();
      const int done = std::min(column + 2, cols);
      // Step k touches columns k..n of every row: the work done after c of n
      // columns is the fraction 1 - ((n - c) / n)^2 of the whole.
      const double left = double(cols - done) / cols;
      task->update(done, 1 - left * left);
    }
  }
  InPlaceReduction<typename ExecSpace::memory_space> reduction;
  auto state = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.state);
  reduction.result.rank = static_cast<std::size_t>(state().rank);
  auto pivots = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.pivots);
  reduction.result.pivots.assign(pivots.data(), pivots.data() + reduction.result.rank);
  reduction.row_of_pivot = k.row_of_pivot;
  return reduction;
}

// Reduces `a` in place to its RREF: reduce_in_place, then the pivot rows in
// pivot order and zeros below (through a copy of the matrix). With row_of of
// extent >= rank, row_of(r) is then the input row that became pivot row r.
template <class ExecSpace, class F>
RrefResult rref_unblocked(
    const ExecSpace& space, const F& field,
    const DeviceMatrix<typename F::value_type, typename ExecSpace::memory_space>& a,
    ProgressTask* task, const Kokkos::View<int*, typename ExecSpace::memory_space>& row_of = {}) {
  using T = typename F::value_type;
  const auto reduction = reduce_in_place(space, field, a, task);
  const auto row_of_pivot = reduction.row_of_pivot;
  const int rank = static_cast<int>(reduction.result.rank);
  if (row_of.extent(0) != 0) {
    Kokkos::deep_copy(space, Kokkos::subview(row_of, std::make_pair(0, rank)),
                      Kokkos::subview(row_of_pivot, std::make_pair(0, rank)));
  }
  const F f = field;
  const DeviceMatrix<T, typename ExecSpace::memory_space> reduced(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "hepex::rref::in_place"), a.extent(0),
      a.extent(1));
  Kokkos::deep_copy(space, reduced, a);
  for_each_entry(
      "hepex::rref::order_rows", space, a.extent(0), a.extent(1),
      KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
        a(i, j) = i < rank ? reduced(row_of_pivot(i), j) : f.zero();
      });
  space.fence();
  return reduction.result;
}

}  // namespace hepex::linalg::detail
