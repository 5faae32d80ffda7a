#include "hepex/field/self_check.hpp"

#include <sstream>

#include "hepex/core/random.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::field {

// Named (not anonymous): nvcc needs external linkage for the functions that
// enclose extended lambdas.
namespace detail {

// Random field elements from counter-based words.
template <class F>
struct Draw;

template <class Word>
struct Draw<Zp<Word>> {
  KOKKOS_INLINE_FUNCTION static Word element(const Zp<Word>& f, std::uint64_t seed,
                                             std::uint64_t i) {
    return f.from_uint(random::counter_u64(seed, i));
  }
};
template <class Real>
struct Draw<RealField<Real>> {
  KOKKOS_INLINE_FUNCTION static Real element(const RealField<Real>&, std::uint64_t seed,
                                             std::uint64_t i) {
    return static_cast<Real>(random::to_symmetric_unit(random::counter_u64(seed, i)));
  }
};
template <class Real>
struct Draw<ComplexField<Real>> {
  KOKKOS_INLINE_FUNCTION static Kokkos::complex<Real> element(const ComplexField<Real>&,
                                                              std::uint64_t seed, std::uint64_t i) {
    return {static_cast<Real>(random::to_symmetric_unit(random::counter_u64(seed, 2 * i))),
            static_cast<Real>(random::to_symmetric_unit(random::counter_u64(seed, 2 * i + 1)))};
  }
};

// Equality in the field: exact for Z/p, within the tolerance for floats.
template <class F>
KOKKOS_INLINE_FUNCTION bool same(const F& f, const typename F::value_type& x,
                                 const typename F::value_type& y) {
  if constexpr (F::is_exact) {
    return x == y;
  } else {
    return f.is_zero(f.sub(x, y));
  }
}

// Identities that hold in every field, plus Fermat and Shoup for Z/p.
template <class F>
KOKKOS_INLINE_FUNCTION bool identities_hold(const F& f, const typename F::value_type& a,
                                            const typename F::value_type& b,
                                            const typename F::value_type& c) {
  bool ok = same(f, f.add(f.sub(a, b), b), a);
  ok = ok && same(f, f.mul(a, f.add(b, c)), f.add(f.mul(a, b), f.mul(a, c)));
  ok = ok && same(f, f.fma(a, b, c), f.add(f.mul(a, b), c));
  ok = ok && f.is_zero(f.add(a, f.neg(a)));
  ok = ok && (f.is_zero(a) || same(f, f.mul(a, f.inv(a)), f.one()));
  const auto a2 = f.mul(a, a);
  ok = ok && same(f, f.pow(a, 5), f.mul(f.mul(a2, a2), a));
  if constexpr (F::is_exact) {
    ok = ok && (f.is_zero(a) || f.pow(a, f.modulus() - 1) == f.one());
    ok = ok && f.mul_shoup(a, b, f.shoup(b)) == f.mul(a, b);
  }
  return ok;
}

template <class ExecSpace, class F>
SelfCheckRow check_field(const F& f, const std::string& name, const std::string& parameter,
                         std::size_t cases, std::uint64_t seed) {
  using T = typename F::value_type;
  Kokkos::View<T*, typename ExecSpace::memory_space> products("hepex::self_check::products", cases);
  std::size_t failures = 0;
  const std::uint64_t seed_a = seed, seed_b = seed + 1, seed_c = seed + 2;

  Kokkos::Timer timer;
  Kokkos::parallel_reduce(
      "hepex::field::self_check", Kokkos::RangePolicy<ExecSpace>(0, cases),
      KOKKOS_LAMBDA(const std::size_t i, std::size_t& failed) {
        const T a = Draw<F>::element(f, seed_a, i);
        const T b = Draw<F>::element(f, seed_b, i);
        const T c = Draw<F>::element(f, seed_c, i);
        products(i) = f.mul(a, b);
        if (!identities_hold(f, a, b, c)) ++failed;
      },
      failures);
  ExecSpace().fence();
  const double seconds = timer.seconds();

  // The kernel's products must equal the host's (e.g. CUDA's __umul64hi path
  // against the host's unsigned __int128 path).
  auto host_products = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), products);
  for (std::size_t i = 0; i < cases; ++i) {
    const T expected = f.mul(Draw<F>::element(f, seed_a, i), Draw<F>::element(f, seed_b, i));
    if (!same(f, host_products(i), expected)) ++failures;
  }
  return {name, parameter, cases, failures, seconds};
}

template <class Real>
std::string tolerance_text(const Real tol) {
  std::ostringstream out;
  out << "tol " << tol;
  return out.str();
}

template <class ExecSpace>
std::vector<SelfCheckRow> check_all(std::size_t cases, std::uint64_t seed) {
  const Zp32 zp32(large_primes(1, std::uint64_t{1} << 31).front());
  const Zp64 zp64(large_primes(1).front());
  const Real64 real64;
  const Complex128 complex128;
  return {
      check_field<ExecSpace>(zp32, "Zp32", "p = " + std::to_string(zp32.modulus()), cases, seed),
      check_field<ExecSpace>(zp64, "Zp64", "p = " + std::to_string(zp64.modulus()), cases, seed),
      check_field<ExecSpace>(real64, "Real64", tolerance_text(real64.tolerance()), cases, seed),
      check_field<ExecSpace>(complex128, "Complex128", tolerance_text(complex128.tolerance()),
                             cases, seed),
  };
}

}  // namespace detail

std::vector<SelfCheckRow> self_check(Place backend, std::size_t cases, std::uint64_t seed) {
  return backend == Place::device ? detail::check_all<DeviceSpace>(cases, seed)
                                  : detail::check_all<HostSpace>(cases, seed);
}

}  // namespace hepex::field
