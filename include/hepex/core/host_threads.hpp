#pragma once
// Host threads for work that is not a Kokkos kernel: the reconstruction's
// algebra, which is many small independent pieces (one per function, one per
// probe point) between the black box's batches. A Kokkos build with the
// Serial host space (Debian's) has no other way to use the host's cores.
//
// Where the Kokkos host space has threads of its own (OpenMP, as in the GPU
// build) and `threads` is 0 or their number, for_each runs on them (a Kokkos
// parallel_for over the chunks): two sets of threads on the same cores took
// them from each other (the pentagon's probes twice as slow on 16 cores).
// Else a pool of std::threads:
// the calling thread works too; the others sleep on a condition variable
// between calls (a pentagon's table is thousands of parallel sections; a
// spin before sleeping gained nothing on 2 cores and slowed the host space's
// OpenMP threads on a GPU node's 16).
// Bodies must not call Kokkos (a Serial space is not safe from several
// threads) nor interruption_point() (the progress watch is the caller's).

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hepex {

// The cores this process may run on (its affinity mask: `taskset -c 1`
// gives 1), at least 1.
std::size_t available_host_threads();

// The threads a `threads` option means: 0 is available_host_threads().
std::size_t resolve_host_threads(std::size_t threads);

class HostThreads {
 public:
  // `threads` in all, the caller included (0: the host space's threads
  // where it has several, else available_host_threads()).
  explicit HostThreads(std::size_t threads = 0);
  ~HostThreads();
  HostThreads(const HostThreads&) = delete;
  HostThreads& operator=(const HostThreads&) = delete;

  std::size_t size() const { return on_host_space_ ? host_space_threads_ : workers_.size() + 1; }

  // body(begin, end) over [0, count) in chunks of at least `grain` items,
  // handed out in order as threads come free (pieces of uneven cost
  // balance). Returns when every chunk is done; the first exception a body
  // threw is rethrown here (the other chunks still run or are skipped).
  // One call at a time per object (a second thread's call waits); a call
  // from inside a body of the same object runs inline.
  void for_each(std::size_t count, const std::function<void(std::size_t, std::size_t)>& body,
                std::size_t grain = 1);

 private:
  void work();
  void run_chunks();
  void for_each_on_host_space(std::size_t count,
                              const std::function<void(std::size_t, std::size_t)>& body,
                              std::size_t grain);

  bool on_host_space_ = false;
  std::size_t host_space_threads_ = 1;

  std::vector<std::thread> workers_;
  std::mutex call_;  // one for_each at a time
  std::mutex mutex_;
  std::condition_variable start_, finished_;
  std::size_t generation_ = 0;
  std::size_t busy_ = 0;
  bool stop_ = false;
  // The current call.
  const std::function<void(std::size_t, std::size_t)>* body_ = nullptr;
  std::size_t count_ = 0, chunk_ = 1, next_ = 0;
  std::exception_ptr error_;
};

// for_each on `threads` when given and worth it, else in the caller.
inline void for_each_on(HostThreads* threads, std::size_t count,
                        const std::function<void(std::size_t, std::size_t)>& body,
                        std::size_t grain = 1) {
  if (threads != nullptr && threads->size() > 1 && count > grain) {
    threads->for_each(count, body, grain);
  } else if (count > 0) {
    body(0, count);
  }
}

}  // namespace hepex
