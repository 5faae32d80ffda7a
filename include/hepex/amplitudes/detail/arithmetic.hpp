#pragma once
// The arithmetic the HELAS routines and the recursion are written in, for a
// real type R that is either a scalar (double, float: one event per thread,
// the GPU kernel) or a pack of events in SIMD lanes (detail/lanes.hpp, the
// host kernel). One source serves both: branches are selects, momenta have
// their own type (Doubles: double, or a pack of doubles with R's lanes), and the
// complex numbers are split (a pack of real parts, a pack of imaginary parts).
//
// For a pack type the functions below are overloaded next to the type
// (lanes.hpp) and found by argument-dependent lookup; DoublesOf is
// specialised there.

#include <type_traits>

#include "hepex/core/kokkos_math.hpp"

// Small arithmetic that must disappear into its callers: Kokkos's
// FORCEINLINE is a plain `inline` for host compilers, so say it to GCC/Clang.
// Not under AddressSanitizer (the tests' sanitized library): forced into
// every caller and instrumented there, one lane kernel took GCC 12 over 25
// minutes to compile on CI's machine.
#if defined(__CUDACC__) || defined(__HIPCC__) || !defined(__GNUC__)
#define HEPEX_FORCEINLINE_FUNCTION KOKKOS_FORCEINLINE_FUNCTION
#elif defined(__SANITIZE_ADDRESS__)
#define HEPEX_FORCEINLINE_FUNCTION KOKKOS_INLINE_FUNCTION
#else
#define HEPEX_FORCEINLINE_FUNCTION KOKKOS_INLINE_FUNCTION __attribute__((always_inline))
#endif

namespace hepex::amplitudes::detail {

// Doubles with R's lanes: double for a scalar R, a pack of as many doubles
// for a pack. Momenta are kept in it whatever R (see Wave, helas.hpp), and
// sums of |amplitude|^2 accumulate in it.
template <class R>
struct DoublesOf {
  using type = double;
};
template <class R>
using Doubles = typename DoublesOf<R>::type;

// Scalars: the pack functions' counterparts.
template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>>
KOKKOS_INLINE_FUNCTION T select(bool condition, T yes, T no) {
  return condition ? yes : no;
}
template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>>
KOKKOS_INLINE_FUNCTION T lane_sqrt(T x) {
  return compat::sqrt(x);
}
template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>>
KOKKOS_INLINE_FUNCTION T lane_min(T a, T b) {
  return a < b ? a : b;
}
template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>>
KOKKOS_INLINE_FUNCTION T lane_max(T a, T b) {
  return a > b ? a : b;
}

// A complex number over R, as (re, im). For scalars the same layout and
// operations as Kokkos::complex (aligned to its size, so a GPU loads it in
// one instruction); the operators are hidden friends, so that either operand
// may be converted (2 * z, R * z).
// Every operator is forced inline: GCC 12 left complex * complex out of
// line in the AVX-512 lane kernel, a call with its packs passed through
// memory (6.7% of a one-core MadEvent gg_ttgg run); inlined, hepex_bench me
// went from 17.3e3 to 19.9e3-20.8e3 MEs/s (gg_ttgg, double, one AMD EPYC
// core, perf/results/amplitudes).
template <class R>
struct alignas(std::is_arithmetic<R>::value ? 2 * sizeof(R) : alignof(R)) Complex {
  R re, im;

  HEPEX_FORCEINLINE_FUNCTION Complex() : re(0), im(0) {}
  HEPEX_FORCEINLINE_FUNCTION Complex(const R& real) : re(real), im(0) {}
  HEPEX_FORCEINLINE_FUNCTION Complex(const R& real, const R& imag) : re(real), im(imag) {}
  // From another real type (a double momentum into a float amplitude).
  template <class U, class = std::enable_if_t<!std::is_same<U, R>::value>>
  HEPEX_FORCEINLINE_FUNCTION explicit Complex(const U& real) : re(R(real)), im(0) {}

  HEPEX_FORCEINLINE_FUNCTION const R& real() const { return re; }
  HEPEX_FORCEINLINE_FUNCTION const R& imag() const { return im; }

  HEPEX_FORCEINLINE_FUNCTION friend Complex operator+(const Complex& a, const Complex& b) {
    return {a.re + b.re, a.im + b.im};
  }
  HEPEX_FORCEINLINE_FUNCTION friend Complex operator-(const Complex& a, const Complex& b) {
    return {a.re - b.re, a.im - b.im};
  }
  HEPEX_FORCEINLINE_FUNCTION friend Complex operator-(const Complex& a) { return {-a.re, -a.im}; }
  HEPEX_FORCEINLINE_FUNCTION friend Complex operator*(const Complex& a, const Complex& b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  HEPEX_FORCEINLINE_FUNCTION friend Complex operator*(const R& a, const Complex& b) {
    return {a * b.re, a * b.im};
  }
  HEPEX_FORCEINLINE_FUNCTION friend Complex operator*(const Complex& a, const R& b) {
    return {a.re * b, a.im * b};
  }
  HEPEX_FORCEINLINE_FUNCTION Complex& operator+=(const Complex& b) {
    re += b.re;
    im += b.im;
    return *this;
  }
  // a / b as a conj(b) / |b|^2: used for propagator factors, whose
  // denominators (p^2 - m^2 + i m w) are far from overflow.
  HEPEX_FORCEINLINE_FUNCTION friend Complex operator/(const Complex& a, const Complex& b) {
    const R norm = b.re * b.re + b.im * b.im;
    return {(a.re * b.re + a.im * b.im) / norm, (a.im * b.re - a.re * b.im) / norm};
  }
  HEPEX_FORCEINLINE_FUNCTION friend Complex operator/(const Complex& a, const R& b) {
    return {a.re / b, a.im / b};
  }
};

template <class Mask, class R>
HEPEX_FORCEINLINE_FUNCTION Complex<R> select(const Mask& condition, const Complex<R>& yes,
                                             const Complex<R>& no) {
  return {select(condition, yes.re, no.re), select(condition, yes.im, no.im)};
}

}  // namespace hepex::amplitudes::detail
