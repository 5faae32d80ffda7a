#pragma once
// The colour sum |M|^2(hel) = sum_ij conj(J_i) CF_ij / d J_j as its own
// kernel. CF is real and symmetric, so with J = x + i y this is two real
// quadratic forms, x^T C x + y^T C y; they are evaluated on the upper triangle
// with the off-diagonal entries doubled, so every off-diagonal term is used
// once (A. Valassi, kernel splitting paper, section 3.2).

#include <cstdint>
#include <string>

#include "hepex/amplitudes/detail/folded_colour_share.hpp"
#include "hepex/amplitudes/detail/process_registry.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_compat.hpp"

namespace hepex::amplitudes::detail {

template <class MemSpace>
Kokkos::View<std::int16_t*, MemSpace> folded_colour_weights(const ColourMatrix& m) {
  const int n = m.colours, half = n / 2, rows = 2 * FoldedColourSteps::per_item(n);
  if (n % 2 != 0) throw Error("folded colour sum: odd number of colours", ErrorKind::runtime);
  Kokkos::View<std::int16_t*, MemSpace> weights("hepex::colour_weights", rows * half);
  auto host = Kokkos::create_mirror_view(weights);
  for (int t = 0; t < half; ++t) {
    for (int step = 0; step < rows; ++step) {
      const bool upper = step < n - t;
      const int i = upper ? t : n - 1 - t, k = upper ? t + step : step - 1;
      const int w = step > n ? 0 : (i == k ? 1 : 2) * m.cf[i * n + k];
      if (w < -32768 || w > 32767) {
        throw Error("colour matrix entry beyond the folded colour sum", ErrorKind::runtime);
      }
      host(step * half + t) = static_cast<std::int16_t>(w);
    }
  }
  Kokkos::deep_copy(weights, host);
  return weights;
}

// The BLAS form of the same sum (--colour-sum blas, double precision): read
// the jamps buffer (event, jamp) as the row-major real matrix X with one row
// per jamp and columns (Re, Im) of every event, Z = (CF / d) X by one vendor
// GEMM per helicity block, then me(e) = sum_j X_j,2e Z_j,2e + X_j,2e+1 Z_j,2e+1.
template <class MemSpace>
Kokkos::View<double*, MemSpace> full_colour_matrix(const ColourMatrix& m) {
  Kokkos::View<double*, MemSpace> full("hepex::colour_matrix", m.colours * m.colours);
  auto host = Kokkos::create_mirror_view(full);
  for (int i = 0; i < m.colours * m.colours; ++i) host(i) = double(m.cf[i]) / m.denominator;
  Kokkos::deep_copy(full, host);
  return full;
}

// sum over the `rows` jamps j of X_j,2e Z_j,2e + X_j,2e+1 Z_j,2e+1.
template <class Matrix>
KOKKOS_INLINE_FUNCTION double colour_dot(const Matrix& x, const Matrix& z, int rows, int e) {
  double total = 0;
  for (int r = 0; r < rows; ++r)
    total += x(r, 2 * e) * z(r, 2 * e) + x(r, 2 * e + 1) * z(r, 2 * e + 1);
  return total;
}

}  // namespace hepex::amplitudes::detail
