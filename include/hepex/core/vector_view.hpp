#pragma once
// Host std::vector <-> one-dimensional View copies, for the host APIs' edge.

#include <string>
#include <vector>

#include "hepex/core/kokkos_compat.hpp"

namespace hepex {

// A new View in MemorySpace holding a copy of v.
template <class MemorySpace, class T>
Kokkos::View<T*, MemorySpace> to_view(const std::vector<T>& v, const std::string& label) {
  Kokkos::View<T*, MemorySpace> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), v.size());
  Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(v.data(),
                                                                                       v.size());
  Kokkos::deep_copy(d, h);
  return d;
}

// The contents of a View, on the host.
template <class T, class... Properties>
std::vector<std::remove_const_t<T>> to_vector(const Kokkos::View<T*, Properties...>& d) {
  std::vector<std::remove_const_t<T>> v(d.extent(0));
  Kokkos::View<std::remove_const_t<T>*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      h(v.data(), v.size());
  Kokkos::deep_copy(h, d);
  return v;
}

}  // namespace hepex
