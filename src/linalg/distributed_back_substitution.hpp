#pragma once
// The back substitution of distributed_rref (distributed_rref.cpp): after
// the forward pass every pivot row is 1 at its pivot, 0 at the other pivots
// of its own panel and left of it, but not yet reduced against the pivots
// of later panels; free rows are zero. As the single device's blocked
// elimination does (rref_blocked.hpp, back_substitute), panels are taken
// from the last: panel P's pivot rows E_P are final once every later panel
// has been taken, and every pivot row of an earlier panel becomes
//   x <- x - x[Q_P] E_P
// in the non-pivot columns from P's first column on (in the pivot columns
// the result is known: 1 at the row's own pivot, 0 elsewhere). So the work
// is rank^2 x (non-pivot columns) / 2 at most, none for a square matrix of
// full rank, where Gauss-Jordan's updates of pivot rows during the forward
// pass would cost n^3/6 (a third of its work). The non-pivot columns are
// gathered into a compact block T per chunk of columns (each rank's pivot
// rows), P's rows of T shared by their owners with every rank, and every
// rank updates its earlier rows of T with one modgemm; then T goes back.
#include <algorithm>
#include <string>
#include <vector>

#include "distributed_rref_common.hpp"
#include "hepex/linalg/detail/rref_blocked.hpp"
#include "hepex/linalg/gemm_workspace.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "hepex/linalg/row_subset.hpp"

namespace hepex::linalg::distributed_rref_detail {

template <class ExecSpace, class Word>
class BackSubstitution {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Mat = DeviceMatrix<Word, Memory>;
  using Ints = Kokkos::View<int*, Memory>;

  // `pivots`: every pivot column (increasing); `row_pivots`: this rank's
  // rows' pivots (-1: a free row); `chunk`: columns of T at most (0: what
  // keeps T and the products' C at 2^29 entries).
  BackSubstitution(const distributed::Communicator& comm, const ExecSpace& space,
                   const field::Zp<Word>& f, const Mat& a, const std::vector<int>& pivots,
                   const std::vector<int>& row_pivots, const std::vector<Panel>& panels, int chunk)
      : comm_(comm), space_(space), f_(f), a_(a), pivots_(pivots), panels_(panels), chunk_(chunk) {
    for (std::size_t i = 0; i < row_pivots.size(); ++i)
      if (row_pivots[i] >= 0) pivot_rows_.push_back(static_cast<int>(i));
    std::sort(pivot_rows_.begin(), pivot_rows_.end(),
              [&](int x, int y) { return row_pivots[x] < row_pivots[y]; });
    for (const int i : pivot_rows_) pivot_of_row_.push_back(row_pivots[i]);
    position_.assign(row_pivots.size(), -1);
    for (std::size_t t = 0; t < pivot_rows_.size(); ++t)
      position_[pivot_rows_[t]] = static_cast<int>(t);
    std::size_t next = 0;
    for (std::size_t j = 0; j < a.extent(1); ++j) {
      if (next < pivots_.size() && pivots_[next] == static_cast<int>(j)) {
        ++next;
      } else {
        free_columns_.push_back(static_cast<int>(j));
      }
    }
  }

  // Collective. `pending`: this rank's failure so far (reported to every
  // rank at the first exchange); a failure here is added to it.
  void run(RowSharing<ExecSpace, Word>& sharing, std::string& pending, double& copy_seconds,
           double& message_seconds, double& update_seconds) {
    const auto m = static_cast<int>(free_columns_.size());
    const int chunk = detail::product_columns(
        chunk_, static_cast<std::int64_t>(std::max<std::size_t>(pivot_rows_.size(), 1)),
        std::max(m, 1));
    for (int j0 = 0; j0 < m; j0 += chunk) {
      const int j1 = std::min(m, j0 + chunk);
      Mat t;
      try {
        if (pending.empty()) t = timed(update_seconds, [&] { return take_block(j0, j1); });
      } catch (const std::exception& e) {
        pending = e.what();
      }
      for (std::size_t p = panels_.size(); p-- > 1;) {
        reduce_against(panels_[p], t, j0, j1, sharing, pending, copy_seconds, message_seconds,
                       update_seconds);
      }
      try {
        if (pending.empty()) timed(update_seconds, [&] { put_block(t, j0, j1); });
      } catch (const std::exception& e) {
        pending = e.what();
      }
    }
    try {
      if (pending.empty()) timed(update_seconds, [&] { write_pivot_columns(); });
    } catch (const std::exception& e) {
      pending = e.what();
    }
  }

