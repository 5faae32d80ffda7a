#pragma once
// Events in SIMD lanes: Lanes<T, N, Tag> is N values of T, one per event,
// on the standard std::experimental::simd (libstdc++; no intrinsics), with
// the arithmetic of arithmetic.hpp (select, lane_sqrt, ...) as hidden
// friends, so the HELAS routines and the recursion written for scalars run
// on it unchanged (the host kernel, detail/lane_kernel.hpp).
//
// Tag makes the type, and with it every template instantiated on it, unique
// to one translation unit: each ISA's kernel (lane_kernel_isa.cpp, compiled
// with its -m flags) passes a type from an unnamed namespace, so all its
// instantiations have internal linkage and can never be merged at link time
// with another ISA's copy, which the CPU running the program may lack.
// (Kokkos SIMD would fix the ISA when Kokkos is configured; the run-time
// choice among several needs the ISA per translation unit.)

#include <experimental/simd>
#include <type_traits>

#include "hepex/amplitudes/detail/arithmetic.hpp"

namespace hepex::amplitudes::detail {

namespace stdx = std::experimental;

// The operations are small and called in the innermost loops: inlined
// always, as libstdc++ does with the simd operations under them (but for
// AddressSanitizer, as HEPEX_FORCEINLINE_FUNCTION in arithmetic.hpp).
#if defined(__SANITIZE_ADDRESS__)
#define HEPEX_LANE_INLINE inline
#else
#define HEPEX_LANE_INLINE [[gnu::always_inline]] inline
#endif

template <class T, int N, class Tag>
struct Lanes {
  using Simd = stdx::simd<T, stdx::simd_abi::deduce_t<T, N>>;
  using Mask = typename Simd::mask_type;
  using value_type = T;
  static constexpr int lanes = N;
  Simd v;

  Lanes() = default;
  HEPEX_LANE_INLINE Lanes(T x) : v(x) {}  // every lane x
  HEPEX_LANE_INLINE explicit Lanes(const Simd& s) : v(s) {}
  template <class U, class = std::enable_if_t<!std::is_same<U, T>::value>>
  HEPEX_LANE_INLINE explicit Lanes(const Lanes<U, N, Tag>& other)
      : v(stdx::static_simd_cast<Simd>(other.v)) {}

  // Lane i from p[i], or (past `count`) a copy of lane count - 1: the
  // padding of a last, partial pack repeats a real event, so that no lane
  // computes on garbage.
  static Lanes load(const T* p, int count) {
    if (count >= N) return Lanes(Simd(p, stdx::element_aligned));
    return Lanes(Simd([&](auto i) { return p[int(i) < count ? int(i) : count - 1]; }));
  }
  void store(T* p, int count) const {
    for (int i = 0; i < count && i < N; ++i) p[i] = v[i];
  }

  HEPEX_LANE_INLINE friend Lanes operator+(const Lanes& a, const Lanes& b) {
    return Lanes(a.v + b.v);
  }
  HEPEX_LANE_INLINE friend Lanes operator-(const Lanes& a, const Lanes& b) {
    return Lanes(a.v - b.v);
  }
  HEPEX_LANE_INLINE friend Lanes operator*(const Lanes& a, const Lanes& b) {
    return Lanes(a.v * b.v);
  }
  HEPEX_LANE_INLINE friend Lanes operator/(const Lanes& a, const Lanes& b) {
    return Lanes(a.v / b.v);
  }
  HEPEX_LANE_INLINE friend Lanes operator-(const Lanes& a) { return Lanes(-a.v); }
  HEPEX_LANE_INLINE Lanes& operator+=(const Lanes& b) {
    v += b.v;
    return *this;
  }
  HEPEX_LANE_INLINE Lanes& operator-=(const Lanes& b) {
    v -= b.v;
    return *this;
  }
  HEPEX_LANE_INLINE Lanes& operator*=(const Lanes& b) {
    v *= b.v;
    return *this;
  }
  HEPEX_LANE_INLINE friend Mask operator<(const Lanes& a, const Lanes& b) { return a.v < b.v; }
  HEPEX_LANE_INLINE friend Mask operator>(const Lanes& a, const Lanes& b) { return a.v > b.v; }
  HEPEX_LANE_INLINE friend Mask operator==(const Lanes& a, const Lanes& b) { return a.v == b.v; }
  HEPEX_LANE_INLINE friend Mask operator!=(const Lanes& a, const Lanes& b) { return a.v != b.v; }

  HEPEX_LANE_INLINE friend Lanes select(const Mask& condition, const Lanes& yes, const Lanes& no) {
    Lanes r = no;
    stdx::where(condition, r.v) = yes.v;
    return r;
  }
  HEPEX_LANE_INLINE friend Lanes lane_sqrt(const Lanes& x) { return Lanes(stdx::sqrt(x.v)); }
  HEPEX_LANE_INLINE friend Lanes lane_min(const Lanes& a, const Lanes& b) {
    return Lanes(stdx::min(a.v, b.v));
  }
  HEPEX_LANE_INLINE friend Lanes lane_max(const Lanes& a, const Lanes& b) {
    return Lanes(stdx::max(a.v, b.v));
  }
};

#undef HEPEX_LANE_INLINE

template <class T, int N, class Tag>
struct DoublesOf<Lanes<T, N, Tag>> {
  using type = Lanes<double, N, Tag>;
};

}  // namespace hepex::amplitudes::detail
