#pragma once
// The kernels of the unblocked, Linac-style reduction (Linac section 3.2). The
// host launches them column by column and never reads the matrix or the
// state in between: whether a column has a pivot lives in device memory
// (RrefState), and kernels that find no pivot return at once.

#include <cstdint>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/linalg/row_update.hpp"

namespace hepex::linalg::detail {

template <class T>
struct RrefState {
  int next_row;    // rows [0, next_row) hold the pivots found so far
  int pivot_row;   // the row the current column's pivot is moved to
  int source_row;  // the row it was found in
  int found;       // 1 if the current column has a (non-zero) pivot
  T inverse;       // 1 / pivot
};

// Pivot choice as one 64-bit key, so a plain Max reduction picks it and ties
// go to the lowest row on every backend: high word = magnitude (Z/p: 1 for a
// non-zero entry, i.e. the first non-zero row wins; floats: |a| rounded to
// float, whose bit pattern orders like the value), low word = m - 1 - row.
template <class F>
KOKKOS_INLINE_FUNCTION std::uint64_t pivot_key(const F& f, const typename F::value_type& a,
                                               int row, int rows) {
  std::uint32_t magnitude;
  if constexpr (F::is_exact) {
    magnitude = f.is_zero(a) ? 0u : 1u;
  } else {
    const float m = static_cast<float>(F::magnitude(a));
    magnitude = compat::bit_cast<std::uint32_t>(m);
  }
  return (static_cast<std::uint64_t>(magnitude) << 32) |
         static_cast<std::uint32_t>(rows - 1 - row);
}

template <class F, class ExecSpace>
struct RrefKernels {
  using T = typename F::value_type;
  using memory_space = typename ExecSpace::memory_space;
  using matrix_type = Kokkos::View<T**, Kokkos::LayoutRight, memory_space>;
  using state_type = Kokkos::View<RrefState<T>, memory_space>;
  using pivots_type = Kokkos::View<int*, memory_space>;
  using team_member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr bool on_host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;

  F f;
  matrix_type a;
  state_type state;
  pivots_type pivots;  // pivots(r) = column of the r-th pivot
  int rows, cols;
  int column;  // the column being reduced (set per launch)

  // One team: find the pivot among rows [next_row, m) of `column`, then one
  // thread records the decision in the state.
  struct SelectPivot {};
  KOKKOS_INLINE_FUNCTION void operator()(SelectPivot, const team_member& team) const {
    const int first = state().next_row;
    std::uint64_t best = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, first, rows),
        [&](const int i, std::uint64_t& key) {
          const std::uint64_t k = pivot_key(f, a(i, column), i, rows);
          if (k > key) key = k;
        },
        Kokkos::Max<std::uint64_t>(best));
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      RrefState<T>& s = state();
      const int source = rows - 1 - static_cast<int>(best & 0xffffffffu);
      if (first < rows && !f.is_zero(a(source, column))) {
        s.found = 1;
        s.pivot_row = first;
        s.source_row = source;
        s.inverse = f.inv(a(source, column));
        pivots(first) = column;
        s.next_row = first + 1;
      } else {
        s.found = 0;
      }
    });
  }

  // Columns j >= column: swap the pivot into place and scale it to 1.
  struct SwapAndScale {};
  KOKKOS_INLINE_FUNCTION void operator()(SwapAndScale, const int j) const {
    const RrefState<T>& s = state();
    if (!s.found) return;
    const T top = a(s.source_row, j);
    if (s.source_row != s.pivot_row) a(s.source_row, j) = a(s.pivot_row, j);
    a(s.pivot_row, j) = j == column ? f.one() : f.mul(top, s.inverse);
  }

  // One team per row i != pivot row: row_i <- row_i - a(i, column) * pivot row.
  // Rows whose entry already vanished return at once (Linac's sparsity gain).
  struct Eliminate {};
  KOKKOS_INLINE_FUNCTION void operator()(Eliminate, const team_member& team) const {
    const int i = team.league_rank();
    const RrefState<T> s = state();
    if (!s.found || i == s.pivot_row) return;
    const T factor = a(i, column);
    if (factor == f.zero()) return;
    const RowUpdate<F> update(f, factor);
    const int p = s.pivot_row;
    if constexpr (on_host) {
      // Host backends: a plain loop that the compiler vectorises.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, column + 1, cols),
                           [&](const int j) { a(i, j) = update(a(i, j), a(p, j)); });
    } else {
      // GPUs: each thread updates `unroll` entries a team-width apart per
      // step, so several independent loads are in flight (the kernel is
      // memory-bound); accesses stay coalesced across the team.
      constexpr int unroll = 4;
      const int width = team.team_size();
      const int stride = unroll * width;
      const int begin = column + 1;
      const int steps = (cols - begin + stride - 1) / stride;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 0, width), [&](const int lane) {
        for (int step = 0; step < steps; ++step) {
          const int base = begin + step * stride + lane;
          T x[unroll], y[unroll];
          for (int u = 0; u < unroll; ++u) {
            const int j = base + u * width;
            if (j < cols) {
              x[u] = a(p, j);
              y[u] = a(i, j);
            }
          }
          for (int u = 0; u < unroll; ++u) {
            const int j = base + u * width;
            if (j < cols) a(i, j) = update(y[u], x[u]);
          }
        }
      });
    }
    team.team_barrier();  // every thread has read a(i, column) before it is cleared
    Kokkos::single(Kokkos::PerTeam(team), [&]() { a(i, column) = f.zero(); });
  }

  // Floating point only: divide every row by its largest magnitude (Linac's
  // CudaSetRowScales + CudaRescaleRows), so one absolute tolerance fits all rows.
  struct RescaleRows {};
  KOKKOS_INLINE_FUNCTION void operator()(RescaleRows, const team_member& team) const {
    const int i = team.league_rank();
    using Real = typename F::real_type;
    Real largest = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, 0, cols),
        [&](const int j, Real& m) {
          const Real v = F::magnitude(a(i, j));
          if (v > m) m = v;
        },
        Kokkos::Max<Real>(largest));
    if (largest == Real(0)) return;
    const T scale = T(Real(1) / largest);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 0, cols),
                         [&](const int j) { a(i, j) = a(i, j) * scale; });
  }
};

}  // namespace hepex::linalg::detail
