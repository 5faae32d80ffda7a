// distributed_rref and gather_rref (distributed_rref.hpp): the forward
// pass's panel loop and the update of each rank's rows on its execution
// space; the back substitution in distributed_back_substitution.hpp, what
// both share in distributed_rref_common.hpp.
#include "hepex/linalg/distributed_rref.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstring>
#include <exception>
#include <string>
#include <type_traits>

#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "hepex/linalg/row_subset.hpp"
#include "hepex/linalg/rref.hpp"

#include "../distributed/device_all_gather.hpp"
#include "distributed_back_substitution.hpp"
#include "distributed_rref_common.hpp"

namespace hepex::linalg {

namespace {

using namespace distributed_rref_detail;

// The forward pass, per panel of w columns from column c (the free rows are
// zero left of c):
//   1. every rank sends root its first min(w, free) free rows' slices (a
//      trial: on a matrix of full rank any w rows with independent slices
//      span the panel, so no rank eliminates anything);
//   2. root takes the first w offered rows, in an order that draws from the
//      ranks with the most free rows first (so that the free rows, the
//      forward pass's work, stay balanced), and reduces [S_p | I]
//      (pivot_transform): when their slices are independent, S is found in
//      this one elimination. Otherwise S is the offered rows that span the
//      others (spanning_rows); if these span fewer than w dimensions while
//      some rank holds more free rows than it sent, root asks again, and
//      every rank sends the free rows that span all of its free rows'
//      slices (the pivot columns of the RREF of the transposed slices): S
//      from these is complete. Root answers with S's owners (grouped by
//      rank), the pivots Q and G;
//   3. the owners share S's rows (RowSharing);
//   4. every rank forms E = G S = RREF(S) and updates its free rows,
//      A[:, c:] -= A[:, c + Q] E (the pivot rows of earlier panels are left
//      to the back substitution), and the owners write E over S.
template <class ExecSpace, class Word>
class PanelLoop {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Mat = DeviceMatrix<Word, Memory>;
  using Ints = Kokkos::View<int*, Memory>;

  PanelLoop(const distributed::Communicator& comm, const ExecSpace& space, const field::Zp<Word>& f,
            const Mat& local, int width, int chunk, DistributedRrefOptions::Messages messages)
      : comm_(comm),
        space_(space),
        f_(f),
        a_(local),
        width_(width),
        chunk_(chunk),
        messages_(messages) {}

  DistributedRrefResult run() {
    const Kokkos::Timer whole;
    using Messages = DistributedRrefOptions::Messages;
    constexpr bool on_gpu = has_accelerator && std::is_same_v<ExecSpace, DeviceSpace>;
    if (messages_ == Messages::nccl && !on_gpu) {
      throw Error(
          "distributed rref: NCCL carries rows between GPUs; these rows are in host memory");
    }
    if (messages_ == Messages::nccl && !distributed::built_with_nccl()) {
      throw Error(
          "distributed rref: NCCL was asked for, but this hepex was built without it "
          "(HEPEX_ENABLE_NCCL, docs/gpu.md)");
    }
    DistributedRrefResult result = agree_on_shape();
    const double entries = static_cast<double>(result.rows) * static_cast<double>(result.cols);
    if (messages_ == Messages::nccl ||
        (messages_ == Messages::automatic && on_gpu && distributed::built_with_nccl() &&
         !comm_.alone() && entries >= 16777216.0)) {
      sharing_.use_device_messages(distributed::DeviceAllGather::open(comm_));
    }
    result.nccl = sharing_.device_messages();
    rows_ = a_.extent(0);
    cols_ = a_.extent(1);
    row_pivots_.assign(rows_, -1);
    for (std::size_t c = 0; c < cols_; c += static_cast<std::size_t>(width_)) {
      const int w = static_cast<int>(std::min<std::size_t>(width_, cols_ - c));
      std::string answer = offer(c, w, false);
      if (static_cast<std::uint8_t>(answer.at(0)) == answer_more) answer = offer(c, w, true);
      Reader read(answer);
      if (read.get<std::uint8_t>() == answer_done) break;
      Panel panel;
      panel.first = c;
      panel.ranks = read.get_array<int>();
      panel.rows = read.get_array<int>();
      panel.offsets = read.get_array<int>();
      const std::vector<Word> g = read.get_array<Word>();
      ++result.panels;
      if (panel.rows.empty()) continue;  // the panel's columns are zero in every free row
      std::vector<std::size_t> counts(static_cast<std::size_t>(comm_.size()), 0);
      std::vector<int> mine;
      for (std::size_t j = 0; j < panel.rows.size(); ++j) {
        ++counts.at(static_cast<std::size_t>(panel.ranks[j]));
        if (panel.ranks[j] == comm_.rank()) mine.push_back(panel.rows[j]);
      }
      const Mat s = sharing_.share(comm_, space_, a_, mine, c, cols_ - c, counts, pending_,
                                   seconds_.rows, seconds_.messages);
      try {
        timed(seconds_.update, [&] { apply(panel, g, s); });
      } catch (const std::exception& e) {
        pending_ = e.what();
      }
      for (const int q : panel.offsets) pivots_.push_back(static_cast<int>(c) + q);
      panels_.push_back(std::move(panel));
    }
    BackSubstitution<ExecSpace, Word>(comm_, space_, f_, a_, pivots_, row_pivots_, panels_, chunk_)
        .run(sharing_, pending_, seconds_.rows, seconds_.messages, seconds_.back);
    // A failure in the last steps reaches every rank here.
    exchange(Writer().put_text(pending_).take(),
             [](const std::vector<std::string>&) { return Writer().put(answer_done).take(); });
    result.rank = pivots_.size();
    result.pivots = pivots_;
    result.row_pivots = row_pivots_;
    seconds_.total = whole.seconds();
    result.seconds = seconds_;
    return result;
  }

