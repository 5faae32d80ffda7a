#pragma once
// Every difference between Kokkos 3.4.01 (Debian 12, Serial only) and
// Kokkos 4.x (CUDA/HIP/OpenMP builds) that hepex relies on lives here (the
// math functions in kokkos_math.hpp).

#include <Kokkos_Core.hpp>
#include <cstring>
#include <type_traits>
#include <vector>

#include "hepex/core/kokkos_math.hpp"

namespace hepex::compat {

inline constexpr int kokkos_version = KOKKOS_VERSION;  // e.g. 30401, 40601
inline constexpr int kokkos_major = KOKKOS_VERSION / 10000;
inline constexpr int kokkos_minor = KOKKOS_VERSION / 100 % 100;
inline constexpr int kokkos_patch = KOKKOS_VERSION % 100;

// Reinterprets the bits of a trivially copyable value: Kokkos::bit_cast from
// 4.0 on, memcpy (valid in device code too) before.
template <class To, class From>
KOKKOS_INLINE_FUNCTION To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs equal sizes");
#if KOKKOS_VERSION >= 40000
  return Kokkos::bit_cast<To>(from);
#else
  To to;
  memcpy(&to, &from, sizeof(To));
  return to;
#endif
}

// A load that sees what other threads (other GPU blocks) stored before their
// memory fence: Kokkos::atomic_load from 4.0 on; before, an atomic add of 0.
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_read(T* p) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::atomic_load(p);
#else
  return Kokkos::atomic_fetch_add(p, T(0));
#endif
}

// Number of threads/lanes an execution-space instance offers: a static member
// in 3.x, an instance member in 4.x (callable on an instance in both).
template <class ExecSpace>
int concurrency(const ExecSpace& space = ExecSpace()) {
  return space.concurrency();
}

// The threads partition_space can deal out of `space`: for an OpenMP
// instance that is itself a partition, Kokkos 4.6's concurrency() still
// reports the whole pool, and partition_space aborts when a part would get no
// thread; it counts the instance's own pool, as here.
template <class ExecSpace>
int partitionable_threads(const ExecSpace& space) {
#if defined(KOKKOS_ENABLE_OPENMP) && KOKKOS_VERSION >= 40000
  if constexpr (std::is_same<ExecSpace, Kokkos::OpenMP>::value) {
    return space.impl_internal_space_instance()->thread_pool_size();
  }
#endif
  return space.concurrency();
}

// `n` execution-space instances that may run concurrently (CUDA streams):
// Kokkos::Experimental::partition_space from 4.0 on; before, n handles on the
// one default instance (work on them runs in order, which is all Serial has).
// A host space (OpenMP) gives each instance threads of its own, so it makes
// at most one instance per thread and hands those out again round-robin.
template <class ExecSpace>
std::vector<ExecSpace> partition_instances(const ExecSpace& space, int n) {
#if KOKKOS_VERSION >= 40000
  const int pool = partitionable_threads(space);
  const int threads = pool > 0 ? pool : 1;
  const int distinct = n < threads ? n : threads;
  const auto made = Kokkos::Experimental::partition_space(space, std::vector<int>(distinct, 1));
  std::vector<ExecSpace> instances;
  for (int i = 0; i < n; ++i) instances.push_back(made[i % distinct]);
  return instances;
#else
  return std::vector<ExecSpace>(n, space);
#endif
}

}  // namespace hepex::compat
