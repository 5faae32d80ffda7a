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

// The packed upper triangle (row by row) of CF_ij / d, off-diagonal doubled.
template <class Real, class MemSpace>
Kokkos::View<Real*, MemSpace> packed_colour_triangle(const ColourMatrix& m) {
  Kokkos::View<Real*, MemSpace> packed("hepex::colour_triangle", m.colours * (m.colours + 1) / 2);
  auto host = Kokkos::create_mirror_view(packed);
  int index = 0;
  for (int i = 0; i < m.colours; ++i)
    for (int j = i; j < m.colours; ++j)
      host(index++) = Real((i == j ? 1 : 2) * m.cf[i * m.colours + j]) / Real(m.denominator);
  Kokkos::deep_copy(packed, host);
  return packed;
}

// Entry p of the packed triangle is (i, k) with p -> i * colours + k in
// this table: the engine's kernel spreads the entries themselves over a team,
// so that neighbouring threads read neighbouring entries (a thread per row
// reads a whole row alone, and the team's loads hit 32 cache lines each).
template <class MemSpace>
Kokkos::View<int*, MemSpace> packed_colour_pairs(int colours) {
  Kokkos::View<int*, MemSpace> pairs("hepex::colour_pairs", colours * (colours + 1) / 2);
  auto host = Kokkos::create_mirror_view(pairs);
  int index = 0;
  for (int i = 0; i < colours; ++i)
    for (int k = i; k < colours; ++k) host(index++) = i * colours + k;
  Kokkos::deep_copy(pairs, host);
  return pairs;
}

// One entry's share of the quadratic form for the jamps j:
// C'_ik (x_i x_k + y_i y_k), C' the packed triangle's entry.
template <class Real>
KOKKOS_INLINE_FUNCTION Real colour_term(Real entry, const Kokkos::complex<Real>* j, int i, int k) {
  return entry * (j[i].real() * j[k].real() + j[i].imag() * j[k].imag());
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
