// distributed_rref and gather_rref (distributed_rref.hpp): the panel loop,
// its messages and the update of each rank's rows on its execution space.
#include "hepex/linalg/distributed_rref.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstring>
#include <exception>
#include <string>

#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "hepex/linalg/row_subset.hpp"
#include "hepex/linalg/rref.hpp"

namespace hepex::linalg {

namespace {

// Messages: plain values and arrays appended to a string and read back in
// the same order. The ranks run the same build, so no byte order is fixed.
class Writer {
 public:
  template <class T>
  Writer& put(const T& value) {
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof(T));
    return *this;
  }
  template <class T>
  Writer& put_array(const T* data, std::size_t count) {
    put(static_cast<std::uint64_t>(count));
    bytes_.append(reinterpret_cast<const char*>(data), count * sizeof(T));
    return *this;
  }
  Writer& put_text(const std::string& text) { return put_array(text.data(), text.size()); }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    T value;
    need(sizeof(T));
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  template <class T>
  std::vector<T> get_array() {
    const auto count = static_cast<std::size_t>(get<std::uint64_t>());
    need(count * sizeof(T));
    std::vector<T> values(count);
    if (count > 0) std::memcpy(values.data(), bytes_.data() + at_, count * sizeof(T));
    at_ += count * sizeof(T);
    return values;
  }
  std::string get_text() {
    const std::vector<char> text = get_array<char>();
    return std::string(text.begin(), text.end());
  }

 private:
  void need(std::size_t size) const {
    if (bytes_.size() - at_ < size) {
      throw Error("distributed rref: a message ended early", ErrorKind::runtime);
    }
  }
  const std::string& bytes_;
  std::size_t at_ = 0;
};

// Two exchanges per panel. First every rank sends root an error (empty when
// none), its free row count and its candidates (local row indices and their
// panel slices, w columns); root answers with an error, or "done" (no free
// row left anywhere), or the owners of S (rank, local row). Then the owners
// send S's rows (an error slot, their columns c..n-1), and root answers with
// an error or the panel's pivots Q (offsets in the panel) and E (k x (n - c)).
// Root so receives ranks x w slices and k whole rows per panel, where one
// exchange of the candidates' whole rows would bring it ranks x w of them.
constexpr std::uint8_t answer_error = 0, answer_done = 1, answer_panel = 2;

// The pivot columns of the RREF of the transpose of the first `cols`
// columns of `rows` (row-major): indices of rows whose first `cols` entries
// span those of all the rows.
template <class ExecSpace, class Word>
std::vector<int> spanning_rows(const ExecSpace& space, const field::Zp<Word>& f,
                               const DeviceMatrix<Word, typename ExecSpace::memory_space>& rows,
                               std::size_t cols) {
  using Memory = typename ExecSpace::memory_space;
  const std::size_t count = rows.extent(0);
  if (count == 0 || cols == 0) return {};
  DeviceMatrix<Word, Memory> t(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hepex::distributed_rref::t")),
      cols, count);
  detail::for_each_entry(
      "hepex::distributed_rref::transpose", space, cols, count,
      KOKKOS_LAMBDA(const std::int64_t j, const std::int64_t i) { t(j, i) = rows(i, j); });
  return rref(space, f, t).pivots;
}

// The indices 0 .. count - 1 as a View: every row of a matrix as a RowSubset's rows.
template <class Memory>
Kokkos::View<int*, Memory> every_row(std::size_t count, const char* label) {
  std::vector<int> all(count);
  for (std::size_t i = 0; i < count; ++i) all[i] = static_cast<int>(i);
  return to_view<Memory>(all, label);
}

template <class ExecSpace, class Word>
class PanelLoop {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Mat = DeviceMatrix<Word, Memory>;
  using Ints = Kokkos::View<int*, Memory>;

  PanelLoop(const distributed::Communicator& comm, const ExecSpace& space, const field::Zp<Word>& f,
            Matrix<Word>& local, int width, int chunk)
      : comm_(comm), space_(space), f_(f), local_(local), width_(width), chunk_(chunk) {}

