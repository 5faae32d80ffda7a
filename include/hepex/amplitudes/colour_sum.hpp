#pragma once
// The colour sum |M|^2(hel) = sum_ij conj(J_i) CF_ij / d J_j as its own
// kernel. CF is real and symmetric, so with J = x + i y this is two real
// quadratic forms, x^T C x + y^T C y; they are evaluated on the upper triangle
// with the off-diagonal entries doubled, so every off-diagonal term is used
// once (A. Valassi, kernel splitting paper, section 3.2).

#include <cstdint>
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

// The engine's kernel (detail/evaluator.hpp) splits the quadratic form into
// n = colours items of equal length for the threads of a team. The upper
// triangle of CF, off-diagonal entries doubled (weights w_ik = 2 CF_ik,
// w_ii = CF_ii), has n (n + 1) / 2 entries, row i holding the n - i entries
// k >= i. Rows t and n - 1 - t (t < n / 2) hold n + 1 together: step
// m = 0 .. n - t - 1 of pair t is entry (t, t + m), step m = n - t .. n is
// entry (n - 1 - t, m - 1). Item h n / 2 + t takes half h (h = 0, 1) of the
// steps of pair t, padded with zero weights to a multiple of the chunk in
// which an item reads its weights (the loads of a chunk in flight at once).
// The weights are stored step-major, weights[m n / 2 + t], so that the
// threads of a warp, taking neighbouring pairs, read neighbouring 16-bit
// words, and all loops have lengths known at compile time. The triangle's
// entries dealt one by one to the threads (an index word and a gather of two
// jamps per entry) held a third of the gg_ttggg kernel's stall samples on the
// H100; folded, gg_ttggg ran 20% and gg_ttgg 5% faster at the peak
// (perf/results/me.md).
// Needs an even n and |2 CF_ik| < 2^15: true for all four processes
// (n = 2, 6, 24, 120; 2 CF <= 8192); checked on construction. Divide by d at the end.
struct FoldedColourSteps {
  KOKKOS_INLINE_FUNCTION static constexpr int half_pair(int n) { return (n + 2) / 2; }
  // Weights read four steps at a time for gg_ttggg (64 steps per item: 11%
  // more MEs/s than one at a time on the H100), one at a time below (gg_ttgg:
  // 13 steps per item, chunks of 4 or 13 cost it 3-4%; perf/results/me.md).
  KOKKOS_INLINE_FUNCTION static constexpr int chunk(int n) { return half_pair(n) > 16 ? 4 : 1; }
  // Steps per item: half of a pair's n + 1, rounded up to whole chunks.
  KOKKOS_INLINE_FUNCTION static constexpr int per_item(int n) {
    return (half_pair(n) + chunk(n) - 1) / chunk(n) * chunk(n);
  }
};

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

// Item `item` (0 <= item < n) of the folded triangle: its share of
// sum over c < combinations of sum_{i <= k} w_ik Re(conj(J_ci) J_ck), the
// jamps J_c at j + c n; the items' shares add up to d |M|^2 summed over the
// combinations.
template <int n, int max_combinations, class Real, class Weights>
KOKKOS_INLINE_FUNCTION double folded_colour_share(const Weights& weights, int item,
                                                  const Kokkos::complex<Real>* j,
                                                  int combinations) {
  static_assert(n % 2 == 0, "folded colour sum: odd number of colours");
  constexpr int half = n / 2, chunk = FoldedColourSteps::chunk(n);
  constexpr int per_item = FoldedColourSteps::per_item(n);
  const int t = item % half, first = item / half * per_item;
  // Rows t and n - 1 - t of every combination, as values (selected by value
  // below, not by reference, so that they stay in registers).
  Real upper_re[max_combinations] = {}, upper_im[max_combinations] = {};
  Real lower_re[max_combinations] = {}, lower_im[max_combinations] = {};
  for (int c = 0; c < max_combinations; ++c) {
    if (c < combinations) {
      upper_re[c] = j[c * n + t].real();
      upper_im[c] = j[c * n + t].imag();
      lower_re[c] = j[c * n + n - 1 - t].real();
      lower_im[c] = j[c * n + n - 1 - t].imag();
    }
  }
  double sum = 0;
  for (int s0 = 0; s0 < per_item; s0 += chunk) {
    std::int16_t w[chunk];
    for (int s = 0; s < chunk; ++s) w[s] = weights((first + s0 + s) * half + t);
    for (int s = 0; s < chunk; ++s) {
      const int step = first + s0 + s;
      // Padding steps: skipped one at a time, in chunks weight 0 on the last jamp.
      if (chunk > 1 || step <= n) {
        const bool in_upper = step < n - t;
        const int k = in_upper ? t + step : (chunk > 1 && step > n ? n - 1 : step - 1);
        Real term = 0;
        for (int c = 0; c < max_combinations; ++c) {
          if (c < combinations) {
            const Kokkos::complex<Real> column = j[c * n + k];
            term += (in_upper ? upper_re[c] : lower_re[c]) * column.real() +
                    (in_upper ? upper_im[c] : lower_im[c]) * column.imag();
          }
        }
        sum += double(Real(w[s]) * term);
      }
    }
  }
  return sum;
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