  // The steps are public: nvcc takes no device lambda in a private member.
  // Steps 1 and 2: this rank's candidates to root, root's answer back.
  std::string offer(std::size_t c, int w, bool spanning) {
    std::string message;
    try {
      rethrow_pending();
      message = timed(seconds_.candidates, [&] { return candidates(c, w, spanning); });
    } catch (const std::exception& e) {
      message = Writer().put_text(e.what()).take();
    }
    return exchange(message, [&](const std::vector<std::string>& parts) {
      return choose(parts, w, !spanning);
    });
  }

  // Every rank's column count equals rank 0's; the total row count.
  DistributedRrefResult agree_on_shape() {
    const std::vector<std::string> parts =
        comm_.gather(Writer()
                         .put(static_cast<std::uint64_t>(a_.extent(0)))
                         .put(static_cast<std::uint64_t>(a_.extent(1)))
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
  // becomes the same Error on every rank. Root's answer counts as `choose`.
  template <class Answer>
  std::string exchange(const std::string& message, const Answer& answer) {
    const Kokkos::Timer timer;
    double root_seconds = 0;
    const std::vector<std::string> parts = comm_.gather(message);
    std::string reply;
    if (comm_.rank() == 0) {
      try {
        const std::string error = first_error(parts);
        reply = error.empty() ? timed(root_seconds, [&] { return answer(parts); })
                              : Writer().put(answer_error).put_text(error).take();
      } catch (const std::exception& e) {
        reply = Writer().put(answer_error).put_text("rank 0: " + std::string(e.what())).take();
      }
    }
    comm_.broadcast(reply);
    seconds_.choose += root_seconds;
    seconds_.messages += timer.seconds() - root_seconds;
    Reader read(reply);
    if (read.get<std::uint8_t>() == answer_error) throw Error(read.get_text());
    return reply;
  }

  // Step 1: this rank's free row count, whether it sends all of its free
  // rows, and candidates with their slices (columns c..c+w-1): the first
  // min(w, free) free rows, or (spanning) those that span every free row's
  // slice.
  std::string candidates(std::size_t c, int w, bool spanning) {
    std::vector<int> free;
    for (std::size_t i = 0; i < rows_; ++i)
      if (row_pivots_[i] < 0) free.push_back(static_cast<int>(i));
    std::vector<int> chosen;
    const auto width = static_cast<std::size_t>(w);
    if (!spanning || free.size() <= width) {
      chosen.assign(free.begin(),
                    free.begin() + static_cast<std::ptrdiff_t>(std::min(free.size(), width)));
    } else {
      const Mat slices = RowSharing<ExecSpace, Word>::gather(space_, a_, free, c, width);
      for (const int at : spanning_rows(space_, f_, slices, width)) chosen.push_back(free[at]);
    }
    const Matrix<Word> panel =
        to_host(RowSharing<ExecSpace, Word>::gather(space_, a_, chosen, c, width));
    const std::uint8_t complete = spanning || free.size() <= width ? 1 : 0;
    return Writer()
        .put_text(std::string())
        .put(static_cast<std::uint64_t>(free.size()))
        .put(complete)
        .put_array(chosen.data(), chosen.size())
        .put_array(panel.data.data(), panel.data.size())
        .take();
  }

  // Step 2, on root: S among every rank's candidates, by their slices, or
  // (when `may_ask` and S might miss some free row's slice) answer_more.
  std::string choose(const std::vector<std::string>& parts, int w, bool may_ask) {
    const auto width = static_cast<std::size_t>(w);
    struct Offer {
      std::uint64_t free = 0;
      std::vector<int> rows;
      std::vector<Word> slices;
    };
    std::vector<Offer> offers(parts.size());
    std::uint64_t free_rows = 0;
    bool complete = true;
    for (std::size_t r = 0; r < parts.size(); ++r) {
      Reader read(parts[r]);
      read.get_text();
      offers[r].free = read.get<std::uint64_t>();
      const bool sent_all = read.get<std::uint8_t>() == 1;
      complete = complete && sent_all;
      offers[r].rows = read.get_array<int>();
      offers[r].slices = read.get_array<Word>();
      free_rows += offers[r].free;
      if (offers[r].slices.size() != offers[r].rows.size() * width ||
          offers[r].rows.size() > offers[r].free) {
        throw Error("distributed rref: rank " + std::to_string(r) + " sent a malformed panel",
                    ErrorKind::runtime);
      }
    }
    if (free_rows == 0) return Writer().put(answer_done).take();
    // The candidates in the order S is picked from: each next one from the
    // rank with the most free rows not yet offered.
    std::vector<int> owner_rank, owner_row;
    std::vector<Word> stacked;
    std::vector<std::size_t> next(offers.size(), 0);
    std::vector<std::uint64_t> left(offers.size());
    for (std::size_t r = 0; r < offers.size(); ++r) left[r] = offers[r].free;
    for (;;) {
      std::size_t best = offers.size();
      for (std::size_t r = 0; r < offers.size(); ++r) {
        if (next[r] < offers[r].rows.size() && (best == offers.size() || left[r] > left[best]))
          best = r;
      }
      if (best == offers.size()) break;
      const std::size_t at = next[best]++;
      --left[best];
      owner_rank.push_back(static_cast<int>(best));
      owner_row.push_back(offers[best].rows[at]);
      const auto from = offers[best].slices.begin() + static_cast<std::ptrdiff_t>(at * width);
      stacked.insert(stacked.end(), from, from + static_cast<std::ptrdiff_t>(width));
    }
    Matrix<Word> all(owner_row.size(), width);
    all.data = std::move(stacked);
    const Mat candidates = to_device<Memory>(all, "hepex::distributed_rref::candidates");
    // S grouped by rank (the order in which the owners' rows arrive).
    const auto by_owner = [&](std::vector<int> picked) {
      std::sort(picked.begin(), picked.end(), [&](int x, int y) {
        return std::make_pair(owner_rank[x], owner_row[x]) <
               std::make_pair(owner_rank[y], owner_row[y]);
      });
      return picked;
    };
    // The first w candidates (a matrix of full rank: almost always
    // independent) in one elimination; else those that span all of them.
    std::vector<int> picked, q;
    Matrix<Word> g;
    if (owner_row.size() >= width) {
      std::vector<int> first(width);
      for (std::size_t j = 0; j < width; ++j) first[j] = static_cast<int>(j);
      picked = by_owner(first);
      if (!pivot_transform(candidates, picked, w, q, g)) picked.clear();
    }
    if (picked.empty()) {
      picked = spanning_rows(space_, f_, candidates, width);
      if (may_ask && !complete && picked.size() < width) return Writer().put(answer_more).take();
      picked = by_owner(picked);
      if (!pivot_transform(candidates, picked, w, q, g)) {
        throw Error("distributed rref: the panel's rows lost their independence",
                    ErrorKind::runtime);
      }
    }
    std::vector<int> ranks, rows;
    for (const int j : picked) {
      ranks.push_back(owner_rank[static_cast<std::size_t>(j)]);
      rows.push_back(owner_row[static_cast<std::size_t>(j)]);
    }
    return Writer()
        .put(answer_panel)
        .put_array(ranks.data(), ranks.size())
        .put_array(rows.data(), rows.size())
        .put_array(q.data(), q.size())
        .put_array(g.data.data(), g.data.size())
        .take();
  }

  // G (k x k, on the host) and the pivots q of S_p, the candidates' slices
  // `picked`: the RREF of [S_p | I_k] is [G S_p | G] with G invertible and
  // G S_p = RREF(S_p), so that RREF(S) = G S for the whole rows S whose
  // panel slices are S_p (a free row is zero left of the panel). False when
  // the slices are not independent (a pivot right of S_p).
  bool pivot_transform(const Mat& candidates, const std::vector<int>& picked, int w,
                       std::vector<int>& q, Matrix<Word>& g_host) {
    const std::size_t k = picked.size();
    q.clear();
    g_host = Matrix<Word>(0, 0);
    if (k == 0) return true;
    const Ints which = to_view<Memory>(picked, "hepex::distributed_rref::picked");
    const Mat m("hepex::distributed_rref::s_panel", k, static_cast<std::size_t>(w) + k);
    const Word one = f_.one();
    const auto panel = static_cast<std::int64_t>(w);
    detail::for_each_entry(
        "hepex::distributed_rref::s_panel", space_, k, static_cast<std::size_t>(w) + k,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          m(i, j) = j < panel ? candidates(which(i), j) : j - panel == i ? one : Word(0);
        });
    const RrefResult reduced = rref(space_, f_, m);
    if (reduced.rank != k || reduced.pivots.back() >= w) return false;
    q = reduced.pivots;
    const Mat g(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hepex::distributed_rref::g")),
        k, k);
    detail::for_each_entry(
        "hepex::distributed_rref::g", space_, k, k,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { g(i, j) = m(i, panel + j); });
    g_host = to_host(g);
    return true;
  }

  // Step 4: E = G S; A[f, c:] -= A[f, c + Q] E for this rank's free rows f
  // other than S's; E's rows over S's.
  void apply(const Panel& panel, const std::vector<Word>& g_entries, const Mat& s) {
    const std::size_t k = panel.offsets.size(), width = cols_ - panel.first;
    if (g_entries.size() != k * k || s.extent(0) != k) {
      throw Error("distributed rref: root sent a malformed panel", ErrorKind::runtime);
    }
    std::vector<int> mine, from, free;
    for (std::size_t j = 0; j < k; ++j) {
      if (panel.ranks[j] != comm_.rank()) continue;
      mine.push_back(panel.rows[j]);
      from.push_back(static_cast<int>(j));
      row_pivots_.at(static_cast<std::size_t>(panel.rows[j])) =
          static_cast<int>(panel.first) + panel.offsets[j];
    }
    for (std::size_t i = 0; i < rows_; ++i)
      if (row_pivots_[i] < 0) free.push_back(static_cast<int>(i));
    if (mine.empty() && free.empty()) return;
    Matrix<Word> g_host(k, k);
    g_host.data = g_entries;
    const Mat g = to_device<Memory>(g_host, "hepex::distributed_rref::g");
    const Mat e(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hepex::distributed_rref::e")),
        k, width);
    modgemm(space_, f_, ConstDeviceMatrix<Word, Memory>(g), ConstDeviceMatrix<Word, Memory>(s), e,
            GemmMethod::automatic, false, &workspace_);
    const Mat a = a_;
    const auto first = static_cast<std::int64_t>(panel.first);
    if (!free.empty()) update_free_rows(free, panel, e);
    if (!mine.empty()) {
      const Ints targets = to_view<Memory>(mine, "hepex::distributed_rref::targets");
      const Ints sources = to_view<Memory>(from, "hepex::distributed_rref::sources");
      detail::for_each_entry(
          "hepex::distributed_rref::place_e", space_, mine.size(), width,
          KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
            a(targets(i), first + j) = e(sources(i), j);
          });
    }
    space_.fence();
  }

