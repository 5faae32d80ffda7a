#include "hepex/core/host_threads.hpp"

#include <algorithm>
#include <atomic>

#include <Kokkos_Core.hpp>

#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/spaces.hpp"

#if defined(__linux__)
#include <sched.h>
#endif

namespace hepex {

namespace {
// The pool whose body this thread is running (a for_each from inside a body
// runs inline: waiting for the pool from its own worker would never end).
thread_local const HostThreads* running_body_of = nullptr;

struct RunningBody {
  const HostThreads* previous;
  explicit RunningBody(const HostThreads* pool) : previous(running_body_of) {
    running_body_of = pool;
  }
  ~RunningBody() { running_body_of = previous; }
};
}  // namespace

std::size_t available_host_threads() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int count = CPU_COUNT(&set);
    if (count > 0) return static_cast<std::size_t>(count);
  }
#endif
  return std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

std::size_t resolve_host_threads(std::size_t threads) {
  return threads == 0 ? available_host_threads() : threads;
}

HostThreads::HostThreads(std::size_t threads) {
  const std::size_t space = static_cast<std::size_t>(HostSpace().concurrency());
  if (space > 1 && (threads == 0 || threads == space)) {
    on_host_space_ = true;
    host_space_threads_ = space;
    return;
  }
  const std::size_t total = resolve_host_threads(threads);
  workers_.reserve(total - 1);
  for (std::size_t k = 1; k < total; ++k) workers_.emplace_back([this] { work(); });
}

HostThreads::~HostThreads() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& w : workers_) w.join();
}

void HostThreads::run_chunks() {
  while (true) {
    std::size_t begin;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (next_ >= count_) return;
      begin = next_;
      next_ = std::min(count_, next_ + chunk_);
    }
    const std::size_t end = std::min(count_, begin + chunk_);
    try {
      const RunningBody running(this);
      (*body_)(begin, end);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
      next_ = count_;  // the chunks not started are skipped
    }
  }
}

void HostThreads::work() {
  std::size_t seen = 0;
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      ++busy_;
    }
    run_chunks();
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      --busy_;
    }
    finished_.notify_one();
  }
}

void HostThreads::for_each(std::size_t count,
                           const std::function<void(std::size_t, std::size_t)>& body,
                           std::size_t grain) {
  if (count == 0) return;
  if (running_body_of == this) {  // from inside one of this pool's bodies
    body(0, count);
    return;
  }
  const std::lock_guard<std::mutex> one_call(call_);
  if (on_host_space_) {
    for_each_on_host_space(count, body, grain);
    return;
  }
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    body_ = &body;
    count_ = count;
    next_ = 0;
    // About four chunks a thread: uneven pieces balance, few lock trips.
    chunk_ = std::max<std::size_t>(std::max<std::size_t>(grain, 1), count / (4 * size()) + 1);
    error_ = nullptr;
    ++generation_;
  }
  start_.notify_all();
  run_chunks();
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    // Every chunk handed out is finished when no worker is busy and none is
    // left; a worker that has not woken yet finds none left and does nothing.
    finished_.wait(lock, [&] { return busy_ == 0 && next_ >= count_; });
    body_ = nullptr;
    error = error_;
    error_ = nullptr;
  }
  if (error) std::rethrow_exception(error);
}

void HostThreads::for_each_on_host_space(std::size_t count,
                                         const std::function<void(std::size_t, std::size_t)>& body,
                                         std::size_t grain) {
  const std::size_t chunk =
      std::max<std::size_t>(std::max<std::size_t>(grain, 1), count / (4 * host_space_threads_) + 1);
  const std::size_t chunks = (count + chunk - 1) / chunk;
  // No exception may leave an OpenMP region: the first is kept and rethrown.
  std::mutex error_mutex;
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  const KokkosLock lock;
  Kokkos::parallel_for("hepex::host_threads",
                       Kokkos::RangePolicy<HostSpace, Kokkos::Schedule<Kokkos::Dynamic>>(0, chunks),
                       [&](const std::size_t c) {
                         if (failed.load(std::memory_order_relaxed)) return;
                         try {
                           const RunningBody running(this);
                           body(c * chunk, std::min(count, (c + 1) * chunk));
                         } catch (...) {
                           const std::lock_guard<std::mutex> guard(error_mutex);
                           if (!error) error = std::current_exception();
                           failed = true;
                         }
                       });
  Kokkos::fence();
  if (error) std::rethrow_exception(error);
}

}  // namespace hepex
