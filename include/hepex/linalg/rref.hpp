#pragma once
// Reduced row echelon form on the device, for every hepex field (Zp32, Zp64,
// Real64/32, Complex128/64), any shape and rank. The unblocked algorithm of
// Linac (section 3.2): per column, select a pivot (partial pivoting: the first
// non-zero entry over Z/p, the largest magnitude over floating point), swap
// it into place, scale it to 1, eliminate the column from every other row.
// The matrix stays on the device, and the host launches the column loop
// without reading anything back until the end. Floating-point rows are
// rescaled to unit maximum first; the field's tolerance decides what is zero.

#include <iomanip>
#include <ostream>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/linalg/detail/rref_kernels.hpp"

namespace hepex::linalg {

struct RrefOptions {
  // Progress on this stream (column, share of the work, rate, ETA); costs one
  // device fence per report (about every 2% of the columns), none when null.
  std::ostream* progress = nullptr;
};

struct RrefResult {
  std::size_t rank = 0;
  std::vector<int> pivots;  // pivot columns, increasing; pivots[r] is row r's pivot
};

// Reduces `a` in place to its RREF (zero rows at the bottom) on `space`.
template <class ExecSpace, class F>
RrefResult rref(const ExecSpace& space, const F& field,
                const DeviceMatrix<typename F::value_type, typename ExecSpace::memory_space>& a,
                const RrefOptions& options = {}) {
  using Kernels = detail::RrefKernels<F, ExecSpace>;
  const int rows = static_cast<int>(a.extent(0));
  const int cols = static_cast<int>(a.extent(1));
  if (a.extent(0) > 0x7fffffff || a.extent(1) > 0x7fffffff) {
    throw Error("rref: matrices are limited to 2^31 - 1 rows and columns");
  }
  RrefResult result;
  if (rows == 0 || cols == 0) return result;

  Kernels k{field,
            a,
            typename Kernels::state_type("hepex::rref::state"),
            typename Kernels::pivots_type("hepex::rref::pivots", std::min(rows, cols)),
            rows,
            cols};
  if constexpr (!F::is_exact) {
    Kokkos::parallel_for("hepex::rref::rescale_rows",
                         Kokkos::TeamPolicy<ExecSpace, typename Kernels::RescaleRows>(
                             space, rows, Kokkos::AUTO),
                         k);
  }
  const Kokkos::TeamPolicy<ExecSpace, typename Kernels::SelectPivot> select(space, 1,
                                                                              Kokkos::AUTO);
  const Kokkos::TeamPolicy<ExecSpace, typename Kernels::Eliminate> eliminate(space, rows,
                                                                             Kokkos::AUTO);
  Kokkos::Timer timer;
  int reported = 0;
  // Columns k and k+1 per pass (see detail/rref_kernels.hpp).
  for (int column = 0; column < cols; column += 2) {
    k.column = column;
    k.has_second = column + 1 < cols;
    k.slot = 0;
    Kokkos::parallel_for("hepex::rref::select_pivot", select, k);
    Kokkos::parallel_for("hepex::rref::swap_rows",
                         Kokkos::RangePolicy<ExecSpace, typename Kernels::SwapRows>(
                             space, column, cols),
                         k);
    if (k.has_second) {
      Kokkos::parallel_for("hepex::rref::look_ahead",
                           Kokkos::RangePolicy<ExecSpace, typename Kernels::LookAhead>(
                               space, 0, rows),
                           k);
    }
    k.slot = 1;
    Kokkos::parallel_for("hepex::rref::select_pivot", select, k);
    if (k.has_second) {
      Kokkos::parallel_for("hepex::rref::swap_rows",
                           Kokkos::RangePolicy<ExecSpace, typename Kernels::SwapRows>(
                               space, column, cols),
                           k);
      Kokkos::parallel_for("hepex::rref::compute_q",
                           Kokkos::RangePolicy<ExecSpace, typename Kernels::ComputeQ>(
                               space, column + 1, cols),
                           k);
    }
    Kokkos::parallel_for("hepex::rref::eliminate", eliminate, k);
    if (k.has_second) {
      Kokkos::parallel_for("hepex::rref::finish_p",
                           Kokkos::RangePolicy<ExecSpace, typename Kernels::FinishP>(
                               space, column + 1, cols),
                           k);
    }
    if (options.progress != nullptr && (column + 2) * 50 / cols > reported) {
      reported = (column + 2) * 50 / cols;
      space.fence();
      const double s = timer.seconds();
      const int done = std::min(column + 2, cols);
      // Step k touches columns k..n of every row: the work done after c of n
      // columns is the fraction 1 - ((n - c) / n)^2 of the whole.
      const double left = double(cols - done) / cols, fraction = 1 - left * left;
      *options.progress << "rref: column " << done << " of " << cols << " (" << std::fixed
                        << std::setprecision(1) << 100 * fraction << "% of the work), "
                        << done / s << " columns/s, elapsed " << s << " s, ETA "
                        << s * (1 - fraction) / fraction << " s\n";
    }
  }
  auto state = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.state);
  result.rank = static_cast<std::size_t>(state().next_row);
  auto pivots = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.pivots);
  result.pivots.assign(pivots.data(), pivots.data() + result.rank);
  return result;
}

// Host convenience: reduces a host matrix in place on the chosen backend.
template <class F>
RrefResult rref(const F& field, Matrix<typename F::value_type>& a,
                Backend backend = Backend::device, const RrefOptions& options = {}) {
  auto run = [&](auto space) {
    using Space = decltype(space);
    auto d = to_device<typename Space::memory_space>(a, "hepex::rref::matrix");
    RrefResult r = rref(space, field, d, options);
    a = to_host(d);
    return r;
  };
  return backend == Backend::device ? run(DeviceSpace()) : run(HostSpace());
}

}  // namespace hepex::linalg