  // A[f, c:] -= A[f, c + Q] E over chunks of columns, as the blocked rref's
  // update (its product_columns): the int8 product's scratch grows with C's
  // entries, and a block of 50,000 rows of 200,000 columns would not fit.
  void update_free_rows(const std::vector<int>& free, const Panel& panel, const Mat& e) {
    const std::size_t k = e.extent(0), width = e.extent(1);
    const Ints rows = to_view<Memory>(free, "hepex::distributed_rref::free");
    std::vector<int> pivot_columns;
    for (const int q : panel.offsets) pivot_columns.push_back(static_cast<int>(panel.first) + q);
    const Ints columns = to_view<Memory>(pivot_columns, "hepex::distributed_rref::q");
    const Mat factors(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                         std::string("hepex::distributed_rref::factors")),
                      free.size(), k);
    const Mat a = a_;
    const field::Zp<Word> f = f_;
    detail::for_each_entry(
        "hepex::distributed_rref::factors", space_, free.size(), k,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          factors(i, j) = f.neg(a(rows(i), columns(j)));
        });
    const auto width_int = static_cast<int>(width);
    const int chunk =
        detail::product_columns(chunk_, static_cast<std::int64_t>(free.size()), width_int);
    const auto first = static_cast<std::int64_t>(panel.first);
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
              RowSubset<Word, Memory>{a_, rows, first + from}, GemmMethod::automatic, true,
              &workspace_);
    }
    workspace_.keep_left_operand(false);
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
  Mat a_;
  int width_, chunk_;
  DistributedRrefOptions::Messages messages_;
  std::size_t rows_ = 0, cols_ = 0;
  std::vector<int> row_pivots_, pivots_;
  std::vector<Panel> panels_;
  std::string pending_;
  RowSharing<ExecSpace, Word> sharing_;
  DistributedRrefSeconds seconds_;
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

