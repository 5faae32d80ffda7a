#pragma once
// The kernels of the unblocked, Linac-style reduction (Linac section 3.2),
// taking columns two at a time so that each pass over the matrix applies two
// pivots: half of the memory traffic of one pass per column (Linac's kernel
// is memory-bandwidth bound). The host launches them column pair by column
// pair and never reads the matrix or the state in between: whether a column
// has a pivot lives in device memory (RrefState), and kernels for a column
// without one return at once.
//
// For columns k and k+1 with pivot rows P (for k) and Q (for k+1), the pass
// computes, for every other row i with entries f = a(i,k) and
// g = a(i,k+1) - f * P(k+1) (the "look-ahead" value of column k+1 after the
// elimination of column k):
//   Q     <- (Q - a(Q,k) * P) / pivot_Q           (Q reduced by P, then scaled)
//   row_i <- row_i - f * P - g * Q                 (one fused pass)
//   P     <- P - P(k+1) * Q                        (P reduced by Q)
// which equals two successive Gauss-Jordan steps.
//
// The blocked algorithm (rref_blocked.hpp) reduces a panel S with a zero
// block Y to its right: pivots are searched in S's columns only
// (pivot_columns), and the r-th pivot row gets a 1 in Y's column r when it
// is chosen (marker_column). That is the same as reducing [S | E] with E
// holding those 1s from the start: until row r is a pivot no row operation
// has used it as a source, so its entry in Y's column r is still 1 and every
// other row's is 0. Hence Y ends as the reduction's transform restricted to
// the pivot rows: Y[0:k, 0:k] = M^-1 for M = S[pivot rows, pivot columns],
// both in pivot order.

#include <cstdint>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/linalg/row_update.hpp"

