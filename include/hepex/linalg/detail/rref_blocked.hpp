#pragma once
// Blocked Gauss-Jordan reduction, the trailing work as matrix products (the
// FFLAS-FFPACK family: Dumas, Pernet, Sultan, "Simultaneous computation of
// the row and column rank profiles", ISSAC 2013; Jeannerod, Pernet,
// Storjohann, "Rank-profile revealing Gaussian elimination and the CUP
// matrix decomposition", JSC 2013; here in Gauss-Jordan form, which yields
// the RREF directly).
//
// Rows stay where they are until the end; pivot_of_row(i) = t >= 0 marks
// row i as the row of pivot t, -1 as free. For each panel of b columns
// [c, c + b), with every column >= c up to date:
//  1. S = the panel's entries in the free rows. Its reduction (recursively
//     by this algorithm with panels of b/2, down to the unblocked kernel)
//     gives its rank k, its pivot columns J (the column rank profile) and
//     the free rows I whose span holds every free row's panel part.
//  2. M = A[I, J] (k x k) is invertible; with X = A[:, c:n]:
//       rows I:      X_I <- M^-1 X_I                         (new pivot rows)
//       other rows:  X_i <- X_i - A[i, J] M^-1 X_I            (one product)
//     For a free row i the panel part becomes 0: it lies in the span of X_I
//     there, and its J-coordinates fix the combination. M^-1 comes with the
//     panel's reduction when the unblocked kernel reduces it (a zero block
//     beside the panel, rref_kernels.hpp), else from the RREF of [M | 1_k].
//     Both updates are block products (block_product.hpp):
//     R = M^-1 X_I (k x k x (n-c)) and X += (-A[:, J] with rows I zeroed) R
//     (m x k x (n-c)), which is where almost all of the work goes.
//  3. Entries the algebra makes exactly 0 or 1 in the panel are written as
//     such (exact over Z/p anyway; it removes rounding noise for floats).
// At the end the pivot rows are gathered in pivot order (free rows are then
// zero). The host reads back the free-row count and the panel's rank and
// pivots: one synchronisation per panel, none per column. The scratch
// matrices live in workspaces that only grow, one per recursion depth (a
// panel's reduction runs while its caller's matrices are live): allocating
// them per panel cost a device synchronisation per allocation on a GPU and
// a page fault per page on the host.

#include <deque>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/linalg/detail/block_product.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"
#include "hepex/linalg/detail/rref_unblocked.hpp"

namespace hepex::linalg::detail {

template <class ExecSpace, class F>
class BlockedRref {
 public:
  using T = typename F::value_type;
  using Memory = typename ExecSpace::memory_space;
  using Mat = DeviceMatrix<T, Memory>;
  using Ints = Kokkos::View<int*, Memory>;

  BlockedRref(const ExecSpace& space, const F& field, int leaf_columns)
      : space_(space), f_(field), leaf_(leaf_columns) {}

  // Reduces `a` (rows, cols >= 1) in place to its RREF: panels of `block`
  // columns, or the unblocked kernel when block <= leaf or a is at most
  // `block` wide. On return row_of(r) (extent rows) is the input row that
  // became pivot row r, for r < rank.
  RrefResult reduce(const Mat& a, const Ints& row_of, int block, std::ostream* progress,
                    int depth = 0) {
    if (unblocked(block, static_cast<int>(a.extent(1)))) {
      rows_in_order(row_of);
      return rref_unblocked(space_, f_, a, row_of, progress);
    }
    return blocked(a, row_of, block, progress, depth);
  }

  // Whether reduce takes the unblocked kernel for this width and block.
  bool unblocked(int block, int columns) const { return block <= leaf_ || columns <= block; }

  void rows_in_order(const Ints& row_of) const {
    Kokkos::parallel_for(
        "hepex::rref::rows_in_order",
        Kokkos::RangePolicy<ExecSpace>(space_, 0, static_cast<int>(row_of.extent(0))),
        KOKKOS_LAMBDA(const int i) { row_of(i) = i; });
  }