namespace {

// Panels of 1024 columns on a GPU: at n = 100,000 on 2 H200s (NCCL) 512,
// 768, 1024, 1536 and 2048 took 17.69, 15.16, 14.17, 15.81 and 16.88 s. The
// update's modgemm has k = w, and the int8 product's rate grows with k (26.7
// s of update on one rank at 512, 16.8 s at 1024); rank 0's choice, whose
// two eliminations are w x 2w, grows with w (1.9 s at 512, 2.6 s at 1024,
// 6.3 s at 2048). perf/results/distributed/README.md has the runs.
int panel_width(const DistributedRrefOptions& options, Place place) {
  return options.panel_columns > 0 ? options.panel_columns : place == Place::device ? 1024 : 256;
}

}  // namespace

template <class Word>
DistributedRrefResult distributed_rref(const distributed::Communicator& comm,
                                       const field::Zp<Word>& f, Matrix<Word>& local,
                                       const DistributedRrefOptions& options) {
  const KokkosLock lock;
  const Place place = runs_on(options.place);
  const int width = panel_width(options, place);
  if (place == Place::device) {
    const auto a = to_device<DeviceMemory>(local, "hepex::distributed_rref::rows");
    const auto result = PanelLoop<DeviceSpace, Word>(comm, DeviceSpace(), f, a, width,
                                                     options.update_columns, options.messages)
                            .run();
    local = to_host(a);
    return result;
  }
  const auto a = to_device<HostSpace::memory_space>(local, "hepex::distributed_rref::rows");
  const auto result = PanelLoop<HostSpace, Word>(comm, HostSpace(), f, a, width,
                                                 options.update_columns, options.messages)
                          .run();
  local = to_host(a);
  return result;
}