  DistributedRrefResult run() {
    DistributedRrefResult result = agree_on_shape();
    rows_ = local_.rows;
    cols_ = local_.cols;
    row_pivots_.assign(rows_, -1);
    a_ = to_device<Memory>(local_, "hepex::distributed_rref::rows");
    all_rows_ = every_row<Memory>(rows_, "hepex::distributed_rref::all_rows");
    for (std::size_t c = 0; c < cols_; c += static_cast<std::size_t>(width_)) {
      const int w = static_cast<int>(std::min<std::size_t>(width_, cols_ - c));
      std::string message;
      try {
        rethrow_pending();
        message = candidates(c, w);
      } catch (const std::exception& e) {
        message = Writer().put_text(e.what()).take();
      }
      const std::string owners = exchange(
          message, [&](const std::vector<std::string>& parts) { return choose(parts, w); });
      Reader read(owners);
      if (read.get<std::uint8_t>() == answer_done) break;
      const std::vector<int> ranks = read.get_array<int>();
      const std::vector<int> rows = read.get_array<int>();
      ++result.panels;
      if (rows.empty()) continue;  // the panel's columns are zero in every free row
      try {
        message = pivot_rows(ranks, rows, c);
      } catch (const std::exception& e) {
        message = Writer().put_text(e.what()).take();
      }
      const std::string pivots = exchange(message, [&](const std::vector<std::string>& parts) {
        return reduce(parts, ranks, c, w);
      });
      try {
        Reader panel(pivots);
        panel.get<std::uint8_t>();
        apply(panel, ranks, rows, c);
      } catch (const std::exception& e) {
        pending_ = e.what();
      }
    }
    // A failure in the last update reaches every rank here.
    exchange(Writer().put_text(pending_).take(),
             [](const std::vector<std::string>&) { return Writer().put(answer_done).take(); });
    local_ = to_host(a_);
    result.rank = pivots_.size();
    result.pivots = pivots_;
    result.row_pivots = row_pivots_;
    return result;
  }

  // The steps are public: nvcc takes no device lambda in a private member.
  // Every rank's column count equals rank 0's; the total row count.
  DistributedRrefResult agree_on_shape() {
    const std::vector<std::string> parts =
        comm_.gather(Writer()
                         .put(static_cast<std::uint64_t>(local_.rows))
                         .put(static_cast<std::uint64_t>(local_.cols))
                         .take());
    std::string answer;
    if (comm_.rank() == 0) {
      std::uint64_t rows = 0, cols = 0;
      std::string error;
      for (std::size_t r = 0; r < parts.size() && error.empty(); ++r) {
        Reader read(parts[r]);
        const auto here = read.get<std::uint64_t>(), columns = read.get<std::uint64_t>();
        if (r == 0) cols = columns;
        if (columns != cols) {
          error = "distributed rref: rank " + std::to_string(r) + " holds rows of " +
                  std::to_string(columns) + " columns, rank 0 of " + std::to_string(cols);
        }
        rows += here;
      }
      if (error.empty() && cols > 0x7fffffffu) {
        error = "distributed rref: at most 2^31 - 1 columns";
      }
      answer = error.empty() ? Writer().put(answer_panel).put(rows).put(cols).take()
                             : Writer().put(answer_error).put_text(error).take();
    }
    comm_.broadcast(answer);
    Reader read(answer);
    if (read.get<std::uint8_t>() == answer_error) throw Error(read.get_text());
    DistributedRrefResult result;
    result.rows = read.get<std::uint64_t>();
    result.cols = read.get<std::uint64_t>();
    return result;
  }

  // One exchange: every rank's message gathered on root, root's answer
  // (answer(parts), or the first rank's error) broadcast; an error answer
  // becomes the same Error on every rank.
  template <class Answer>
  std::string exchange(const std::string& message, const Answer& answer) {
    const std::vector<std::string> parts = comm_.gather(message);
    std::string reply;
    if (comm_.rank() == 0) {
      try {
        const std::string error = first_error(parts);
        reply = error.empty() ? answer(parts) : Writer().put(answer_error).put_text(error).take();
      } catch (const std::exception& e) {
        reply = Writer().put(answer_error).put_text("rank 0: " + std::string(e.what())).take();
      }
    }
    comm_.broadcast(reply);
    Reader read(reply);
    if (read.get<std::uint8_t>() == answer_error) throw Error(read.get_text());
    return reply;
  }

