#pragma once
// Floating-point "fields" behind the same interface as Zp: Real64/Real32 and
// Complex128/Complex64. is_zero(a) is |a| <= tolerance: elimination over
// floating point decides pivots with it (Linac section 3.2; rows are rescaled
// first, so an absolute tolerance is meaningful).

#include <cstdint>

#include "hepex/core/kokkos_compat.hpp"

namespace hepex::field {

namespace detail {

// Square-and-multiply for any multiplicative type; x^0 = 1.
template <class T>
KOKKOS_INLINE_FUNCTION T power(T x, std::uint64_t e) {
  T result(1);
  while (e != 0) {
    if (e & 1) result *= x;
    x *= x;
    e >>= 1;
  }
  return result;
}

// Default tolerances for inputs rescaled to O(1): 1e-10 for double (~5e5 ulp
// of 1), 1e-4 for float (~1e3 ulp). Set them per problem where that is wrong.
template <class Real>
constexpr Real default_tolerance() {
  return sizeof(Real) == 4 ? Real(1e-4) : Real(1e-10);
}

// The field operations common to real and complex scalars; Derived supplies
// magnitude() for is_zero.
template <class Scalar, class Real, class Derived>
class FloatingField {
 public:
  using value_type = Scalar;
  using real_type = Real;
  static constexpr bool is_exact = false;

  KOKKOS_INLINE_FUNCTION explicit FloatingField(Real tolerance = default_tolerance<Real>())
      : tolerance_(tolerance) {}

  KOKKOS_INLINE_FUNCTION Real tolerance() const { return tolerance_; }
  KOKKOS_INLINE_FUNCTION Scalar zero() const { return Scalar(0); }
  KOKKOS_INLINE_FUNCTION Scalar one() const { return Scalar(1); }
  KOKKOS_INLINE_FUNCTION bool is_zero(const Scalar& a) const {
    return Derived::magnitude(a) <= tolerance_;
  }
  KOKKOS_INLINE_FUNCTION Scalar add(const Scalar& a, const Scalar& b) const { return a + b; }
  KOKKOS_INLINE_FUNCTION Scalar sub(const Scalar& a, const Scalar& b) const { return a - b; }
  KOKKOS_INLINE_FUNCTION Scalar neg(const Scalar& a) const { return -a; }
  KOKKOS_INLINE_FUNCTION Scalar mul(const Scalar& a, const Scalar& b) const { return a * b; }
  KOKKOS_INLINE_FUNCTION Scalar fma(const Scalar& a, const Scalar& b, const Scalar& c) const {
    return a * b + c;
  }
  KOKKOS_INLINE_FUNCTION Scalar inv(const Scalar& a) const { return Scalar(1) / a; }
  KOKKOS_INLINE_FUNCTION Scalar pow(const Scalar& a, std::uint64_t e) const { return power(a, e); }
  KOKKOS_INLINE_FUNCTION Scalar from_int(std::int64_t x) const {
    return Scalar(static_cast<Real>(x));
  }

 private:
  Real tolerance_;
};

}  // namespace detail

template <class Real>
class RealField : public detail::FloatingField<Real, Real, RealField<Real>> {
 public:
  using detail::FloatingField<Real, Real, RealField<Real>>::FloatingField;
  KOKKOS_INLINE_FUNCTION static Real magnitude(Real a) { return compat::fabs(a); }
};

template <class Real>
class ComplexField : public detail::FloatingField<Kokkos::complex<Real>, Real, ComplexField<Real>> {
 public:
  using detail::FloatingField<Kokkos::complex<Real>, Real, ComplexField<Real>>::FloatingField;
  KOKKOS_INLINE_FUNCTION static Real magnitude(const Kokkos::complex<Real>& a) {
    return Kokkos::abs(a);
  }
};

using Real64 = RealField<double>;
using Real32 = RealField<float>;
using Complex128 = ComplexField<double>;
using Complex64 = ComplexField<float>;

}  // namespace hepex::field
