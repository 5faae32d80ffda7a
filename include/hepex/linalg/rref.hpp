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
  // Progress on this stream ("column k of n, rate"); costs one device fence
  // per report (about every 2% of the columns), none when null.
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
            cols,
            0};
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
  const int report_every = std::max(1, cols / 50);
  for (int column = 0; column < cols; ++column) {
    k.column = column;
    Kokkos::parallel_for("hepex::rref::select_pivot", select, k);
    Kokkos::parallel_for(
        "hepex::rref::swap_and_scale",
        Kokkos::RangePolicy<ExecSpace, typename Kernels::SwapAndScale>(space, column, cols), k);
    Kokkos::parallel_for("hepex::rref::eliminate", eliminate, k);
    if (options.progress != nullptr && (column + 1) % report_every == 0) {
      space.fence();
      const double s = timer.seconds();
      *options.progress << "rref: column " << column + 1 << " of " << cols << ", "
                        << std::fixed << std::setprecision(1) << (column + 1) / s
                        << " columns/s, elapsed " << s << " s\n";
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