template <class Word>
DistributedRrefResult distributed_rref(const distributed::Communicator& comm,
                                       const field::Zp<Word>& f,
                                       const DeviceMatrix<Word, DeviceMemory>& local,
                                       const DistributedRrefOptions& options) {
  const KokkosLock lock;
  return PanelLoop<DeviceSpace, Word>(comm, DeviceSpace(), f, local,
                                      panel_width(options, runs_on(Place::device)),
                                      options.update_columns, options.messages)
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
template DistributedRrefResult distributed_rref<std::uint32_t>(
    const distributed::Communicator&, const field::Zp32&,
    const DeviceMatrix<std::uint32_t, DeviceMemory>&, const DistributedRrefOptions&);
template DistributedRrefResult distributed_rref<std::uint64_t>(
    const distributed::Communicator&, const field::Zp64&,
    const DeviceMatrix<std::uint64_t, DeviceMemory>&, const DistributedRrefOptions&);
template Matrix<std::uint32_t> gather_rref<std::uint32_t>(const distributed::Communicator&,
                                                          const Matrix<std::uint32_t>&,
                                                          const DistributedRrefResult&, int);
template Matrix<std::uint64_t> gather_rref<std::uint64_t>(const distributed::Communicator&,
                                                          const Matrix<std::uint64_t>&,
                                                          const DistributedRrefResult&, int);

}  // namespace hepex::linalg
