#pragma once
// Random dense matrices generated on the device from the counter-based
// generator, so large benchmark and demo inputs never cross the host link:
// uniform residues over Z/p, uniform [-1, 1) entries (real and imaginary
// parts) over floating point.

#include <cstdint>

#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/random.hpp"

namespace hepex::linalg {

namespace detail {
template <class F, class ExecSpace>
struct FillRandom {
  F f;
  DeviceMatrix<typename F::value_type, typename ExecSpace::memory_space> a;
  std::uint64_t seed;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t i = flat / a.extent(1), j = flat % a.extent(1);
    const std::uint64_t word = random::counter_u64(seed, flat);
    using T = typename F::value_type;
    if constexpr (F::is_exact) {
      a(i, j) = f.from_uint(word);
    } else if constexpr (std::is_same<T, typename F::real_type>::value) {
      a(i, j) = static_cast<T>(random::to_symmetric_unit(word));
    } else {
      using R = typename F::real_type;
      a(i, j) = T(static_cast<R>(random::to_symmetric_unit(word)),
                  static_cast<R>(random::to_symmetric_unit(random::splitmix64(word))));
    }
  }
};
}  // namespace detail

template <class ExecSpace, class F>
void fill_random(const ExecSpace& space, const F& field,
                 const DeviceMatrix<typename F::value_type, typename ExecSpace::memory_space>& a,
                 std::uint64_t seed) {
  const KokkosLock lock;
  Kokkos::parallel_for("hepex::fill_random",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                           space, 0, static_cast<std::int64_t>(a.extent(0) * a.extent(1))),
                       detail::FillRandom<F, ExecSpace>{field, a, seed});
}

}  // namespace hepex::linalg
