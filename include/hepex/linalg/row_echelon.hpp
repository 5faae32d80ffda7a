#pragma once
// A row echelon form that grows: rows are added to a reduced row echelon
// form and the form is brought up to date with work proportional to the new
// rows, not by a new elimination (issue 42: Linac's users add samples to a
// VectorSpaceOfFunctions and re-reduce everything each time).
//
// The form of rank r over n columns is kept as its pivot columns P
// (increasing), the other ("free") columns F (f = n - r) and U = E[:, F]
// (r x f, rows in pivot order): in the pivot columns the RREF E is 1 and 0.
// Adding k rows N:
//   1. N' = N[:, F] - N[:, P] U         (k x r x f product): N reduced against
//      E; N' = 0 row by row exactly for the rows in the span.
//   2. RREF of N' (k x f), in place: rank k2, pivot columns Q (among F), the
//      reduced rows R2 (k2 x f), which are 0 in the columns P anyway.
//   3. U <- U - U[:, Q] R2              (r x k2 x f product): the old rows
//      lose their entries in the new pivot columns.
//   4. The new form: pivots P u F[Q], its rows (old rows of U and rows of
//      R2) in pivot order, restricted to the columns F \ F[Q].
// Two products of k x r x f and r x k2 x f multiply-adds against about
// (r + k)^2 n / 3 for a new elimination: adding 250 rows to a 5000 x 6000
// form of rank 5000 is 2.5e9 against 5.5e10.
// Over Z/p only: exact fields decide the rank without a tolerance.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/linalg/detail/block_product.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"
#include "hepex/linalg/rref.hpp"

namespace hepex::linalg {

template <class ExecSpace, class F>
class RowEchelon {
  static_assert(F::is_exact, "RowEchelon works over Z/p (Zp32, Zp64)");

 public:
  using T = typename F::value_type;
  using Memory = typename ExecSpace::memory_space;
  using Mat = DeviceMatrix<T, Memory>;
  using ConstMat = ConstDeviceMatrix<T, Memory>;
  using Ints = Kokkos::View<int*, Memory>;

  // The zero space of vectors with `columns` entries.
  RowEchelon(const ExecSpace& space, const F& field, std::size_t columns)
      : space_(space), f_(field), columns_(columns), u_("hepex::row_echelon::u", 0, columns) {
    if (columns > 0x7fffffff) throw Error("RowEchelon: at most 2^31 - 1 columns");
    free_.resize(columns);
    for (std::size_t j = 0; j < columns; ++j) free_[j] = static_cast<int>(j);
  }

  // Every member takes the process's Kokkos lock (core/kokkos_lock.hpp), so
  // calls from several threads run one after the other; what they return
  // are copies (a View shares its entries: free_part's stays valid, and
  // unchanged, after later additions, which make a new one).
  std::size_t columns() const { return columns_; }
  std::size_t rank() const {
    const KokkosLock lock;
    return pivots_.size();
  }
  std::vector<int> pivots() const {  // increasing
    const KokkosLock lock;
    return pivots_;
  }
  std::vector<int> free_columns() const {  // increasing
    const KokkosLock lock;
    return free_;
  }
  Mat free_part() const {  // rank x free columns, rows in pivot order
    const KokkosLock lock;
    return u_;
  }

  // Adds the rows of `rows` (k x columns) and updates the form; returns by
  // how much the rank grew.
  std::size_t add_rows(const ConstMat& rows) {
    const KokkosLock lock;
    Mat residual = reduced(rows);
    const int k = static_cast<int>(residual.extent(0)), f = static_cast<int>(residual.extent(1));
    if (k == 0 || f == 0) return 0;
    RrefOptions options;
    const RrefResult step = linalg::rref(space_, f_, residual, options);  // 2.
    const int k2 = static_cast<int>(step.rank);
    if (k2 == 0) return 0;
    const ConstMat new_rows(residual.data(), k2, f);
    const int r = static_cast<int>(pivots_.size());
    const F field = f_;
    if (r > 0) {  // 3.
      const Ints new_pivots = to_device(step.pivots, "hepex::row_echelon::new_pivots");
      const Mat factors("hepex::row_echelon::factors", r, k2), u = u_;
      detail::for_each_entry(
          "hepex::row_echelon::gather_factors", space_, r, k2,
          KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t s) {
            factors(t, s) = field.neg(u(t, new_pivots(s)));
          });
      detail::block_product(space_, f_, ConstMat(factors), new_rows, u_, true, workspace_);
    }
    merge(step.pivots, new_rows);  // 4.
    return static_cast<std::size_t>(k2);
  }

  // Whether each row of `rows` lies in the span: its reduction against the
  // form (step 1) is zero.
  std::vector<bool> contains(const ConstMat& rows) {
    const KokkosLock lock;
    const Mat residual = reduced(rows);
    const int k = static_cast<int>(residual.extent(0)), f = static_cast<int>(residual.extent(1));
    Ints nonzero("hepex::row_echelon::nonzero", k);
    const F field = f_;
    Kokkos::parallel_for(
        "hepex::row_echelon::nonzero_rows", Kokkos::RangePolicy<ExecSpace>(space_, 0, k),
        KOKKOS_LAMBDA(const int i) {
          int any = 0;
          for (int j = 0; j < f && any == 0; ++j) any = residual(i, j) != field.zero() ? 1 : 0;
          nonzero(i) = any;
        });
    const std::vector<int> host = to_vector(nonzero);
    std::vector<bool> in(host.size());
    for (std::size_t i = 0; i < host.size(); ++i) in[i] = host[i] == 0;
    return in;
  }

