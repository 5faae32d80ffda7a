#pragma once
// What the steps of distributed_rref (distributed_rref.cpp) and its back
// substitution (distributed_back_substitution.hpp) share: messages of host
// bytes, the answers root sends, timing, the choice of spanning rows, and
// rows of the ranks' matrices shared with every rank.
#include <Kokkos_Core.hpp>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "../distributed/device_all_gather.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/distributed/communicator.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"
#include "hepex/linalg/rref.hpp"

namespace hepex::linalg::distributed_rref_detail {

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

// Root's answers in an exchange (distributed_rref.cpp says what follows each).
constexpr std::uint8_t answer_error = 0, answer_done = 1, answer_panel = 2, answer_more = 3;

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

// Host memory for S's rows on their way between the device and MPI: pinned
// on a CUDA build, so that the copies run at the bus's speed.
#if defined(KOKKOS_ENABLE_CUDA)
using StagingMemory = Kokkos::CudaHostPinnedSpace;
#else
using StagingMemory = Kokkos::HostSpace;
#endif

// Adds the seconds `step` takes to `into`.
template <class Step>
auto timed(double& into, const Step& step) {
  const Kokkos::Timer timer;
  if constexpr (std::is_void_v<decltype(step())>) {
    step();
    into += timer.seconds();
  } else {
    auto value = step();
    into += timer.seconds();
    return value;
  }
}

// The CUDA stream of `space`, for NCCL (nullptr off CUDA).
template <class ExecSpace>
void* stream_of(const ExecSpace& space) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) return space.cuda_stream();
#endif
  (void)space;
  return nullptr;
}

// Rows of the ranks' matrices shared with every rank: each owner's rows
// (some of its local rows, some columns), all of them on every rank in rank
// order, in the rank's memory. GPU to GPU over NCCL when given one
// (use_device_messages), else through host buffers kept from call to call
// (pinned on a GPU) over MPI. A rank that cannot send its rows fails every
// rank before any row travels: every rank first learns every rank's error
// (one small all-gather over MPI).
template <class ExecSpace, class Word>
class RowSharing {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Mat = DeviceMatrix<Word, Memory>;
  using HostRows = Kokkos::View<Word**, Kokkos::LayoutRight, Kokkos::HostSpace,
                                Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  void use_device_messages(std::unique_ptr<distributed::DeviceAllGather> nccl) {
    nccl_ = std::move(nccl);
  }
  bool device_messages() const { return nccl_ != nullptr; }

  // This rank's rows `mine` of `a`, columns [first, first + width), with
  // those of every rank (rank r sends counts[r] rows): all of them, in rank
  // order. `pending`: this rank's earlier failure, sent as its error. Adds
  // the seconds spent copying to `copy_seconds`, those in messages to
  // `message_seconds`.
  Mat share(const distributed::Communicator& comm, const ExecSpace& space, const Mat& a,
            const std::vector<int>& mine, std::size_t first, std::size_t width,
            const std::vector<std::size_t>& counts, const std::string& pending,
            double& copy_seconds, double& message_seconds) {
    std::size_t total = 0, before = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      if (static_cast<int>(r) < comm.rank()) before += counts[r];
      total += counts[r];
    }
    Mat all;
    std::string error = pending;
    if (error.empty()) {
      try {
        timed(copy_seconds, [&] {
          all = Mat(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                       std::string("hepex::distributed_rref::shared_rows")),
                    total, width);
          if (nccl_) {
            gather_into(space, a, mine, first, width, all, before);
            return;
          }
          grow(send_, mine.size() * width, "hepex::distributed_rref::send");
          grow(all_, total * width, "hepex::distributed_rref::all");
          const Mat rows(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                            std::string("hepex::distributed_rref::rows_from")),
                         mine.size(), width);
          gather_into(space, a, mine, first, width, rows, 0);
          Kokkos::deep_copy(HostRows(send_.data(), mine.size(), width), rows);
        });
      } catch (const std::exception& e) {
        error = e.what();
      }
    }
    const Kokkos::Timer timer;
    const std::vector<std::string> errors = comm.all_gather(error);
    for (std::size_t r = 0; r < errors.size(); ++r) {
      if (!errors[r].empty()) throw Error("rank " + std::to_string(r) + ": " + errors[r]);
    }
    if (nccl_) {
      std::vector<std::size_t> offsets(counts.size()), bytes(counts.size());
      for (std::size_t r = 0, at = 0; r < counts.size(); at += counts[r++]) {
        offsets[r] = at * width * sizeof(Word);
        bytes[r] = counts[r] * width * sizeof(Word);
      }
      nccl_->all_gather_in_place(all.data(), offsets, bytes, stream_of(space));
      message_seconds += timer.seconds();
      return all;
    }
    std::vector<std::size_t> values(counts.size());
    for (std::size_t r = 0; r < counts.size(); ++r) values[r] = counts[r] * width;
    comm.all_gather_into(send_.data(), all_.data(), values, sizeof(Word));
    message_seconds += timer.seconds();
    timed(copy_seconds, [&] { Kokkos::deep_copy(all, HostRows(all_.data(), total, width)); });
    return all;
  }

  // Rows `which` of `a`, columns [first, first + width), in this rank's memory.
  static Mat gather(const ExecSpace& space, const Mat& a, const std::vector<int>& which,
                    std::size_t first, std::size_t width) {
    const Mat out(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                     std::string("hepex::distributed_rref::rows_from")),
                  which.size(), width);
    gather_into(space, a, which, first, width, out, 0);
    return out;
  }

  // The same into rows [at, at + which.size()) of `out`.
  static void gather_into(const ExecSpace& space, const Mat& a, const std::vector<int>& which,
                          std::size_t first, std::size_t width, const Mat& out, std::size_t at) {
    if (which.empty() || width == 0) return;
    const auto rows = to_view<Memory>(which, "hepex::distributed_rref::which");
    const auto from = static_cast<std::int64_t>(first);
    const auto to = static_cast<std::int64_t>(at);
    detail::for_each_entry(
        "hepex::distributed_rref::rows_from", space, which.size(), width,
        KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
          out(to + i, j) = a(rows(i), from + j);
        });
  }

 private:
  using Staging = Kokkos::View<Word*, StagingMemory>;
  // A buffer of at least `size` values (kept for the next calls).
  static void grow(Staging& buffer, std::size_t size, const char* label) {
    if (buffer.extent(0) < size) {
      buffer = Staging();
      buffer = Staging(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), size);
    }
  }
  Staging send_, all_;
  std::unique_ptr<distributed::DeviceAllGather> nccl_;
};

}  // namespace hepex::linalg::distributed_rref_detail

namespace hepex::linalg::distributed_rref_detail {

// One panel of the forward pass: its first column, and its pivot rows in
// the order of E's rows: row j has pivot column first + offsets[j] and lies
// at local row rows[j] of rank ranks[j] (ranks increasing).
struct Panel {
  std::size_t first = 0;
  std::vector<int> offsets, ranks, rows;
};

}  // namespace hepex::linalg::distributed_rref_detail
