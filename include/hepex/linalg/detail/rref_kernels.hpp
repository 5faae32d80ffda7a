#pragma once
// The kernels of the unblocked reduction (Linac section 3.2, reworked so that
// a column pair costs two launches): columns are taken two at a time, so that
// each pass over the matrix applies two pivots (Linac's kernel is memory-
// bandwidth bound), and rows never move: a pivot row stays where it was found
// and is only marked (pivot_of_row), so no kernel swaps rows. The host
// launches the kernels pass by pass and never reads the matrix or the state
// in between: whether a column has a pivot lives in device memory.
//
// For the pass over columns k and k+1, with P~ and Q~ the rows found for
// them as they stand (unscaled), P = P~ / P~(k) and, for every row i, the
// "look-ahead" value g_i = a(i,k+1) - a(i,k) P(k+1) (column k+1 once column k
// is eliminated), Q's pivot is g_Q and two Gauss-Jordan steps are
//   Q <- (Q~ - Q~(k) P) / g_Q,   P <- P - P(k+1) Q,
//   row_i <- row_i - a(i,k) P - g_i Q                    (every other row).
// Written with the unscaled rows, the last is one fused update
//   row_i <- row_i - alpha_i P~ - beta_i Q~,
//   alpha_i = a(i,k)/P~(k) - g_i Q~(k)/(P~(k) g_Q),  beta_i = g_i / g_Q,
// so the other rows need not wait for P and Q to be finished. A pass is
//   Eliminate:        every row but P and Q, from P~ and Q~;
//   FinishAndSelect:  P and Q finished, and in the same launch one team
//                     choosing the next pass's pivots (their columns are up
//                     to date once Eliminate is done; the pass state is kept
//                     per pass parity so the two passes do not share it).
// Pivots: over Z/p the first free row (lowest index) with a non-zero entry,
// over floating point the free row of largest magnitude (ties: lowest row).
//
// The blocked algorithm (rref_blocked.hpp) reduces a panel S with a zero
// block Y to its right: pivots are searched in S's columns only
// (pivot_columns), and the r-th pivot row gets a 1 in Y's column r when it
// is chosen (marker_column). That is the same as reducing [S | E] with E
// holding those 1s from the start: until row r is a pivot no row operation
// has used it as a source, so its entry in Y's column r is still 1 and every
// other row's is 0. Hence Y ends as the reduction's transform restricted to
// the pivot rows: Y[0:k, 0:k] = M^-1 for M = S[pivot rows, pivot columns],
// both in pivot order. Y's columns past the pivots found so far are zero in
// every row, so a pass updates them not.

#include <cstdint>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/linalg/row_update.hpp"

namespace hepex::linalg::detail {

// The decisions of one pass (columns k and k+1); see the formulas above.
template <class T>
struct RrefPass {
  int found_p, found_q;  // whether columns k and k+1 have pivots
  int row_p, row_q;      // their rows
  T inv_p, inv_q;        // 1 / P~(k) and 1 / g_Q; 0 where not found
  T p_next;              // P(k+1); 0 where P is not found
  T q_share;             // Q~(k) / P~(k): P~'s share in Q
  T c_q;                 // q_share / g_Q: P~'s share in beta's row, in alpha
  int end;               // the pass updates columns < end
};

template <class T>
struct RrefState {
  int rank;             // pivots found so far
  int scan_from;        // every row below it is a pivot row (Z/p search start)
  RrefPass<T> pass[2];  // by pass parity (column / 2 mod 2)
};

// Pivot choice as one 64-bit key, so a plain Max reduction picks it and ties
// go to the lowest row on every backend: high word = magnitude (|a| rounded
// to float, whose bit pattern orders like the value), low word = m - 1 - row.
template <class F>
KOKKOS_INLINE_FUNCTION std::uint64_t pivot_key(const typename F::value_type& a, int row, int rows) {
  const float m = static_cast<float>(F::magnitude(a));
  const std::uint32_t magnitude = compat::bit_cast<std::uint32_t>(m);
  return (static_cast<std::uint64_t>(magnitude) << 32) | static_cast<std::uint32_t>(rows - 1 - row);
}

template <class F, class ExecSpace>
struct RrefKernels {
  using T = typename F::value_type;
  using memory_space = typename ExecSpace::memory_space;
  using matrix_type = Kokkos::View<T**, Kokkos::LayoutRight, memory_space>;
  using state_type = Kokkos::View<RrefState<T>, memory_space>;
  using ints_type = Kokkos::View<int*, memory_space>;
  using team_member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr bool on_host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
  // FinishAndSelect: columns per finishing team.
  static constexpr int finish_chunk = 512;

