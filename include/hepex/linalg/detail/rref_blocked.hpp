#pragma once
// Blocked Gauss-Jordan reduction, the trailing work as matrix products (the
// FFLAS-FFPACK family: Dumas, Pernet, Sultan, "Simultaneous computation of
// the row and column rank profiles", ISSAC 2013; Jeannerod, Pernet,
// Storjohann, "Rank-profile revealing Gaussian elimination and the CUP
// matrix decomposition", JSC 2013; here in Gauss-Jordan form, which yields
// the RREF directly).
//
// Rows stay where they are until the end; pivot_of_row(i) = t >= 0 marks
// row i as the row of pivot t, -1 as free. Two passes, as LU followed by a
// triangular solve, which is 2/3 of Gauss-Jordan's work on a square matrix
// of full rank (n^3/3 multiply-adds against n^3/2).
//
// Forward, for each panel of b columns [c, c + b), the free rows up to date
// from column c on:
//  1. S = the panel's entries in the free rows. Its reduction (recursively
//     by this algorithm with panels of b/2, down to the unblocked kernel)
//     gives its rank k, its pivot columns J (the column rank profile), the
//     free rows I whose span holds every free row's panel part, and their
//     reduced panel part. Only these are used: S's other rows are dropped.
//     So over Z/p the panel is first reduced in its first b + e free rows
//     alone (panel_sample_rows, e = max(4, b/16)): when they have rank b,
//     so has S, J is every column and any b independent rows are an I.
//     Otherwise S is reduced whole. On a random matrix the sample almost
//     always has rank b (a lower one has probability about p^-(e+1)), and
//     the latency-bound passes of the panel's reduction run over b + e rows
//     instead of all free rows. Floating-point panels are reduced whole:
//     their pivots are chosen for size among all rows.
//  2. M = A[I, J] (k x k) is invertible; right of the panel, X = A[:, c+b:n]:
//       rows I:          X_I <- R = M^-1 X_I               (new pivot rows)
//       other free rows: X_i <- X_i - A[i, J] R             (one product)
//     A free row's panel part becomes 0: it lies in the span of the rows I
//     there, and its J-coordinates fix the combination. M^-1 comes with the
//     panel's reduction: a zero block Y beside the panel, in which each
//     pivot row gets a 1 when it is chosen, ends holding it
//     (rref_kernels.hpp says why; the recursive reduction keeps Y as columns
//     right of its panels and marks its pivot rows the same way). Both are
//     block products (block_product.hpp), where almost all of the forward
//     work goes. Pivot rows of earlier panels are left as they are.
//  3. Entries the algebra makes exactly 0 or 1 in the panel are written as
//     such (exact over Z/p anyway; it removes rounding noise for floats).
// Back (back_substitute): each pivot row is reduced against the later
// pivots, panel by panel from the last, in the non-pivot columns only (the
// pivot columns' entries are known: 1 and 0); then the rows are written in
// pivot order. The host reads back the free-row count and the panel's rank
// and pivots: one synchronisation per panel, none per column. The scratch
// matrices live in workspaces that only grow, one per recursion depth (a
// panel's reduction runs while its caller's matrices are live): allocating
// them per panel cost a device synchronisation per allocation on a GPU and
// a page fault per page on the host.

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/linalg/detail/block_product.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"
#include "hepex/linalg/detail/rref_unblocked.hpp"

namespace hepex::linalg::detail {

// Columns per product of the free rows' update (eliminate_free_rows):
// `chunk` (0: all of them), and never so many that C has more than
// max_product_entries entries. The int8 method's scratch takes about 36
// bytes per entry of C (its residue planes): at n = 65536 a product of all
// the columns asked the H100 for 144 GiB.
inline constexpr std::int64_t max_product_entries = std::int64_t{1} << 29;
inline int product_columns(int chunk, std::int64_t rows, int right) {
  const std::int64_t wanted = chunk > 0 ? std::min(chunk, right) : right;
  const std::int64_t fitting = max_product_entries / std::max<std::int64_t>(rows, 1);
  return static_cast<int>(std::max<std::int64_t>(1, std::min(wanted, fitting)));
}

template <class ExecSpace, class F>
class BlockedRref {
 public:
  using T = typename F::value_type;
  using Memory = typename ExecSpace::memory_space;
  using Mat = DeviceMatrix<T, Memory>;
  using Ints = Kokkos::View<int*, Memory>;