  // Step 1: this rank's free rows that span all of its free rows in the
  // panel, with their slices (columns c..c+w-1).
  std::string candidates(std::size_t c, int w) {
    std::vector<int> free;
    for (std::size_t i = 0; i < rows_; ++i)
      if (row_pivots_[i] < 0) free.push_back(static_cast<int>(i));
    std::vector<int> chosen;
    if (!free.empty()) {
      const Ints rows = to_view<Memory>(free, "hepex::distributed_rref::free");
      const Mat slices(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                          std::string("hepex::distributed_rref::slices")),
                       free.size(), static_cast<std::size_t>(w));
      const Mat a = a_;
      const auto first = static_cast<std::int64_t>(c);
      detail::for_each_entry(
          "hepex::distributed_rref::slices", space_, free.size(), static_cast<std::size_t>(w),
          KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
            slices(i, j) = a(rows(i), first + j);
          });
      for (const int at : spanning_rows(space_, f_, slices, static_cast<std::size_t>(w)))
        chosen.push_back(free[at]);
    }
    const Matrix<Word> panel = rows_from(chosen, c, static_cast<std::size_t>(w));
    return Writer()
        .put_text(std::string())
        .put(static_cast<std::uint64_t>(free.size()))
        .put_array(chosen.data(), chosen.size())
        .put_array(panel.data.data(), panel.data.size())
        .take();
  }

  // Columns c..c+width-1 of this rank's rows `rows`, on the host.
  Matrix<Word> rows_from(const std::vector<int>& rows, std::size_t c, std::size_t width) {
    if (rows.empty()) return Matrix<Word>(0, width);
    const Ints which = to_view<Memory>(rows, "hepex::distributed_rref::which");
    const Mat out(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                     std::string("hepex::distributed_rref::rows_from")),
                  rows.size(), width);
    const Mat a = a_;
    const auto first = static_cast<std::int64_t>(c);
    detail::for_each_entry(
        "hepex::distributed_rref::rows_from", space_, rows.size(), width,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          out(i, j) = a(which(i), first + j);
        });
    return to_host(out);
  }

  // Step 3: this rank's rows of S (those of `ranks` equal to this rank, in
  // S's order), with their columns c..n-1.
  std::string pivot_rows(const std::vector<int>& ranks, const std::vector<int>& rows,
                         std::size_t c) {
    std::vector<int> mine;
    for (std::size_t j = 0; j < rows.size(); ++j)
      if (ranks[j] == comm_.rank()) mine.push_back(rows[j]);
    const Matrix<Word> tails = rows_from(mine, c, cols_ - c);
    return Writer().put_text(std::string()).put_array(tails.data.data(), tails.data.size()).take();
  }

  // Step 2, on root: S among every rank's candidates, by their slices.
  std::string choose(const std::vector<std::string>& parts, int w) {
    const auto width = static_cast<std::size_t>(w);
    std::vector<int> owner_rank, owner_row;
    std::vector<Word> stacked;
    std::uint64_t free_rows = 0;
    for (std::size_t r = 0; r < parts.size(); ++r) {
      Reader read(parts[r]);
      read.get_text();
      free_rows += read.get<std::uint64_t>();
      const std::vector<int> rows = read.get_array<int>();
      const std::vector<Word> slices = read.get_array<Word>();
      if (slices.size() != rows.size() * width) {
        throw Error("distributed rref: rank " + std::to_string(r) + " sent a malformed panel",
                    ErrorKind::runtime);
      }
      for (const int row : rows) {
        owner_rank.push_back(static_cast<int>(r));
        owner_row.push_back(row);
      }
      stacked.insert(stacked.end(), slices.begin(), slices.end());
    }
    if (free_rows == 0) return Writer().put(answer_done).take();
    Matrix<Word> all(owner_row.size(), width);
    all.data = std::move(stacked);
    const std::vector<int> picked = spanning_rows(
        space_, f_, to_device<Memory>(all, "hepex::distributed_rref::candidates"), width);
    std::vector<int> ranks, rows;
    for (const int j : picked) {
      ranks.push_back(owner_rank[j]);
      rows.push_back(owner_row[j]);
    }
    return Writer()
        .put(answer_panel)
        .put_array(ranks.data(), ranks.size())
        .put_array(rows.data(), rows.size())
        .take();
  }

  // Step 4, on root: S from its owners' rows (each rank's in S's order),
  // E = RREF(S) and its pivots.
  std::string reduce(const std::vector<std::string>& parts, const std::vector<int>& ranks,
                     std::size_t c, int w) {
    const std::size_t k = ranks.size(), width = cols_ - c;
    std::vector<std::vector<Word>> sent(parts.size());
    std::vector<std::size_t> used(parts.size(), 0), expected(parts.size(), 0);
    for (const int r : ranks) ++expected[static_cast<std::size_t>(r)];
    for (std::size_t r = 0; r < parts.size(); ++r) {
      Reader read(parts[r]);
      read.get_text();
      sent[r] = read.get_array<Word>();
      if (sent[r].size() != expected[r] * width) {
        throw Error("distributed rref: rank " + std::to_string(r) + " sent a malformed pivot row",
                    ErrorKind::runtime);
      }
    }
    Matrix<Word> s(k, width);
    for (std::size_t j = 0; j < k; ++j) {
      const auto r = static_cast<std::size_t>(ranks[j]);
      std::copy_n(sent[r].begin() + static_cast<std::ptrdiff_t>(used[r]++ * width), width,
                  s.data.begin() + static_cast<std::ptrdiff_t>(j * width));
    }
    std::vector<int> q;
    s = reduce_candidates(s, w, q);
    return Writer()
        .put(answer_panel)
        .put_array(q.data(), q.size())
        .put_array(s.data.data(), s.data.size())
        .take();
  }

  // E = RREF(S) for S of k rows whose first w columns have rank k, and its
  // pivots q (all among those w): the RREF of [S_p | I_k] (S_p = S[:, :w])
  // is [G S_p | G] with G invertible, G S_p = RREF(S_p), and then
  // E = [G S_p | G S[:, w:]], the second part one modgemm. An elimination
  // over S's n - c columns would cost as much in a latency-bound kernel.
  Matrix<Word> reduce_candidates(const Matrix<Word>& s, int w, std::vector<int>& q) {
    const std::size_t k = s.rows, width = s.cols, rest = width - static_cast<std::size_t>(w);
    const Mat whole = to_device<Memory>(s, "hepex::distributed_rref::s");
    const Mat m("hepex::distributed_rref::s_panel", k, static_cast<std::size_t>(w) + k);
    const Word one = f_.one();
    const auto panel = static_cast<std::int64_t>(w);
    detail::for_each_entry(
        "hepex::distributed_rref::s_panel", space_, k, static_cast<std::size_t>(w) + k,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          m(i, j) = j < panel ? whole(i, j) : j - panel == i ? one : Word(0);
        });
    const RrefResult reduced = rref(space_, f_, m);
    if (reduced.rank != k || reduced.pivots.back() >= w) {
      throw Error("distributed rref: the panel's rows lost their independence", ErrorKind::runtime);
    }
    q = reduced.pivots;
    const Mat e(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                   std::string("hepex::distributed_rref::e_root")),
                k, width);
    detail::for_each_entry(
        "hepex::distributed_rref::e_panel", space_, k, static_cast<std::size_t>(w),
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { e(i, j) = m(i, j); });
    if (rest > 0) {
      const Mat g(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                     std::string("hepex::distributed_rref::g")),
                  k, k);
      const Mat right(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                         std::string("hepex::distributed_rref::s_right")),
                      k, rest);
      detail::for_each_entry(
          "hepex::distributed_rref::g", space_, k, k,
          KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { g(i, j) = m(i, panel + j); });
      detail::for_each_entry(
          "hepex::distributed_rref::s_right", space_, k, rest,
          KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
            right(i, j) = whole(i, panel + j);
          });
      modgemm(space_, f_, ConstDeviceMatrix<Word, Memory>(g),
              ConstDeviceMatrix<Word, Memory>(right),
              RowSubset<Word, Memory>{e, every_row<Memory>(k, "hepex::distributed_rref::e_rows"),
                                      panel},
              GemmMethod::automatic, false, &workspace_);
    }
    space_.fence();
    return to_host(e);
  }

  // Step 5: A[:, c:] -= A[:, c + Q] E on this rank; E's rows over S's.
  void apply(Reader& read, const std::vector<int>& ranks, const std::vector<int>& rows,
             std::size_t c) {
    const std::vector<int> q = read.get_array<int>();
    const std::vector<Word> e_entries = read.get_array<Word>();
    const std::size_t k = q.size(), width = cols_ - c;
    for (const int column : q) pivots_.push_back(static_cast<int>(c) + column);
    if (k == 0 || rows_ == 0) return;
    Matrix<Word> e_host(k, width);
    e_host.data = e_entries;
    const Mat e = to_device<Memory>(e_host, "hepex::distributed_rref::e");
    const Ints columns = to_view<Memory>(q, "hepex::distributed_rref::q");
    const Mat factors(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                         std::string("hepex::distributed_rref::factors")),
                      rows_, k);
    const Mat a = a_;
    const field::Zp<Word> f = f_;
    const auto first = static_cast<std::int64_t>(c);
    detail::for_each_entry(
        "hepex::distributed_rref::factors", space_, rows_, k,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          factors(i, j) = f.neg(a(i, first + columns(j)));
        });
    // Over chunks of columns, as the blocked rref's update (its
    // product_columns): the int8 product's scratch grows with C's entries,
    // and a block of 50,000 rows of 200,000 columns would not fit.
    const auto width_int = static_cast<int>(width);
    const int chunk = detail::product_columns(chunk_, static_cast<std::int64_t>(rows_), width_int);
    workspace_.keep_left_operand(true);  // the factors, converted once for all chunks
    for (int from = 0; from < width_int; from += chunk) {
      const int part = std::min(chunk, width_int - from);
      Mat e_part = e;
      if (part < width_int) {
        e_part = Mat(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                        std::string("hepex::distributed_rref::e_part")),
                     k, static_cast<std::size_t>(part));
        const Mat into = e_part;
        detail::for_each_entry(
            "hepex::distributed_rref::e_part", space_, k, static_cast<std::size_t>(part),
            KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
              into(i, j) = e(i, from + j);
            });
      }
      modgemm(space_, f_, ConstDeviceMatrix<Word, Memory>(factors),
              ConstDeviceMatrix<Word, Memory>(e_part),
              RowSubset<Word, Memory>{a_, all_rows_, first + from}, GemmMethod::automatic, true,
              &workspace_);
    }
    workspace_.keep_left_operand(false);
    std::vector<int> mine, from;
    for (std::size_t j = 0; j < k; ++j) {
      if (ranks[j] != comm_.rank()) continue;
      mine.push_back(rows[j]);
      from.push_back(static_cast<int>(j));
      row_pivots_.at(static_cast<std::size_t>(rows[j])) = static_cast<int>(c) + q[j];
    }
    if (mine.empty()) return;
    const Ints targets = to_view<Memory>(mine, "hepex::distributed_rref::targets");
    const Ints sources = to_view<Memory>(from, "hepex::distributed_rref::sources");
    detail::for_each_entry(
        "hepex::distributed_rref::place_e", space_, mine.size(), width,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          a(targets(i), first + j) = e(sources(i), j);
        });
    space_.fence();
  }

  // The first rank's error among the gathered messages ("" when none).
  static std::string first_error(const std::vector<std::string>& parts) {
    for (std::size_t r = 0; r < parts.size(); ++r) {
      if (parts[r].empty()) continue;
      Reader read(parts[r]);
      const std::string error = read.get_text();
      if (!error.empty()) return "rank " + std::to_string(r) + ": " + error;
    }
    return {};
  }

  void rethrow_pending() {
    if (!pending_.empty()) throw Error(pending_);
  }

 private:
  const distributed::Communicator& comm_;
  ExecSpace space_;
  field::Zp<Word> f_;
  Matrix<Word>& local_;
  int width_, chunk_;
  std::size_t rows_ = 0, cols_ = 0;
  Mat a_;
  Ints all_rows_;
  std::vector<int> row_pivots_, pivots_;
  std::string pending_;
  GemmWorkspace<Memory> workspace_;
};

}  // namespace

