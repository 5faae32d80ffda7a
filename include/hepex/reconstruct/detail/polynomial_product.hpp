#pragma once
// Products of polynomials mod p on device Views through the three-prime NTT
// (ntt.hpp): O(N log N) for a cyclic length N covering the kept part.

#include <cstddef>
#include <cstdint>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/reconstruct/detail/ntt.hpp"

namespace hepex::reconstruct::detail {

// Smallest log with 2^log >= n.
inline int ceil_log2(std::size_t n) {
  int log = 0;
  while ((std::size_t{1} << log) < n) ++log;
  return log;
}

// The first `keep` coefficients of a * b mod p (lowest first; zeros beyond
// the product's length). Only the first `keep` coefficients of each factor
// matter; the cyclic length N is the least power of two holding their whole
// product, so nothing wraps, and each coefficient sums at most
// min(la, lb) <= N products, within the CRT bound of ntt.hpp.
template <class ExecSpace>
Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> multiply_truncated(
    const ThreePrimeNtt<ExecSpace>& ntt,
    const Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>& a,
    const Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>& b,
    std::size_t keep) {
  using Memory = typename ExecSpace::memory_space;
  const std::size_t la = a.extent(0) < keep ? a.extent(0) : keep;
  const std::size_t lb = b.extent(0) < keep ? b.extent(0) : keep;
  Kokkos::View<std::uint64_t*, Memory> c("hepex::polynomial_product::c", keep);
  if (la == 0 || lb == 0) return c;
  const std::size_t length = la + lb - 1;
  const int log_n = ceil_log2(length);
  const auto factors = ntt.spectra(2, log_n, "hepex::polynomial_product::factors");
  ntt.load(
      factors, log_n, KOKKOS_LAMBDA(const std::size_t s, const std::size_t k) {
        return s == 0 ? (k < la ? a(k) : std::uint64_t{0}) : (k < lb ? b(k) : std::uint64_t{0});
      });
  ntt.forward(factors, log_n);
  const auto product = ntt.spectra(1, log_n, "hepex::polynomial_product::product");
  ntt.multiply(
      product, factors, KOKKOS_LAMBDA(std::size_t) { return std::size_t{0}; }, factors,
      KOKKOS_LAMBDA(std::size_t) { return std::size_t{1}; }, log_n);
  ntt.inverse(product, log_n);
  ntt.store(
      product, log_n, KOKKOS_LAMBDA(std::size_t, const std::size_t k, const std::uint64_t x) {
        if (k < keep) c(k) = x;
      });
  return c;
}

}  // namespace hepex::reconstruct::detail
