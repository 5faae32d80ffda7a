#pragma once
// Explicit instantiation of the kernels templated on an execution space: the
// library compiles each (space, type) pair once (src/<family>/*_instances.cpp)
// and its headers declare them extern, so a file that calls the kernel does
// not compile it again. HEPEX_FOR_EACH_SPACE(X) expands X(Space) for every
// Kokkos execution space the build enables, each once.

#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_SERIAL
#define HEPEX_INSTANCES_SERIAL(X) X(Kokkos::Serial)
#else
#define HEPEX_INSTANCES_SERIAL(X)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
#define HEPEX_INSTANCES_OPENMP(X) X(Kokkos::OpenMP)
#else
#define HEPEX_INSTANCES_OPENMP(X)
#endif
#if defined(KOKKOS_ENABLE_CUDA)
#define HEPEX_INSTANCES_DEVICE(X) X(Kokkos::Cuda)
#elif defined(KOKKOS_ENABLE_HIP)
#define HEPEX_INSTANCES_DEVICE(X) X(Kokkos::HIP)
#else
#define HEPEX_INSTANCES_DEVICE(X)
#endif

#define HEPEX_FOR_EACH_SPACE(X) \
  HEPEX_INSTANCES_SERIAL(X) HEPEX_INSTANCES_OPENMP(X) HEPEX_INSTANCES_DEVICE(X)
