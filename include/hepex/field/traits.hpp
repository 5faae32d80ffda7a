#pragma once
// The interface shared by every hepex field (Zp32, Zp64, Real64, Real32,
// Complex128, Complex64). Algorithms are templated on a field type F and use
// only this, on host and in kernels:
//
//   typename F::value_type          the element type (a word, double, complex)
//   F::is_exact                     true for Z/p, false for floating point
//   f.zero(), f.one()
//   f.is_zero(a)                    a == 0 for Z/p; |a| <= tolerance otherwise
//   f.add(a,b) f.sub(a,b) f.neg(a) f.mul(a,b)
//   f.fma(a,b,c)                    a*b + c
//   f.inv(a)                        1/a (precondition: !is_zero(a))
//   f.pow(a,e)                      a^e, e a 64-bit unsigned exponent
//   f.from_int(x)                   image of a signed 64-bit integer
//
// is_field<F> checks it at compile time.

#include <cstdint>
#include <type_traits>
#include <utility>

namespace hepex::field {

namespace detail {
template <class F, class = void>
struct has_field_interface : std::false_type {};

template <class F>
struct has_field_interface<
    F,
    std::void_t<typename F::value_type, decltype(F::is_exact),
                decltype(std::declval<const F&>().zero()), decltype(std::declval<const F&>().one()),
                decltype(std::declval<const F&>().is_zero(std::declval<typename F::value_type>())),
                decltype(std::declval<const F&>().add(std::declval<typename F::value_type>(),
                                                      std::declval<typename F::value_type>())),
                decltype(std::declval<const F&>().sub(std::declval<typename F::value_type>(),
                                                      std::declval<typename F::value_type>())),
                decltype(std::declval<const F&>().neg(std::declval<typename F::value_type>())),
                decltype(std::declval<const F&>().mul(std::declval<typename F::value_type>(),
                                                      std::declval<typename F::value_type>())),
                decltype(std::declval<const F&>().fma(std::declval<typename F::value_type>(),
                                                      std::declval<typename F::value_type>(),
                                                      std::declval<typename F::value_type>())),
                decltype(std::declval<const F&>().inv(std::declval<typename F::value_type>())),
                decltype(std::declval<const F&>().pow(std::declval<typename F::value_type>(),
                                                      std::uint64_t{})),
                decltype(std::declval<const F&>().from_int(std::int64_t{}))>> : std::true_type {};
}  // namespace detail

template <class F>
struct is_field : detail::has_field_interface<F> {};

template <class F>
inline constexpr bool is_field_v = is_field<F>::value;

}  // namespace hepex::field
