#pragma once
// Power series inversion mod (p, x^n) by Newton iteration (von zur Gathen &
// Gerhard, Modern Computer Algebra, Alg. 9.3): g <- g (2 - a g) doubles the
// correct length each step, so the cost is O(M(n)) with the NTT products of
// polynomial_product.hpp.

#include <cstddef>
#include <cstdint>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/reconstruct/detail/polynomial_product.hpp"

namespace hepex::reconstruct::detail {

// The first n coefficients of 1 / a(x); a(0) must be 1 (a reversed monic
// polynomial), and a has at least one coefficient.
template <class ExecSpace>
Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> inverse_series(
    const field::Zp64& f, const ThreePrimeNtt<ExecSpace>& ntt,
    const Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>& a, std::size_t n) {
  using Memory = typename ExecSpace::memory_space;
  Kokkos::View<std::uint64_t*, Memory> g("hepex::power_series::inverse", n < 1 ? n : 1);
  Kokkos::deep_copy(g, std::uint64_t{1});
  for (std::size_t length = 1; length < n;) {
    const std::size_t next = 2 * length < n ? 2 * length : n;
    const std::size_t la = a.extent(0) < next ? a.extent(0) : next;
    const Kokkos::View<const std::uint64_t*, Memory> head(a.data(), la);
    const auto e = multiply_truncated<ExecSpace>(ntt, head, g, next);  // 1 + O(x^length)
    Kokkos::parallel_for(
        "hepex::power_series::two_minus", Kokkos::RangePolicy<ExecSpace>(0, next),
        KOKKOS_LAMBDA(const std::size_t k) {
          e(k) = k == 0 ? f.sub(f.add(1, 1), e(0)) : f.neg(e(k));
        });
    g = multiply_truncated<ExecSpace>(ntt, g, e, next);
    length = next;
  }
  return g;
}

}  // namespace hepex::reconstruct::detail