  // The steps are public: nvcc takes no device lambda in a private member.
  // T: this rank's pivot rows (in pivot order) at non-pivot columns j0..j1-1.
  Mat take_block(int j0, int j1) {
    const auto rows = to_view<Memory>(pivot_rows_, "hepex::distributed_rref::pivot_rows");
    const auto columns =
        to_view<Memory>(std::vector<int>(free_columns_.begin() + j0, free_columns_.begin() + j1),
                        "hepex::distributed_rref::free_columns");
    const Mat t(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                   std::string("hepex::distributed_rref::t_block")),
                pivot_rows_.size(), static_cast<std::size_t>(j1 - j0));
    const Mat a = a_;
    detail::for_each_entry(
        "hepex::distributed_rref::take_block", space_, t.extent(0), t.extent(1),
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          t(i, j) = a(rows(i), columns(j));
        });
    return t;
  }

  void put_block(const Mat& t, int j0, int j1) {
    const auto rows = to_view<Memory>(pivot_rows_, "hepex::distributed_rref::pivot_rows");
    const auto columns =
        to_view<Memory>(std::vector<int>(free_columns_.begin() + j0, free_columns_.begin() + j1),
                        "hepex::distributed_rref::free_columns");
    const Mat a = a_;
    detail::for_each_entry(
        "hepex::distributed_rref::put_block", space_, t.extent(0), t.extent(1),
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          a(rows(i), columns(j)) = t(i, j);
        });
    space_.fence();
  }

  // Panel P's rows of T (columns from P's first column on) from their
  // owners; every earlier pivot row of this rank: x <- x - x[Q_P] E_P.
  void reduce_against(const Panel& panel, const Mat& t, int j0, int j1,
                      RowSharing<ExecSpace, Word>& sharing, std::string& pending,
                      double& copy_seconds, double& message_seconds, double& update_seconds) {
    const auto from_column =
        static_cast<int>(std::lower_bound(free_columns_.begin() + j0, free_columns_.begin() + j1,
                                          static_cast<int>(panel.first)) -
                         free_columns_.begin());
    const std::size_t width = static_cast<std::size_t>(j1 - from_column);
    if (width == 0 || panel.rows.empty()) return;  // the same on every rank
    std::vector<std::size_t> counts(static_cast<std::size_t>(comm_.size()), 0);
    std::vector<int> mine;
    for (std::size_t j = 0; j < panel.rows.size(); ++j) {
      ++counts.at(static_cast<std::size_t>(panel.ranks[j]));
      if (panel.ranks[j] == comm_.rank()) mine.push_back(position_.at(panel.rows[j]));
    }
    const auto offset = static_cast<std::size_t>(from_column - j0);
    const Mat e = sharing.share(comm_, space_, t, mine, offset, width, counts, pending,
                                copy_seconds, message_seconds);
    try {
      timed(update_seconds, [&] { update_earlier_rows(panel, t, e, offset); });
    } catch (const std::exception& failure) {
      pending = failure.what();
    }
  }

  void update_earlier_rows(const Panel& panel, const Mat& t, const Mat& e, std::size_t offset) {
    const auto earlier =
        static_cast<std::size_t>(std::lower_bound(pivot_of_row_.begin(), pivot_of_row_.end(),
                                                  static_cast<int>(panel.first)) -
                                 pivot_of_row_.begin());
    const std::size_t k = panel.rows.size();
    if (earlier == 0) return;
    std::vector<int> pivot_columns;
    for (const int q : panel.offsets) pivot_columns.push_back(static_cast<int>(panel.first) + q);
    const auto columns = to_view<Memory>(pivot_columns, "hepex::distributed_rref::q_back");
    const auto rows = to_view<Memory>(
        std::vector<int>(pivot_rows_.begin(),
                         pivot_rows_.begin() + static_cast<std::ptrdiff_t>(earlier)),
        "hepex::distributed_rref::earlier");
    const Mat factors(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                         std::string("hepex::distributed_rref::factors_back")),
                      earlier, k);
    const Mat a = a_;
    const field::Zp<Word> f = f_;
    detail::for_each_entry(
        "hepex::distributed_rref::factors_back", space_, earlier, k,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          factors(i, j) = f.neg(a(rows(i), columns(j)));
        });
    modgemm(
        space_, f_, ConstDeviceMatrix<Word, Memory>(factors), ConstDeviceMatrix<Word, Memory>(e),
        RowSubset<Word, Memory>{t, every_row<Memory>(earlier, "hepex::distributed_rref::earlier_t"),
                                static_cast<std::int64_t>(offset)},
        GemmMethod::automatic, true, &workspace_);
    space_.fence();
  }

  // Every pivot row: 1 at its pivot, 0 at every other pivot column.
  void write_pivot_columns() {
    if (pivot_rows_.empty() || pivots_.empty()) return;
    const auto rows = to_view<Memory>(pivot_rows_, "hepex::distributed_rref::pivot_rows");
    const auto own = to_view<Memory>(pivot_of_row_, "hepex::distributed_rref::own_pivots");
    const auto columns = to_view<Memory>(pivots_, "hepex::distributed_rref::pivots");
    const Mat a = a_;
    const Word one = f_.one();
    detail::for_each_entry(
        "hepex::distributed_rref::pivot_columns", space_, pivot_rows_.size(), pivots_.size(),
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          a(rows(i), columns(j)) = columns(j) == own(i) ? one : Word(0);
        });
    space_.fence();
  }

 private:
  const distributed::Communicator& comm_;
  ExecSpace space_;
  field::Zp<Word> f_;
  Mat a_;
  const std::vector<int>& pivots_;
  const std::vector<Panel>& panels_;
  int chunk_;
  std::vector<int> pivot_rows_;    // this rank's pivot rows, in pivot order
  std::vector<int> pivot_of_row_;  // their pivots (increasing)
  std::vector<int> position_;      // local row -> its index in pivot_rows_, or -1
  std::vector<int> free_columns_;  // the non-pivot columns (increasing)
  GemmWorkspace<Memory> workspace_;
};

}  // namespace hepex::linalg::distributed_rref_detail
