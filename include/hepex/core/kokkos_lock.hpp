#pragma once
// One lock for all Kokkos work of the process.
//
// Kokkos's execution-space instances are process-wide, and their shared
// internals are not safe to use from several host threads at once: in
// Kokkos 3.x the Serial and OpenMP spaces keep one team-scratch and reduction
// buffer per instance, and every version shares the default GPU instance's
// scratch. Three Python threads evaluating matrix elements through one
// Serial build got 14 of 15 results wrong, silently (issue 36).
//
// So every hepex entry point that launches Kokkos work holds this lock for
// its whole call: calls from several threads are serialised, each gets its
// right answer, one after the other. The lock is recursive: entry points call
// each other, and a black box evaluated inside reconstruct() may call hepex
// again on the same thread. A program that launches Kokkos work of its own
// from several threads beside hepex's can hold it too.

#include <mutex>

namespace hepex {

std::recursive_mutex& kokkos_mutex();

class KokkosLock {
 public:
  KokkosLock() : lock_(kokkos_mutex()) {}
  KokkosLock(const KokkosLock&) = delete;
  KokkosLock& operator=(const KokkosLock&) = delete;

 private:
  std::unique_lock<std::recursive_mutex> lock_;
};

}  // namespace hepex
