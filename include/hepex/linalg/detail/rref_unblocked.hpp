#pragma once
// The unblocked, Linac-style reduction (Linac section 3.2): the host launches
// the kernels of detail/rref_kernels.hpp column pair by column pair and reads
// nothing back until the end. Floating-point rows must already be rescaled
// (rref.hpp does it once).

#include <iomanip>

#include "hepex/core/matrix.hpp"
#include "hepex/linalg/detail/rref_kernels.hpp"
#include "hepex/linalg/rref_types.hpp"

namespace hepex::linalg::detail {

// Reduces `a` (rows, cols >= 1) in place to its RREF. With row_of of extent
// rows holding 0, 1, ..., rows - 1, on return row_of(r) is the input row that
// became pivot row r (r < rank). With pivot_columns >= 0, pivots are searched
// in the first pivot_columns columns only, and with marker_column >= 0 the
// r-th pivot row gets a 1 in column marker_column + r when it is chosen
// (RrefKernels: the blocked algorithm's panels).
template <class ExecSpace, class F>
RrefResult rref_unblocked(
    const ExecSpace& space, const F& field,
    const DeviceMatrix<typename F::value_type, typename ExecSpace::memory_space>& a,
    const Kokkos::View<int*, typename ExecSpace::memory_space>& row_of, std::ostream* progress,
    int pivot_columns = -1, int marker_column = -1) {
  using Kernels = RrefKernels<F, ExecSpace>;
  const int rows = static_cast<int>(a.extent(0));
  const int cols = static_cast<int>(a.extent(1));
  Kernels k{field,
            a,
            typename Kernels::state_type("hepex::rref::state"),
            typename Kernels::pivots_type("hepex::rref::pivots", std::min(rows, cols)),
            rows,
            cols,
            row_of,
            pivot_columns >= 0 ? pivot_columns : cols,
            marker_column};
  const Kokkos::TeamPolicy<ExecSpace, typename Kernels::SelectPivot> select(space, 1, Kokkos::AUTO);
  const Kokkos::TeamPolicy<ExecSpace, typename Kernels::Eliminate> eliminate(space, rows,
                                                                             Kokkos::AUTO);
  Kokkos::Timer timer;
  int reported = 0;
  // Columns k and k+1 per pass (see detail/rref_kernels.hpp).
  for (int column = 0; column < k.pivot_columns; column += 2) {
    k.column = column;
    k.has_second = column + 1 < k.pivot_columns;
    k.slot = 0;
    Kokkos::parallel_for("hepex::rref::select_pivot", select, k);
    Kokkos::parallel_for(
        "hepex::rref::swap_rows",
        Kokkos::RangePolicy<ExecSpace, typename Kernels::SwapRows>(space, column, cols), k);
    if (k.has_second) {
      Kokkos::parallel_for(
          "hepex::rref::look_ahead",
          Kokkos::RangePolicy<ExecSpace, typename Kernels::LookAhead>(space, 0, rows), k);
    }
    k.slot = 1;
    Kokkos::parallel_for("hepex::rref::select_pivot", select, k);
    if (k.has_second) {
      Kokkos::parallel_for(
          "hepex::rref::swap_rows",
          Kokkos::RangePolicy<ExecSpace, typename Kernels::SwapRows>(space, column, cols), k);
      Kokkos::parallel_for(
          "hepex::rref::compute_q",
          Kokkos::RangePolicy<ExecSpace, typename Kernels::ComputeQ>(space, column + 1, cols), k);
    }
    Kokkos::parallel_for("hepex::rref::eliminate", eliminate, k);
    if (k.has_second) {
      Kokkos::parallel_for(
          "hepex::rref::finish_p",
          Kokkos::RangePolicy<ExecSpace, typename Kernels::FinishP>(space, column + 1, cols), k);
    }
    if (progress != nullptr && (column + 2) * 50 / cols > reported) {
      reported = (column + 2) * 50 / cols;
      space.fence();
      const double s = timer.seconds();
      const int done = std::min(column + 2, cols);
      // Step k touches columns k..n of every row: the work done after c of n
      // columns is the fraction 1 - ((n - c) / n)^2 of the whole.
      const double left = double(cols - done) / cols, fraction = 1 - left * left;
      *progress << "rref: column " << done << " of " << cols << " (" << std::fixed
                << std::setprecision(1) << 100 * fraction << "% of the work), " << done / s
                << " columns/s, elapsed " << s << " s, ETA " << s * (1 - fraction) / fraction
                << " s\n";
    }
  }
  RrefResult result;
  auto state = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.state);
  result.rank = static_cast<std::size_t>(state().next_row);
  auto pivots = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.pivots);
  result.pivots.assign(pivots.data(), pivots.data() + result.rank);
  return result;
}

}  // namespace hepex::linalg::detail
