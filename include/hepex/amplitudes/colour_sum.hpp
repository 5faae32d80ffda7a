#pragma once
// The colour sum |M|^2(hel) = sum_ij conj(J_i) CF_ij / d J_j as its own
// kernel. CF is real and symmetric, so with J = x + i y this is two real
// quadratic forms, x^T C x + y^T C y; they are evaluated on the upper triangle
// with the off-diagonal entries doubled, so every off-diagonal term is used
// once (A. Valassi, kernel splitting paper, section 3.2).

#include <string>

#include "hepex/amplitudes/colour_matrices.hpp"
#include "hepex/amplitudes/process.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_compat.hpp"

namespace hepex::amplitudes {

// The process's colour matrix CF (ncolour x ncolour, row-major) and common
// row denominator, as embedded from the reference data.
struct ColourMatrix {
  int colours;
  int denominator;
  const int* cf;
};

inline ColourMatrix colour_matrix(Process process) {
  using namespace colour_data;
  switch (process) {
    case Process::gg_tt:
      return {gg_tt_colours, gg_tt_denominator, gg_tt_cf};
    case Process::gg_ttg:
      return {gg_ttg_colours, gg_ttg_denominator, gg_ttg_cf};
    case Process::gg_ttgg:
      return {gg_ttgg_colours, gg_ttgg_denominator, gg_ttgg_cf};
    case Process::gg_ttggg:
      return {gg_ttggg_colours, gg_ttggg_denominator, gg_ttggg_cf};
  }
  throw Error("colour_matrix: unknown process", ErrorKind::runtime);
}

// The upper triangle of CF, off-diagonal doubled, as one 32-bit word per
// entry: the integer 2 CF_ik (CF_ii on the diagonal) in the high 16 bits, i
// and k in the low 16 (i << 8 | k), row by row. The engine's kernel spreads
// the entries themselves over a team, so that neighbouring threads read
// neighbouring words (a thread per row reads a row alone: 32 cache lines per
// warp load), and a word per entry is a third of what a double plus an index
// would cost: gg_ttggg's 7260 entries are re-read by every team. Needs
// |2 CF_ik| < 2^15 and at most 256 colours: true for all four processes
// (2 CF <= 8192, 120 colours); checked on construction. Divide by d at the end.
template <class MemSpace>
Kokkos::View<int*, MemSpace> packed_colour_entries(const ColourMatrix& m) {
  Kokkos::View<int*, MemSpace> packed("hepex::colour_entries", m.colours * (m.colours + 1) / 2);
  auto host = Kokkos::create_mirror_view(packed);
  int index = 0;
  for (int i = 0; i < m.colours; ++i) {
    for (int k = i; k < m.colours; ++k) {
      const int c = (i == k ? 1 : 2) * m.cf[i * m.colours + k];
      if (c < -32768 || c > 32767 || m.colours > 256) {
        throw Error("colour matrix entry or size beyond the packed colour sum", ErrorKind::runtime);
      }
      host(index++) = int(unsigned(c) << 16 | unsigned(i << 8 | k));
    }
  }
  Kokkos::deep_copy(packed, host);
  return packed;
}

// One packed entry's share of the quadratic form for the jamps j:
// 2 CF_ik (x_i x_k + y_i y_k) (CF_ii on the diagonal), before dividing by d.
template <class Real>
KOKKOS_INLINE_FUNCTION Real colour_term(int entry, const Kokkos::complex<Real>* j) {
  const int i = (entry >> 8) & 0xff, k = entry & 0xff;
  return Real(entry >> 16) * (j[i].real() * j[k].real() + j[i].imag() * j[k].imag());
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

}  // namespace hepex::amplitudes