  BlockedRref(const ExecSpace& space, const F& field, int leaf_columns, int chunk_columns,
              bool inverse_beside, bool sample_panels = true)
      : space_(space),
        f_(field),
        leaf_(leaf_columns),
        chunk_(chunk_columns),
        inverse_beside_(inverse_beside),
        sample_panels_(sample_panels) {}

  // Reduces `a` (rows, cols >= 1) in place to its RREF: panels of `block`
  // columns, or the unblocked kernel when block <= leaf or a is at most
  // `block` wide. On return row_of(r) (extent rows) is the input row that
  // became pivot row r, for r < rank.
  RrefResult reduce(const Mat& a, const Ints& row_of, int block, ProgressTask* task) {
    const int n = static_cast<int>(a.extent(1));
    if (unblocked(block, n)) return rref_unblocked(space_, f_, a, task, row_of);
    return blocked(a, row_of, block, task, 0, n, -1);
  }

  // Whether reduce takes the unblocked kernel for this width and block.
  bool unblocked(int block, int columns) const { return block <= leaf_ || columns <= block; }

  // The blocked path of reduce (the steps above), pivots searched in the
  // first pivot_columns columns; with marker_column >= 0 the r-th pivot row
  // gets a 1 in column marker_column + r when it is chosen (before it is
  // used), as in the unblocked kernel (rref_kernels.hpp), so that a zero
  // block there ends holding M^-1. Public, like the next functions: nvcc
  // refuses device lambdas in private member functions.
  RrefResult blocked(const Mat& a, const Ints& row_of, int block, ProgressTask* task, int depth,
                     int pivot_columns, int marker_column) {
    const int m = static_cast<int>(a.extent(0)), n = static_cast<int>(a.extent(1));
    const F f = f_;
    auto& scratch = scratch_at(depth);
    Ints pivot_of_row("hepex::rref::pivot_of_row", m), free_rows("hepex::rref::free_rows", m);
    Kokkos::deep_copy(space_, pivot_of_row, -1);
    RrefResult result;
    result.blocked = true;
    std::vector<Panel> panels;
    int count = list_free_rows(pivot_of_row, free_rows);
    for (int c = 0; c < pivot_columns && count > 0; c += block) {
      const int w = std::min(block, pivot_columns - c), rank = static_cast<int>(result.rank);
      // 1. The panel restricted to the free rows (or first to a sample of
      // them), reduced in place by the unblocked kernel or recursively with
      // panels of half the width. With a zero block Y beside it (always
      // beside a sample, which is about k rows: Y costs less there than the
      // separate reduction; elsewhere when inverse_beside_), Y ends holding
      // M^-1 (reduce_in_place and blocked with a marker column), else M^-1
      // comes afterwards from the k x 2k reduction of [M | 1].
      const int sample = panel_sample_rows(count, w);
      PanelReduction reduced = reduce_panel(a, free_rows, sample, count, c, w, block, depth);
      if (sample < count && static_cast<int>(reduced.panel.rank) < w) {
        reduced = reduce_panel(a, free_rows, count, count, c, w, block, depth);
      }
      const Mat s = reduced.s;
      const bool in_place = reduced.in_place, with_y = reduced.with_y;
      const Ints source = reduced.source;  // source(t): the panel row of pivot t
      const RrefResult& panel = reduced.panel;
      const int k = static_cast<int>(panel.rank);
      if (k > 0) {
        // The pivots' rows I and columns J; each row of I becomes pivot
        // rank + t, with its marker.
        Ints columns("hepex::rref::panel_pivots", k), rows("hepex::rref::pivot_rows", k);
        auto host_columns = Kokkos::create_mirror_view(columns);
        for (int t = 0; t < k; ++t) host_columns(t) = c + panel.pivots[t];
        Kokkos::deep_copy(space_, columns, host_columns);
        Kokkos::parallel_for(
            "hepex::rref::mark_pivot_rows", Kokkos::RangePolicy<ExecSpace>(space_, 0, k),
            KOKKOS_LAMBDA(const int t) {
              rows(t) = free_rows(source(t));
              pivot_of_row(rows(t)) = rank + t;
              if (marker_column >= 0) a(rows(t), marker_column + rank + t) = f.one();
            });
        Mat inverse;
        if (with_y) {
          inverse = scratch.template matrix<T>(inverse_slot, k, k);
          const Mat y = inverse;
          for_each_entry(
              "hepex::rref::inverse_beside_panel", space_, k, k,
              KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t u) {
                y(t, u) = s(in_place ? source(t) : static_cast<int>(t), w + u);
              });
        } else {
          inverse = inverse_of_pivot_block(a, rows, columns, k, depth);
        }
        count = list_free_rows(pivot_of_row, free_rows);
        // 2. Right of the panel up to the last non-zero column (the marker
        // block's columns past the pivots so far are zero), R = M^-1 A[I, .];
        // then the free rows there += -A[free, J] R, their panel part zero.
        const int end = marker_column >= 0 ? marker_column + rank + k : n;
        const int right = end - (c + w);
        const Mat x_rows = scratch.template matrix<T>(pivot_rows_slot, k, right),
                  r = scratch.template matrix<T>(new_rows_slot, k, right);
        if (right > 0) {
          for_each_entry(
              "hepex::rref::gather_pivot_rows", space_, k, right,
              KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t j) {
                x_rows(t, j) = a(rows(t), c + w + j);
              });
          block_product(space_, f_, ConstMat(inverse), ConstMat(x_rows), r, false, workspace_);
        }
        if (count > 0) eliminate_free_rows(a, free_rows, count, columns, r, c, w, depth);
        // 3. The new pivot rows: in the panel, the panel's reduced rows with
        // exact zeros left of the pivot; right of it, R.
        for_each_entry(
            "hepex::rref::scatter_pivot_rows", space_, k, w + right,
            KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t j) {
              T value;
              if (j >= w) {
                value = r(t, j - w);
              } else if (c + j < columns(t)) {
                value = f.zero();
              } else {
                value = s(in_place ? source(t) : static_cast<int>(t), j);
              }
              a(rows(t), c + j) = value;
            });
        panels.push_back({rank, k});
        for (int t = 0; t < k; ++t) result.pivots.push_back(c + panel.pivots[t]);
        result.rank += static_cast<std::size_t>(k);
      }
      // A panel done: an interruption is seen here, and a report when due.
      if (task == nullptr) {
        interruption_point();
      } else if (task->report_due()) {
        space_.fence();
        const double left = double(n - (c + w)) / n;
        task->update(c + w, 1 - left * left);
      }
    }
    Kokkos::parallel_for(
        "hepex::rref::pivot_sources", Kokkos::RangePolicy<ExecSpace>(space_, 0, m),
        KOKKOS_LAMBDA(const int i) {
          if (pivot_of_row(i) >= 0) row_of(pivot_of_row(i)) = i;
        });
    back_substitute(a, row_of, result.pivots, panels, depth);
    space_.fence();
    return result;
  }

  // Step 1's sample (see the top of this file): the first free rows that
  // the panel is tried on, or all of them (floating point, few rows).
  int panel_sample_rows(int count, int w) const {
    if constexpr (!F::is_exact) return count;
    const int extra = std::max(4, w / 16);
    return sample_panels_ && count - w > 2 * extra ? w + extra : count;
  }

  // Step 1 on the panel's columns [c, c + w) in the first `rows` free rows:
  // S (with the zero block Y beside it when inverse_beside_ or when `rows`
  // is a sample of `count`) reduced in place, by the unblocked kernel or
  // recursively.
  struct PanelReduction {
    Mat s;
    Ints source;  // source(t): the row of S of pivot t
    RrefResult panel;
    bool in_place;  // by the unblocked kernel: pivot t in row source(t), else in row t
    bool with_y;    // S holds Y, and Y M^-1 in its pivot rows
  };
  PanelReduction reduce_panel(const Mat& a, const Ints& free_rows, int rows, int count, int c,
                              int w, int block, int depth) {
    const F f = f_;
    const bool in_place = unblocked(block / 2, w), with_y = inverse_beside_ || rows < count;
    const int panel_width = with_y ? 2 * w : w;
    PanelReduction reduced;
    reduced.in_place = in_place;
    reduced.with_y = with_y;
    const Mat s = scratch_at(depth).template matrix<T>(panel_slot, rows, panel_width);
    for_each_entry(
        "hepex::rref::gather_panel", space_, rows, panel_width,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          s(i, j) = j < w ? a(free_rows(i), c + j) : f.zero();
        });
    reduced.s = s;
    if (in_place) {
      auto reduction = reduce_in_place(space_, f_, s, nullptr, w, with_y ? w : -1);
      reduced.panel = reduction.result;
      reduced.source = reduction.row_of_pivot;
    } else {
      reduced.source = Ints("hepex::rref::panel_rows", rows);
      reduced.panel = blocked(s, reduced.source, block / 2, nullptr, depth + 1, w, with_y ? w : -1);
    }
    return reduced;
  }

  // M^-1 for M = A[rows, columns] (k x k, invertible) from the reduction of
  // [M | 1_k] in place: pivot t's row holds row t of M^-1 on the right.
  Mat inverse_of_pivot_block(const Mat& a, const Ints& rows, const Ints& columns, int k,
                             int depth) {
    const F f = f_;
    auto& scratch = scratch_at(depth);
    const Mat augmented = scratch.template matrix<T>(augmented_slot, k, 2 * k);
    for_each_entry(
        "hepex::rref::gather_pivot_block", space_, k, 2 * k,
        KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t u) {
          augmented(t, u) = u < k ? a(rows(t), columns(u)) : (u - k == t ? f.one() : f.zero());
        });
    const auto reduction = reduce_in_place(space_, f_, augmented, nullptr, k);
    if (reduction.result.rank != static_cast<std::size_t>(k)) {
      throw Error(
          "rref (blocked): a panel's pivot block is singular (floating-point pivots "
          "too small for the tolerance?); use RrefOptions::block_columns = -1");
    }
    const Ints row_of_pivot = reduction.row_of_pivot;
    const Mat inverse = scratch.template matrix<T>(inverse_slot, k, k);
    for_each_entry(
        "hepex::rref::pivot_inverse", space_, k, k,
        KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t u) {
          inverse(t, u) = augmented(row_of_pivot(t), k + u);
        });
    return inverse;
  }

  // A panel with pivots, as the back substitution needs it: its pivots'
  // numbers [first, first + count).
  struct Panel {
    int first, count;
  };

  // The back substitution. After the forward pass a pivot row is reduced
  // against the pivots of its own and earlier panels only. With U the pivot
  // rows' entries in the non-pivot columns, in pivot order, the panels from
  // the last one on take U[panel] -= A[panel's rows, later pivot columns]
  // U[later pivots] (a block triangular solve, FFPACK's U1^-1 U2 for the
  // reduced form). The RREF is then 1 and 0 in the pivot columns and U in
  // the others, written over `a` with zero rows below. A full-rank square
  // matrix has no non-pivot column and needs no product here.
  void back_substitute(const Mat& a, const Ints& row_of, const std::vector<int>& pivots,
                       const std::vector<Panel>& panels, int depth) {
    const F f = f_;
    const int m = static_cast<int>(a.extent(0)), n = static_cast<int>(a.extent(1));
    const int rank = static_cast<int>(pivots.size()), others = n - rank;
    // slot_of_column(j): t for the t-th pivot column, -1 - v for the v-th other.
    Ints slot_of_column("hepex::rref::slot_of_column", n),
        other_columns("hepex::rref::other_columns", others),
        pivot_columns("hepex::rref::pivot_columns", rank);
    {
      auto slot = Kokkos::create_mirror_view(slot_of_column);
      auto other = Kokkos::create_mirror_view(other_columns);
      auto pivot = Kokkos::create_mirror_view(pivot_columns);
      int t = 0, v = 0;
      for (int j = 0; j < n; ++j) {
        if (t < rank && pivots[static_cast<std::size_t>(t)] == j) {
          pivot(t) = j;
          slot(j) = t++;
        } else {
          other(v) = j;
          slot(j) = -1 - v++;
        }
      }
      Kokkos::deep_copy(space_, slot_of_column, slot);
      Kokkos::deep_copy(space_, other_columns, other);
      Kokkos::deep_copy(space_, pivot_columns, pivot);
    }
    auto& scratch = scratch_at(depth);
    const Mat u = scratch.template matrix<T>(trailing_slot, rank, others);
    if (rank > 0 && others > 0) {
      for_each_entry(
          "hepex::rref::gather_other_columns", space_, rank, others,
          KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t v) {
            u(t, v) = a(row_of(t), other_columns(v));
          });
      for (auto p = panels.rbegin(); p != panels.rend(); ++p) {
        const int first = p->first, later = p->first + p->count;
        if (later == rank) continue;
        const Mat factors = scratch.template matrix<T>(factors_slot, p->count, rank - later);
        for_each_entry(
            "hepex::rref::gather_back_factors", space_, p->count, rank - later,
            KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t s) {
              factors(t, s) = f.neg(a(row_of(first + t), pivot_columns(later + s)));
            });
        const Mat mine(u.data() + static_cast<std::size_t>(first) * others, p->count, others);
        const ConstMat below(u.data() + static_cast<std::size_t>(later) * others, rank - later,
                             others);
        block_product(space_, f_, ConstMat(factors), below, mine, true, workspace_);
      }
    }
    for_each_entry(
        "hepex::rref::write_rref", space_, m, n,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          const int slot = slot_of_column(j);
          T value = f.zero();
          if (i < rank) value = slot >= 0 ? (slot == i ? f.one() : f.zero()) : u(i, -1 - slot);
          a(i, j) = value;
        });
  }

  // The rows still free, increasing, into free_rows; returns their count.
  int list_free_rows(const Ints& pivot_of_row, const Ints& free_rows) {
    int count = 0;
    Kokkos::parallel_scan(
        "hepex::rref::free_rows",
        Kokkos::RangePolicy<ExecSpace>(space_, 0, static_cast<int>(pivot_of_row.extent(0))),
        KOKKOS_LAMBDA(const int i, int& next, const bool last) {
          if (pivot_of_row(i) < 0) {
            if (last) free_rows(next) = i;
            ++next;
          }
        },
        count);
    return count;
  }

  // The free rows' update right of the panel, X <- X - A[free, J] R for
  // X = A[free, c+w:n], as block products over chunks of product_columns
  // columns, written into the rows in place where the product
  // can (RowSubset): on a CPU a chunk's scratch stays in cache and fresh
  // scratch memory, whose first touch is slow, stays small. Their panel part
  // is written as zero: it lies in the span of the pivot rows'.
  void eliminate_free_rows(const Mat& a, const Ints& free_rows, int count, const Ints& columns,
                           const Mat& r, int c, int w, int depth) {
    const F f = f_;
    const int k = static_cast<int>(r.extent(0)), right = static_cast<int>(r.extent(1));
    auto& scratch = scratch_at(depth);
    const Mat factors = scratch.template matrix<T>(factors_slot, count, k);
    for_each_entry(
        "hepex::rref::gather_factors", space_, count, k,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t t) {
          factors(i, t) = f.neg(a(free_rows(i), columns(t)));
        });
    const int chunk = product_columns(chunk_, count, right);
    workspace_.keep_left_operand(true);  // the factors, converted once for all chunks
    for (int first = 0; first < right; first += chunk) {
      const int width = std::min(chunk, right - first), from = c + w + first;
      Mat r_part = r;
      if (width < right) {
        r_part = scratch.template matrix<T>(rows_part_slot, k, width);
        const Mat rows_part = r_part;
        for_each_entry(
            "hepex::rref::gather_rows_part", space_, k, width,
            KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t j) {
              rows_part(t, j) = r(t, first + j);
            });
      }
      const RowSubset<T, Memory> x{a, Kokkos::subview(free_rows, Kokkos::make_pair(0, count)),
                                   from};
      block_product(space_, f_, ConstMat(factors), ConstMat(r_part), x, true, workspace_);
      interruption_point();
    }
    workspace_.keep_left_operand(false);
    for_each_entry(
        "hepex::rref::clear_panel", space_, count, w,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          a(free_rows(i), c + j) = f.zero();
        });
  }

  using ConstMat = ConstDeviceMatrix<T, Memory>;

 private:
  // Scratch slots of one depth.
  enum Slot {
    panel_slot,
    augmented_slot,
    inverse_slot,
    pivot_rows_slot,
    new_rows_slot,
    factors_slot,
    rows_part_slot,
    trailing_slot
  };
  static_assert(trailing_slot < GemmWorkspace<Memory>::slots);

  GemmWorkspace<Memory>& scratch_at(int depth) {
    while (static_cast<int>(scratch_.size()) <= depth) scratch_.emplace_back();
    return scratch_[static_cast<std::size_t>(depth)];
  }

  ExecSpace space_;
  F f_;
  int leaf_;
  int chunk_;            // columns per product of the free rows' update (0: all)
  bool inverse_beside_;  // unblocked panels carry the zero block Y for M^-1
  bool sample_panels_;   // step 1 tried on a sample of the free rows first (Z/p)
  GemmWorkspace<Memory> workspace_;
  std::deque<GemmWorkspace<Memory>> scratch_;  // per depth; a deque keeps references valid
};

}  // namespace hepex::linalg::detail