std::pair<std::size_t, std::size_t> rank_rows(std::size_t rows, int rank, int size) {
  if (size < 1 || rank < 0 || rank >= size) {
    throw Error("rank_rows: rank " + std::to_string(rank) + " of " + std::to_string(size));
  }
  const auto r = static_cast<std::size_t>(rank), s = static_cast<std::size_t>(size);
  const std::size_t base = rows / s, extra = rows % s;
  return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
}

template <class Word>
DistributedRrefResult distributed_rref(const distributed::Communicator& comm,
                                       const field::Zp<Word>& f, Matrix<Word>& local,
                                       const DistributedRrefOptions& options) {
  const KokkosLock lock;
  const Place place = runs_on(options.place);
  const int width = options.panel_columns > 0 ? options.panel_columns
                    : place == Place::device  ? 512
                                              : 256;
  if (place == Place::device) {
    return PanelLoop<DeviceSpace, Word>(comm, DeviceSpace(), f, local, width,
                                        options.update_columns)
        .run();
  }
  return PanelLoop<HostSpace, Word>(comm, HostSpace(), f, local, width, options.update_columns)
      .run();
}

template <class Word>
Matrix<Word> gather_rref(const distributed::Communicator& comm, const Matrix<Word>& local,
                         const DistributedRrefResult& result, int root) {
  if (result.row_pivots.size() != local.rows) {
    throw Error("gather_rref: the result is not of these rows");
  }
  Writer mine;
  std::vector<int> pivots;
  for (const int p : result.row_pivots)
    if (p >= 0) pivots.push_back(p);
  mine.put_array(pivots.data(), pivots.size());
  std::vector<Word> rows;
  rows.reserve(pivots.size() * local.cols);
  for (std::size_t i = 0; i < local.rows; ++i) {
    if (result.row_pivots[i] < 0) continue;
    const Word* row = local.data.data() + i * local.cols;
    rows.insert(rows.end(), row, row + local.cols);
  }
  mine.put_array(rows.data(), rows.size());
  const std::vector<std::string> parts = comm.gather(mine.take(), root);
  if (comm.rank() != root) return {};
  Matrix<Word> out(result.rows, result.cols, Word(0));
  for (const std::string& part : parts) {
    Reader read(part);
    const std::vector<int> theirs = read.get_array<int>();
    const std::vector<Word> entries = read.get_array<Word>();
    for (std::size_t j = 0; j < theirs.size(); ++j) {
      const auto at = std::lower_bound(result.pivots.begin(), result.pivots.end(), theirs[j]);
      const auto row = static_cast<std::size_t>(at - result.pivots.begin());
      std::copy_n(entries.begin() + static_cast<std::ptrdiff_t>(j * result.cols), result.cols,
                  out.data.begin() + static_cast<std::ptrdiff_t>(row * result.cols));
    }
  }
  return out;
}

template DistributedRrefResult distributed_rref<std::uint32_t>(const distributed::Communicator&,
                                                               const field::Zp32&,
                                                               Matrix<std::uint32_t>&,
                                                               const DistributedRrefOptions&);
template DistributedRrefResult distributed_rref<std::uint64_t>(const distributed::Communicator&,
                                                               const field::Zp64&,
                                                               Matrix<std::uint64_t>&,
                                                               const DistributedRrefOptions&);
template Matrix<std::uint32_t> gather_rref<std::uint32_t>(const distributed::Communicator&,
                                                          const Matrix<std::uint32_t>&,
                                                          const DistributedRrefResult&, int);
template Matrix<std::uint64_t> gather_rref<std::uint64_t>(const distributed::Communicator&,
                                                          const Matrix<std::uint64_t>&,
                                                          const DistributedRrefResult&, int);

}  // namespace hepex::linalg