  // The blocked path of reduce (the steps above). Public, like the next
  // function: nvcc refuses device lambdas in private member functions.
  RrefResult blocked(const Mat& a, const Ints& row_of, int block, std::ostream* progress,
                     int depth) {
    const int m = static_cast<int>(a.extent(0)), n = static_cast<int>(a.extent(1));
    const F f = f_;
    auto& scratch = scratch_at(depth);
    Ints pivot_of_row("hepex::rref::pivot_of_row", m), free_rows("hepex::rref::free_rows", m);
    Kokkos::deep_copy(space_, pivot_of_row, -1);
    RrefResult result;
    result.blocked = true;
    Kokkos::Timer timer;
    for (int c = 0; c < n && static_cast<int>(result.rank) < m; c += block) {
      const int w = std::min(block, n - c), width = n - c, rank = static_cast<int>(result.rank);
      // 1. The free rows (increasing), and the panel restricted to them.
      int count = 0;
      Kokkos::parallel_scan(
          "hepex::rref::free_rows", Kokkos::RangePolicy<ExecSpace>(space_, 0, m),
          KOKKOS_LAMBDA(const int i, int& next, const bool last) {
            if (pivot_of_row(i) < 0) {
              if (last) free_rows(next) = i;
              ++next;
            }
          },
          count);
      // A panel that goes straight to the unblocked kernel carries a zero
      // block Y of its width, which ends holding M^-1 (rref_kernels.hpp);
      // a panel reduced recursively has M^-1 computed afterwards.
      const bool with_inverse = unblocked(block / 2, w);
      const int panel_width = with_inverse ? 2 * w : w;
      const Mat s = scratch.template matrix<T>(panel_slot, count, panel_width);
      for_each_entry(
          "hepex::rref::gather_panel", space_, count, panel_width,
          KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
            s(i, j) = j < w ? a(free_rows(i), c + j) : f.zero();
          });
      Ints source("hepex::rref::panel_rows", count);
      RrefResult panel;
      if (with_inverse) {
        rows_in_order(source);
        panel = rref_unblocked(space_, f_, s, source, nullptr, w, w);
      } else {
        panel = reduce(s, source, block / 2, nullptr, depth + 1);
      }
      const int k = static_cast<int>(panel.rank);
      if (k > 0) {
        // The pivots' rows I and columns J; each row of I becomes pivot rank + t.
        Ints columns("hepex::rref::panel_pivots", k), rows("hepex::rref::pivot_rows", k);
        auto host_columns = Kokkos::create_mirror_view(columns);
        for (int t = 0; t < k; ++t) host_columns(t) = c + panel.pivots[t];
        Kokkos::deep_copy(space_, columns, host_columns);
        Kokkos::parallel_for(
            "hepex::rref::mark_pivot_rows", Kokkos::RangePolicy<ExecSpace>(space_, 0, k),
            KOKKOS_LAMBDA(const int t) {
              rows(t) = free_rows(source(t));
              pivot_of_row(rows(t)) = rank + t;
            });
        const Mat inverse = with_inverse ? inverse_beside_panel(s, k, w, depth)
                                         : inverse_of_pivot_block(a, rows, columns, k, depth);
        // 2. R = M^-1 A[I, c:n]; X = A[:, c:n] + (-A[:, J], rows I zeroed) R.
        const Mat x_rows = scratch.template matrix<T>(pivot_rows_slot, k, width),
                  r = scratch.template matrix<T>(new_rows_slot, k, width),
                  factors = scratch.template matrix<T>(factors_slot, m, k),
                  x = scratch.template matrix<T>(trailing_slot, m, width);
        for_each_entry(
            "hepex::rref::gather_pivot_rows", space_, k, width,
            KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t j) {
              x_rows(t, j) = a(rows(t), c + j);
            });
        block_product(space_, f_, ConstMat(inverse), ConstMat(x_rows), r, false, workspace_);
        for_each_entry(
            "hepex::rref::gather_factors", space_, m, k,
            KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t t) {
              factors(i, t) = pivot_of_row(i) >= rank ? f.zero() : f.neg(a(i, columns(t)));
            });
        for_each_entry(
            "hepex::rref::gather_trailing", space_, m, width,
            KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { x(i, j) = a(i, c + j); });
        block_product(space_, f_, ConstMat(factors), ConstMat(r), x, true, workspace_);
        // 3. Write back, with the panel's exact zeros and ones.
        Ints slot("hepex::rref::panel_slot", w);
        Kokkos::deep_copy(space_, slot, -1);
        Kokkos::parallel_for(
            "hepex::rref::panel_slots", Kokkos::RangePolicy<ExecSpace>(space_, 0, k),
            KOKKOS_LAMBDA(const int t) { slot(columns(t) - c) = t; });
        for_each_entry(
            "hepex::rref::scatter_trailing", space_, m, width,
            KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
              const int p = pivot_of_row(i);
              T value = p >= rank ? r(p - rank, j) : x(i, j);
              if (j < w) {
                if (p < 0 || (p >= rank && c + j < columns(p - rank))) {
                  value = f.zero();  // eliminated, or left of the row's pivot
                } else if (slot(j) >= 0) {
                  value = p == rank + slot(j) ? f.one() : f.zero();
                }
              }
              a(i, c + j) = value;
            });
        for (int t = 0; t < k; ++t) result.pivots.push_back(c + panel.pivots[t]);
        result.rank += static_cast<std::size_t>(k);
      }
      if (progress != nullptr) {
        *progress << "rref (blocked): column " << c + w << " of " << n << ", rank " << result.rank
                  << ", elapsed " << timer.seconds() << " s\n";
      }
    }
    // The pivot rows in pivot order, then zeros.
    Kokkos::parallel_for(
        "hepex::rref::pivot_sources", Kokkos::RangePolicy<ExecSpace>(space_, 0, m),
        KOKKOS_LAMBDA(const int i) {
          if (pivot_of_row(i) >= 0) row_of(pivot_of_row(i)) = i;
        });
    const int rank = static_cast<int>(result.rank);
    const Mat ordered = scratch.template matrix<T>(trailing_slot, m, n);
    for_each_entry(
        "hepex::rref::order_rows", space_, m, n,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          ordered(i, j) = i < rank ? a(row_of(i), j) : f.zero();
        });
    Kokkos::deep_copy(space_, a, ordered);
    space_.fence();
    return result;
  }

  // M^-1 from the panel reduced with its Y block: Y's first k rows and columns.
  Mat inverse_beside_panel(const Mat& s, int k, int w, int depth) {
    const Mat inverse = scratch_at(depth).template matrix<T>(inverse_slot, k, k);
    for_each_entry(
        "hepex::rref::inverse_beside_panel", space_, k, k,
        KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t u) { inverse(t, u) = s(t, w + u); });
    return inverse;
  }

  // M^-1 for M = A[rows, columns] (k x k, invertible): the right half of the
  // RREF of [M | 1_k], by the unblocked kernel. (Reducing it by the blocked
  // algorithm again needs an inverse per sub-panel, so the number of small
  // steps grows like b^2.6 with the panel width b: on the H100 that made
  // panels of 1024 columns 2x slower than panels of 512.)
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
    const RrefResult r = rref_unblocked(space_, f_, augmented, Ints(), nullptr);
    if (r.rank != static_cast<std::size_t>(k) || r.pivots.back() != k - 1) {
      throw Error(
          "rref (blocked): a panel's pivot block is singular (floating-point pivots "
          "too small for the tolerance?); use RrefOptions::block_columns = -1");
    }
    const Mat inverse = scratch.template matrix<T>(inverse_slot, k, k);
    for_each_entry(
        "hepex::rref::pivot_inverse", space_, k, k,
        KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t u) {
          inverse(t, u) = augmented(t, k + u);
        });
    return inverse;
  }

  using ConstMat = ConstDeviceMatrix<T, Memory>;

 private:
  // Scratch slots of one depth; the final row ordering reuses the trailing
  // block's slot.
  enum Slot {
    panel_slot,
    augmented_slot,
    inverse_slot,
    pivot_rows_slot,
    new_rows_slot,
    factors_slot,
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
  GemmWorkspace<Memory> workspace_;
  std::deque<GemmWorkspace<Memory>> scratch_;  // per depth; a deque keeps references valid
};

}  // namespace hepex::linalg::detail
