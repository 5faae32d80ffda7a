// Real64/Real32/Complex128/Complex64 against a long-double host reference, on
// the host and in a kernel, and the tolerance semantics of is_zero.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "hepex/core/spaces.hpp"
#include "hepex/field/real.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace hepex::test {

enum RealOp { r_add, r_sub, r_neg, r_mul, r_fma, r_inv, r_pow, r_from_int, r_count };

template <class F>
KOKKOS_INLINE_FUNCTION void evaluate_real(const F& f, const typename F::value_type* in,
                                          std::int64_t s, typename F::value_type* out) {
  const auto a = in[0], b = in[1], c = in[2];
  out[r_add] = f.add(a, b);
  out[r_sub] = f.sub(a, b);
  out[r_neg] = f.neg(a);
  out[r_mul] = f.mul(a, b);
  out[r_fma] = f.fma(a, b, c);
  out[r_inv] = f.inv(a);
  out[r_pow] = f.pow(a, 7);
  out[r_from_int] = f.from_int(s);
}

template <class F>
std::vector<typename F::value_type> evaluate_real_on_device(
    const F& f, const std::vector<typename F::value_type>& inputs, std::int64_t s) {
  using T = typename F::value_type;
  const std::size_t n = inputs.size() / 3;
  Kokkos::View<T**, Kokkos::LayoutRight, DeviceMemory> in("real_in", n, 3);
  Kokkos::View<T**, Kokkos::LayoutRight, DeviceMemory> out("real_out", n, r_count);
  auto host_in = Kokkos::create_mirror_view(in);
  for (std::size_t i = 0; i < inputs.size(); ++i) host_in.data()[i] = inputs[i];
  Kokkos::deep_copy(in, host_in);
  Kokkos::parallel_for(
      "real_evaluate", Kokkos::RangePolicy<DeviceSpace>(0, n),
      KOKKOS_LAMBDA(const std::size_t i) { evaluate_real(f, &in(i, 0), s, &out(i, 0)); });
  auto host_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<T>(host_out.data(), host_out.data() + n * r_count);
}

using LongComplex = std::complex<long double>;
template <class T>
LongComplex widen(const T& x) {
  return LongComplex(x, 0);
}
template <class T>
LongComplex widen(const Kokkos::complex<T>& x) {
  return LongComplex(x.real(), x.imag());
}

LongComplex reference(RealOp op, LongComplex a, LongComplex b, LongComplex c, std::int64_t s) {
  switch (op) {
    case r_add: return a + b;
    case r_sub: return a - b;
    case r_neg: return -a;
    case r_mul: return a * b;
    case r_fma: return a * b + c;
    case r_inv: return 1.0L / a;
    case r_pow: return a * a * a * a * a * a * a;
    case r_from_int: return LongComplex(static_cast<long double>(s), 0);
    default: return 0;
  }
}

template <class T>
T draw(std::mt19937_64& rng) {
  return static_cast<T>(hepex::test::UniformReal(0.25, 2.0)(rng) * (rng() % 2 ? 1 : -1));
}
template <class T>
Kokkos::complex<T> draw_complex(std::mt19937_64& rng) {
  return {draw<T>(rng), draw<T>(rng)};
}

template <class F>
void check_against_reference(typename F::real_type relative_tolerance) {
  using T = typename F::value_type;
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(seed());
  const F f;
  constexpr bool is_complex = !std::is_same<T, typename F::real_type>::value;
  std::vector<T> inputs(3 * 2000);
  for (auto& x : inputs) {
    if constexpr (is_complex) {
      x = draw_complex<typename F::real_type>(rng);
    } else {
      x = draw<T>(rng);
    }
  }
  const std::int64_t s = -123456789;
  std::vector<T> host(inputs.size() / 3 * r_count);
  for (std::size_t i = 0; i < inputs.size() / 3; ++i) {
    evaluate_real(f, &inputs[3 * i], s, &host[i * r_count]);
  }
  const auto device = evaluate_real_on_device(f, inputs, s);
  int failures = 0;
  for (std::size_t i = 0; i < inputs.size() / 3; ++i) {
    for (int op = 0; op < r_count; ++op) {
      const LongComplex want = reference(static_cast<RealOp>(op), widen(inputs[3 * i]),
                                         widen(inputs[3 * i + 1]), widen(inputs[3 * i + 2]), s);
      for (const auto& got : {widen(host[i * r_count + op]), widen(device[i * r_count + op])}) {
        const long double err = std::abs(got - want) / std::max(1.0L, std::abs(want));
        if (err > relative_tolerance && failures++ < 5) {
          ADD_FAILURE() << "op " << op << " case " << i << ": relative error " << err;
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace hepex::test

namespace {

using namespace hepex::field;

TEST(Real64, OperationsMatchLongDoubleReference) {
  hepex::test::check_against_reference<Real64>(1e-14);
}
TEST(Real32, OperationsMatchLongDoubleReference) {
  hepex::test::check_against_reference<Real32>(2e-5f);
}
TEST(Complex128, OperationsMatchLongDoubleReference) {
  hepex::test::check_against_reference<Complex128>(1e-14);
}
TEST(Complex64, OperationsMatchLongDoubleReference) {
  hepex::test::check_against_reference<Complex64>(4e-5f);
}

TEST(Real64, IsZeroUsesTheTolerance) {
  const Real64 f(1e-8);
  EXPECT_TRUE(f.is_zero(0.0));
  EXPECT_TRUE(f.is_zero(1e-8));
  EXPECT_TRUE(f.is_zero(-9e-9));
  EXPECT_FALSE(f.is_zero(2e-8));
  EXPECT_FALSE(f.is_zero(-2e-8));
  EXPECT_DOUBLE_EQ(Real64().tolerance(), 1e-10);
  EXPECT_FLOAT_EQ(Real32().tolerance(), 1e-4f);
}

TEST(Complex128, IsZeroUsesTheModulus) {
  const Complex128 f(1e-6);
  EXPECT_TRUE(f.is_zero({6e-7, 7e-7}));   // |z| = 9.2e-7
  EXPECT_FALSE(f.is_zero({8e-7, 8e-7}));  // |z| = 1.13e-6
  EXPECT_FALSE(f.is_zero({0, -2e-6}));
}

TEST(Real64, PowerEdgeCases) {
  const Real64 f;
  EXPECT_EQ(f.pow(0.0, 0), 1.0);
  EXPECT_EQ(f.pow(-2.0, 3), -8.0);
  EXPECT_EQ(f.pow(2.0, 62), 4611686018427387904.0);
}

}  // namespace
