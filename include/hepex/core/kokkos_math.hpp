#pragma once
// Kokkos's real math functions under one name for Kokkos 3.4.01 and 4.x,
// from Kokkos's macros and math header alone (not Kokkos_Core.hpp): the
// per-instruction-set ME kernels include it and must not pick up Kokkos's
// static objects (detail/lanes.hpp).

#include <Kokkos_Macros.hpp>
#include <Kokkos_MathematicalFunctions.hpp>

#if !defined(KOKKOS_VERSION) || KOKKOS_VERSION < 30401
#error "hepex needs Kokkos >= 3.4.01"
#endif

namespace hepex::compat {

// Real math functions: Kokkos::Experimental:: in 3.x, Kokkos:: in 4.x.
#if KOKKOS_VERSION >= 40000
namespace kokkos_math = ::Kokkos;
#else
namespace kokkos_math = ::Kokkos::Experimental;
#endif
template <class T>
KOKKOS_INLINE_FUNCTION T fabs(T x) {
  return kokkos_math::fabs(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T sqrt(T x) {
  return kokkos_math::sqrt(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T log(T x) {
  return kokkos_math::log(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T exp(T x) {
  return kokkos_math::exp(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T sin(T x) {
  return kokkos_math::sin(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T cos(T x) {
  return kokkos_math::cos(x);
}

}  // namespace hepex::compat