  F f;
  matrix_type a;
  state_type state;
  ints_type pivot_of_row;  // -1: free; r: the row of pivot r
  ints_type row_of_pivot;  // the row of pivot r
  ints_type pivots;        // the column of pivot r
  int rows, cols;
  // Pivots are searched in columns [0, pivot_columns); the columns after them
  // only follow the row operations.
  int pivot_columns = 0;
  int marker_column = -1;  // >= 0: the r-th pivot row gets a 1 in column marker_column + r
  int column = -1;         // k of the pass to eliminate or finish (-1: none)
  int next = -1;           // k of the pass whose pivots to choose (-1: none)

  static KOKKOS_INLINE_FUNCTION int parity(int k) { return (k / 2) & 1; }
  KOKKOS_INLINE_FUNCTION bool has_second(int k) const { return k + 1 < pivot_columns; }

  // One team per row other than P and Q: the fused update over columns
  // [k+2, end), then columns k and k+1. Rows with alpha = beta = 0 are left
  // as they are (Linac's sparsity gain).
  struct Eliminate {};
  KOKKOS_INLINE_FUNCTION void operator()(Eliminate, const team_member& team) const {
    const int i = team.league_rank();
    const int k = column;
    const RrefPass<T> s = state().pass[parity(k)];
    const bool use_p = s.found_p != 0, use_q = s.found_q != 0, second = has_second(k);
    if (!use_p && !use_q) return;
    if ((use_p && i == s.row_p) || (use_q && i == s.row_q)) return;
    const T ak = a(i, k);
    const T g = second ? RowUpdate<F>(f, s.p_next)(a(i, k + 1), ak) : f.zero();
    const T alpha = f.sub(f.mul(ak, s.inv_p), f.mul(g, s.c_q));
    const T beta = f.mul(g, s.inv_q);
    if (alpha == f.zero() && beta == f.zero()) return;  // then a(i,k) = a(i,k+1) = 0 already
    const RowUpdate<F> by_p(f, alpha), by_q(f, beta);
    const int p = use_p ? s.row_p : 0, q = use_q ? s.row_q : 0;
    auto updated = [&](const T& y, const int j) {
      T v = y;
      if (use_p) v = by_p(v, a(p, j));
      if (use_q) v = by_q(v, a(q, j));
      return v;
    };
    const int begin = second ? k + 2 : k + 1, end = s.end;
    if constexpr (on_host) {
      // Host backends: a plain loop the compiler can vectorise.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, begin, end),
                           [&](const int j) { a(i, j) = updated(a(i, j), j); });
    } else {
      // GPUs: each thread updates `unroll` entries a team-width apart per
      // step, loading them all first so several loads are in flight; the
      // accesses stay coalesced across the team.
      constexpr int unroll = 4;
      const int width = team.team_size();
      const int stride = unroll * width;
      const int steps = (end - begin + stride - 1) / stride;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 0, width), [&](const int lane) {
        for (int step = 0; step < steps; ++step) {
          const int base = begin + step * stride + lane;
          T y[unroll];
          for (int u = 0; u < unroll; ++u) {
            const int j = base + u * width;
            if (j < end) y[u] = a(i, j);
          }
          for (int u = 0; u < unroll; ++u) {
            const int j = base + u * width;
            if (j < end) a(i, j) = updated(y[u], j);
          }
        }
      });
    }
    team.team_barrier();  // every thread has read a(i,k) before it is written
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      if (use_p) a(i, k) = f.zero();
      if (second) a(i, k + 1) = use_q ? f.zero() : g;
    });
  }

  // Team 0 chooses the pivots of pass `next`; teams 1, 2, ... finish P and Q
  // of pass `column`, finish_chunk columns each. The two touch different
  // rows (P and Q are no longer free) and different pass states.
  struct FinishAndSelect {};
  KOKKOS_INLINE_FUNCTION void operator()(FinishAndSelect, const team_member& team) const {
    if (team.league_rank() == 0) {
      if (next >= 0) select(team, next);
      return;
    }
    const int k = column;
    const RrefPass<T> s = state().pass[parity(k)];
    const int from = k + (team.league_rank() - 1) * finish_chunk;
    const int to = from + finish_chunk < s.end ? from + finish_chunk : s.end;
    const bool second = has_second(k);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, from, to), [&](const int j) {
      const T p_tilde = s.found_p ? a(s.row_p, j) : f.zero();
      T q = f.zero();
      if (s.found_q) {
        q = f.mul(RowUpdate<F>(f, s.q_share)(a(s.row_q, j), p_tilde), s.inv_q);
        if (j == k && s.found_p) q = f.zero();
        if (j == k + 1) q = f.one();
        a(s.row_q, j) = q;
      }
      if (s.found_p) {
        T p = RowUpdate<F>(f, s.p_next)(f.mul(p_tilde, s.inv_p), q);
        if (j == k) p = f.one();
        if (second && j == k + 1) p = s.found_q ? f.zero() : s.p_next;
        a(s.row_p, j) = p;
      }
    });
  }

  // The first free row with a non-zero value(i) over Z/p (scanning a team's
  // width of rows at a time from scan_from: random matrices find it in the
  // first), the free row of largest magnitude over floating point; -1 if none.
  template <class Value>
  KOKKOS_INLINE_FUNCTION int find_pivot(const team_member& team, const Value& value) const {
    if constexpr (F::is_exact) {
      const int width = team.team_size();
      for (int base = state().scan_from; base < rows; base += width) {
        int best = rows;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, base, base + width < rows ? base + width : rows),
            [&](const int i, int& b) {
              if (i < b && pivot_of_row(i) < 0 && !f.is_zero(value(i))) b = i;
            },
            Kokkos::Min<int>(best));
        if (best < rows) return best;
      }
      return -1;
    } else {
      std::uint64_t best = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, 0, rows),
          [&](const int i, std::uint64_t& key) {
            if (pivot_of_row(i) >= 0) return;
            const std::uint64_t candidate = pivot_key<F>(value(i), i, rows);
            if (candidate > key) key = candidate;
          },
          Kokkos::Max<std::uint64_t>(best));
      const int i = rows - 1 - static_cast<int>(best & 0xffffffffu);
      return best != 0 && !f.is_zero(value(i)) ? i : -1;
    }
  }

  // Records row i as the next pivot row, for column c.
  KOKKOS_INLINE_FUNCTION void record_pivot(RrefState<T>& s, int i, int c) const {
    pivot_of_row(i) = s.rank;
    row_of_pivot(s.rank) = i;
    pivots(s.rank) = c;
    if (marker_column >= 0) a(i, marker_column + s.rank) = f.one();
    ++s.rank;
    if (i == s.scan_from) s.scan_from = i + 1;
  }

  // The pivots of the pass over columns k and k+1, into its state.
  KOKKOS_INLINE_FUNCTION void select(const team_member& team, int k) const {
    const bool second = has_second(k);
    const int p = find_pivot(team, [&](const int i) { return a(i, k); });
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      RrefState<T>& s = state();
      RrefPass<T>& pass = s.pass[parity(k)];
      pass.found_p = p >= 0;
      pass.row_p = p;
      pass.inv_p = p >= 0 ? f.inv(a(p, k)) : f.zero();
      pass.p_next = p >= 0 && second ? f.mul(a(p, k + 1), pass.inv_p) : f.zero();
      if (p >= 0) record_pivot(s, p, k);
    });
    team.team_barrier();  // the state and P's mark are visible to the team
    int q = -1;
    if (second) {
      const T p_next = state().pass[parity(k)].p_next;
      q = find_pivot(team,
                     [&](const int i) { return RowUpdate<F>(f, p_next)(a(i, k + 1), a(i, k)); });
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      RrefState<T>& s = state();
      RrefPass<T>& pass = s.pass[parity(k)];
      pass.found_q = q >= 0;
      pass.row_q = q;
      pass.q_share = q >= 0 ? f.mul(a(q, k), pass.inv_p) : f.zero();
      pass.inv_q = q >= 0 ? f.inv(RowUpdate<F>(f, pass.p_next)(a(q, k + 1), a(q, k))) : f.zero();
      pass.c_q = f.mul(pass.q_share, pass.inv_q);
      if (q >= 0) record_pivot(s, q, k + 1);
      pass.end = marker_column >= 0 ? marker_column + s.rank : cols;
    });
  }
};

// Floating point only: divide every row by its largest magnitude (Linac's
// CudaSetRowScales + CudaRescaleRows), so one absolute tolerance fits all rows.
template <class F, class ExecSpace>
struct RescaleRows {
  using T = typename F::value_type;
  using team_member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<T**, Kokkos::LayoutRight, typename ExecSpace::memory_space> a;

  KOKKOS_INLINE_FUNCTION void operator()(const team_member& team) const {
    const int i = team.league_rank();
    const int cols = static_cast<int>(a.extent(1));
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
