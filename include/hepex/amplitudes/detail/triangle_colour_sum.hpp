#pragma once
// The colour sum as the host lane kernel (detail/lane_kernel.hpp) evaluates
// it: the upper triangle of CF row by row. With w_ii = CF_ii and
// w_ik = 2 CF_ik (k > i),
//   d |M|^2 = sum_i Re(conj(J_i) z_i),   z_i = sum_{k >= i} w_ik J_k
// (CF real and symmetric: colour_sum.hpp). Each weight is one scalar,
// broadcast to the lanes from a table made at compile time, and serves every
// helicity combination of the unit: 2 FMAs per entry and combination, no
// index words, no selects, every loop bound known to the compiler. The GPU
// kernel deals the same triangle to the threads of a team instead
// (folded_colour_share.hpp), whose per-step selects and weight conversions
// cost the host more (with this form, gg_ttggg ran 1.5x faster on one AVX2
// core, and the colour sum took 7% of its profile: perf/results/amplitudes/README.md).

#include "hepex/amplitudes/detail/arithmetic.hpp"

namespace hepex::amplitudes::detail {

// The rows of the triangle, packed: row i (n - i weights, w_ii first) starts
// at i n - i (i - 1) / 2. The weights are small integers (|2 CF_ik| <= 8192),
// exact in float.
template <class T, int n>
struct ColourTriangle {
  T w[n * (n + 1) / 2] = {};

  constexpr explicit ColourTriangle(const int (&cf)[n * n]) {
    int at = 0;
    for (int i = 0; i < n; ++i)
      for (int k = i; k < n; ++k) w[at++] = T((k == i ? 1 : 2) * cf[i * n + k]);
  }
};

// The triangle of a process's colour matrix at compile time: Matrix has
// `colours` and `cf` (colours x colours), as the generated family traits do
// (generated/top_line_gluons.hpp).
template <class T, class Matrix>
inline constexpr ColourTriangle<T, Matrix::colours> colour_triangle{Matrix::cf};

// sums[c] = d |M_c|^2 of each combination c < C, whose jamps J_c are at
// j + c n, in double lanes (the selection of a helicity needs them apart;
// their sum is the unit's). A row's z adds up in Real (at most n terms), the
// rows in double.
template <class Matrix, int C, class Real>
HEPEX_FORCEINLINE_FUNCTION void triangle_colour_sums(const Complex<Real>* j, Doubles<Real>* sums) {
  using T = typename Real::value_type;
  constexpr int n = Matrix::colours;
  const T* row = colour_triangle<T, Matrix>.w;
#pragma GCC unroll 4
  for (int c = 0; c < C; ++c) sums[c] = Doubles<Real>(0);
  for (int i = 0; i < n; ++i) {
    // The combinations' loops unrolled, so that z stays in registers.
    Real zr[C], zi[C];
#pragma GCC unroll 4
    for (int c = 0; c < C; ++c) {
      zr[c] = Real(row[0]) * j[c * n + i].re;
      zi[c] = Real(row[0]) * j[c * n + i].im;
    }
    for (int k = i + 1; k < n; ++k) {
      const Real w = Real(row[k - i]);
#pragma GCC unroll 4
      for (int c = 0; c < C; ++c) {
        zr[c] += w * j[c * n + k].re;
        zi[c] += w * j[c * n + k].im;
      }
    }
#pragma GCC unroll 4
    for (int c = 0; c < C; ++c)
      sums[c] += Doubles<Real>(j[c * n + i].re * zr[c] + j[c * n + i].im * zi[c]);
    row += n - i;
  }
}

}  // namespace hepex::amplitudes::detail