namespace hepex::linalg::detail {

template <class T>
struct RrefState {
  int next_row;       // rows [0, next_row) hold the pivots found so far
  int pivot_row[2];   // where column k's (slot 0) and k+1's (slot 1) pivots go
  int source_row[2];  // the rows they were found in
  int found[2];       // 1 if the column has a (non-zero) pivot
  T inverse[2];       // 1 / pivot
  T p_next;           // P(k+1) after scaling: the factor of Q in P's update
};

// Pivot choice as one 64-bit key, so a plain Max reduction picks it and ties
// go to the lowest row on every backend: high word = magnitude (Z/p: 1 for a
// non-zero entry, i.e. the first non-zero row wins; floats: |a| rounded to
// float, whose bit pattern orders like the value), low word = m - 1 - row.
template <class F>
KOKKOS_INLINE_FUNCTION std::uint64_t pivot_key(const F& f, const typename F::value_type& a, int row,
                                               int rows) {
  std::uint32_t magnitude;
  if constexpr (F::is_exact) {
    magnitude = f.is_zero(a) ? 0u : 1u;
  } else {
    const float m = static_cast<float>(F::magnitude(a));
    magnitude = compat::bit_cast<std::uint32_t>(m);
  }
  return (static_cast<std::uint64_t>(magnitude) << 32) | static_cast<std::uint32_t>(rows - 1 - row);
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
  // Optional (extent 0: not kept): row_of(i) = the input row now at row i,
  // swapped with the rows; the blocked algorithm reads its pivots' sources.
  pivots_type row_of;
  // Pivots are searched in columns [0, pivot_columns); the columns after them
  // only follow the row operations.
  int pivot_columns = 0;
  int marker_column = -1;   // >= 0: the r-th pivot row gets a 1 in column marker_column + r
  int column = 0;           // k, the first column of the pair (set per launch)
  bool has_second = false;  // whether column k+1 exists
  int slot = 0;             // 0: column k, 1: column k+1 (set per launch)

  // One team: find the pivot of column k + slot among rows [next_row, m),
  // then one thread records the decision in the state.
  struct SelectPivot {};
  KOKKOS_INLINE_FUNCTION void operator()(SelectPivot, const team_member& team) const {
    const int c = column + slot;
    const int first = state().next_row;
    std::uint64_t best = 0;
    if (slot == 0 || has_second) {
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, first, rows),
          [&](const int i, std::uint64_t& key) {
            const std::uint64_t k = pivot_key(f, a(i, c), i, rows);
            if (k > key) key = k;
          },
          Kokkos::Max<std::uint64_t>(best));
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      RrefState<T>& s = state();
      const int source = rows - 1 - static_cast<int>(best & 0xffffffffu);
      const bool exists = slot == 0 || has_second;
      if (exists && first < rows && !f.is_zero(a(source, c))) {
        s.found[slot] = 1;
        s.pivot_row[slot] = first;
        s.source_row[slot] = source;
        s.inverse[slot] = f.inv(a(source, c));
        pivots(first) = c;
        s.next_row = first + 1;
      } else {
        s.found[slot] = 0;
      }
      if (slot == 1) s.p_next = s.found[0] && has_second ? a(s.pivot_row[0], c) : f.zero();
    });
  }

  // Columns j >= k: move the slot's pivot row into place; slot 0 also scales
  // it to 1 (slot 1's row is finished by ComputeQ).
  struct SwapRows {};
  KOKKOS_INLINE_FUNCTION void operator()(SwapRows, const int j) const {
    const RrefState<T>& s = state();
    if (!s.found[slot]) return;
    const int to = s.pivot_row[slot], from = s.source_row[slot];
    const T moving = marker_column >= 0 && j == marker_column + to ? f.one() : a(from, j);
    if (from != to) a(from, j) = a(to, j);
    if (j == column && from != to && row_of.extent(0) != 0) {
      const int input = row_of(from);
      row_of(from) = row_of(to);
      row_of(to) = input;
    }
    if (slot == 0) {
      a(to, j) = j == column ? f.one() : f.mul(moving, s.inverse[0]);
    } else {
      a(to, j) = moving;
    }
  }

  // Rows i != P: column k+1 <- column k+1 - a(i,k) * P(k+1), the values the
  // pivot search of column k+1 needs; column k keeps a(i,k) for the fused pass.
  struct LookAhead {};
  KOKKOS_INLINE_FUNCTION void operator()(LookAhead, const int i) const {
    const RrefState<T>& s = state();
    if (!s.found[0] || i == s.pivot_row[0]) return;
    const T factor = a(i, column);
    if (factor == f.zero()) return;
    a(i, column + 1) = RowUpdate<F>(f, factor)(a(i, column + 1), a(s.pivot_row[0], column + 1));
  }

  // Columns j > k: Q <- (Q - a(Q,k) * P) / pivot_Q, with Q(k+1) = 1.
  struct ComputeQ {};
  KOKKOS_INLINE_FUNCTION void operator()(ComputeQ, const int j) const {
    const RrefState<T>& s = state();
    if (!s.found[1]) return;
    const int q = s.pivot_row[1];
    if (j == column + 1) {
      a(q, j) = f.one();
      return;
    }
    T value = a(q, j);
    if (s.found[0]) value = RowUpdate<F>(f, a(q, column))(value, a(s.pivot_row[0], j));
    a(q, j) = f.mul(value, s.inverse[1]);
  }

  // One team per row other than P and Q: row <- row - f * P - g * Q over
  // columns > k+1, then clear its entries in columns k and k+1. Rows with
  // f = g = 0 return at once (Linac's sparsity gain).
  struct Eliminate {};
  KOKKOS_INLINE_FUNCTION void operator()(Eliminate, const team_member& team) const {
    const int i = team.league_rank();
    const RrefState<T> s = state();
    const bool use_p = s.found[0] != 0, use_q = s.found[1] != 0;
    if (use_p && i == s.pivot_row[0]) return;
    if (use_q && i == s.pivot_row[1]) {  // Q is done but for its column-k entry
      if (use_p) Kokkos::single(Kokkos::PerTeam(team), [&]() { a(i, column) = f.zero(); });
      return;
    }
    const T fp = use_p ? a(i, column) : f.zero();
    const T fq = use_q ? a(i, column + 1) : f.zero();
    if (fp == f.zero() && fq == f.zero()) return;
    const RowUpdate<F> by_p(f, fp), by_q(f, fq);
    const int p = use_p ? s.pivot_row[0] : 0, q = use_q ? s.pivot_row[1] : 0;
    auto updated = [&](const T& y, const int j) {
      T v = y;
      if (use_p) v = by_p(v, a(p, j));
      if (use_q) v = by_q(v, a(q, j));
      return v;
    };
    const int begin = column + 2;
    if constexpr (on_host) {
      // Host backends: a plain loop the compiler can vectorise.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, begin, cols),
                           [&](const int j) { a(i, j) = updated(a(i, j), j); });
    } else {
      // GPUs: each thread updates `unroll` entries a team-width apart per
      // step, loading them all first so several loads are in flight; the
      // accesses stay coalesced across the team.
      constexpr int unroll = 4;
      const int width = team.team_size();
      const int stride = unroll * width;
      const int steps = (cols - begin + stride - 1) / stride;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 0, width), [&](const int lane) {
        for (int step = 0; step < steps; ++step) {
          const int base = begin + step * stride + lane;
          T y[unroll];
          for (int u = 0; u < unroll; ++u) {
            const int j = base + u * width;
            if (j < cols) y[u] = a(i, j);
          }
          for (int u = 0; u < unroll; ++u) {
            const int j = base + u * width;
            if (j < cols) a(i, j) = updated(y[u], j);
          }
        }
      });
    }
    team.team_barrier();  // every thread has read a(i,k), a(i,k+1) before they are cleared
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      if (use_p) a(i, column) = f.zero();
      if (use_q) a(i, column + 1) = f.zero();
    });
  }

  // Columns j > k: P <- P - P(k+1) * Q, clearing P(k+1).
  struct FinishP {};
  KOKKOS_INLINE_FUNCTION void operator()(FinishP, const int j) const {
    const RrefState<T>& s = state();
    if (!s.found[0] || !s.found[1]) return;
    const int p = s.pivot_row[0];
    a(p, j) = j == column + 1 ? f.zero() : RowUpdate<F>(f, s.p_next)(a(p, j), a(s.pivot_row[1], j));
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