  // The reduced row echelon form, rank x columns.
  Mat rref() const {
    const KokkosLock lock;
    const int r = static_cast<int>(pivots_.size()), n = static_cast<int>(columns_);
    // slot(j): t for the t-th pivot column, -1 - v for the v-th free one.
    std::vector<int> slots(columns_);
    for (int t = 0; t < r; ++t) slots[static_cast<std::size_t>(pivots_[t])] = t;
    for (std::size_t v = 0; v < free_.size(); ++v) {
      slots[static_cast<std::size_t>(free_[v])] = -1 - static_cast<int>(v);
    }
    const Ints slot = to_device(slots, "hepex::row_echelon::slots");
    Mat e(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hepex::row_echelon::rref")),
          r, n);
    const Mat u = u_;
    const F field = f_;
    detail::for_each_entry(
        "hepex::row_echelon::write_rref", space_, r, n,
        KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t j) {
          const int s = slot(j);
          e(t, j) = s >= 0 ? (s == t ? field.one() : field.zero()) : u(t, -1 - s);
        });
    space_.fence();
    return e;
  }

  // The steps, public only because nvcc refuses device lambdas in private
  // member functions. Step 1: rows[:, F] - rows[:, P] U, k x f.
  Mat reduced(const ConstMat& rows) {
    if (rows.extent(1) != columns_) {
      throw Error("RowEchelon: rows of " + std::to_string(rows.extent(1)) +
                  " entries added to a space of vectors with " + std::to_string(columns_));
    }
    const int k = static_cast<int>(rows.extent(0)), f = static_cast<int>(free_.size()),
              r = static_cast<int>(pivots_.size());
    Mat out(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                               std::string("hepex::row_echelon::residual")),
            k, f);
    if (k == 0 || f == 0) return out;
    const Ints free_columns = to_device(free_, "hepex::row_echelon::free");
    detail::for_each_entry(
        "hepex::row_echelon::gather_free", space_, k, f,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t v) {
          out(i, v) = rows(i, free_columns(v));
        });
    if (r > 0) {
      const Ints pivot_columns = to_device(pivots_, "hepex::row_echelon::pivots");
      const Mat factors(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                           std::string("hepex::row_echelon::factors")),
                        k, r);
      const F field = f_;
      detail::for_each_entry(
          "hepex::row_echelon::gather_pivot_part", space_, k, r,
          KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t t) {
            factors(i, t) = field.neg(rows(i, pivot_columns(t)));
          });
      detail::block_product(space_, f_, ConstMat(factors), ConstMat(u_), out, true, workspace_);
    }
    return out;
  }

  // Step 4: the new pivots F[q] for q in `new_pivots` (increasing indices
  // into free_), the rows of U and `new_rows` merged in pivot order, and the
  // columns left free.
  void merge(const std::vector<int>& new_pivots, const ConstMat& new_rows) {
    const int r = static_cast<int>(pivots_.size()), k2 = static_cast<int>(new_pivots.size()),
              f = static_cast<int>(free_.size());
    std::vector<int> pivots, source, kept, left;
    std::size_t a = 0, b = 0;
    while (a < pivots_.size() || b < new_pivots.size()) {
      const bool old_first =
          b == new_pivots.size() ||
          (a < pivots_.size() && pivots_[a] < free_[static_cast<std::size_t>(new_pivots[b])]);
      if (old_first) {
        pivots.push_back(pivots_[a]);
        source.push_back(static_cast<int>(a++));
      } else {
        pivots.push_back(free_[static_cast<std::size_t>(new_pivots[b])]);
        source.push_back(-1 - static_cast<int>(b++));
      }
    }
    std::size_t q = 0;
    for (int v = 0; v < f; ++v) {
      if (q < new_pivots.size() && new_pivots[q] == v) {
        ++q;
      } else {
        kept.push_back(v);
        left.push_back(free_[static_cast<std::size_t>(v)]);
      }
    }
    const Ints from = to_device(source, "hepex::row_echelon::source"),
               kept_columns = to_device(kept, "hepex::row_echelon::kept");
    const int rows = r + k2, cols = f - k2;
    Mat merged(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hepex::row_echelon::u")), rows,
        cols);
    const Mat u = u_;
    detail::for_each_entry(
        "hepex::row_echelon::merge_rows", space_, rows, cols,
        KOKKOS_LAMBDA(const std::int64_t t, const std::int64_t v) {
          const int s = from(t), column = kept_columns(v);
          merged(t, v) = s >= 0 ? u(s, column) : new_rows(-1 - s, column);
        });
    space_.fence();
    u_ = merged;
    pivots_ = std::move(pivots);
    free_ = std::move(left);
  }

  // A small index list on the device (core/vector_view.hpp: a blocking copy,
  // so `values` may be a temporary).
  static Ints to_device(const std::vector<int>& values, const char* label) {
    return to_view<Memory>(values, label);
  }

 private:
  ExecSpace space_;
  F f_;
  std::size_t columns_;
  std::vector<int> pivots_, free_;
  Mat u_;
  GemmWorkspace<Memory> workspace_;
};

}  // namespace hepex::linalg
