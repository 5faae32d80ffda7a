#pragma once
// The colour sum's folded quadratic form, as the kernels evaluate it (its
// weights are made by folded_colour_weights, colour_sum.hpp).

#include <cstdint>

#include "hepex/amplitudes/detail/arithmetic.hpp"

namespace hepex::amplitudes::detail {

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
// (perf/results/amplitudes/README.md).
// Needs an even n and |2 CF_ik| < 2^15: true for all four processes
// (n = 2, 6, 24, 120; 2 CF <= 8192); checked on construction. Divide by d at the end.
struct FoldedColourSteps {
  KOKKOS_INLINE_FUNCTION static constexpr int half_pair(int n) { return (n + 2) / 2; }
  // Weights read four steps at a time for gg_ttggg (64 steps per item: 11%
  // more MEs/s than one at a time on the H100), one at a time below (gg_ttgg:
  // 13 steps per item, chunks of 4 or 13 cost it 3-4%; perf/results/amplitudes/README.md).
  KOKKOS_INLINE_FUNCTION static constexpr int chunk(int n) { return half_pair(n) > 16 ? 4 : 1; }
  // Steps per item: half of a pair's n + 1, rounded up to whole chunks.
  KOKKOS_INLINE_FUNCTION static constexpr int per_item(int n) {
    return (half_pair(n) + chunk(n) - 1) / chunk(n) * chunk(n);
  }
};

// Item `item` (0 <= item < n) of the folded triangle: its share of
// sum_{i <= k} w_ik Re(conj(J_ci) J_ck), the jamps J_c at j + c n, added to
// out[c] for each combination c < combinations (each_combination: what the
// choice of a helicity needs) or summed over them into out[0]; the items'
// shares add up to d |M|^2. The host kernel runs the same triangle row by
// row (detail/triangle_colour_sum.hpp).
template <int n, int max_combinations, bool each_combination, class Real, class Weights>
KOKKOS_INLINE_FUNCTION void add_folded_colour_share(const Weights& weights, int item,
                                                    const Complex<Real>* j, int combinations,
                                                    double* out) {
  static_assert(n % 2 == 0, "folded colour sum: odd number of colours");
  constexpr int half = n / 2, chunk = FoldedColourSteps::chunk(n);
  constexpr int per_item = FoldedColourSteps::per_item(n);
  constexpr int sums = each_combination ? max_combinations : 1;
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
  // The item's steps add up in Real (at most n / 2 + 1 of them), the items
  // in double (their caller): in float, widening every step to double cost
  // as much as the step.
  Real sum[sums] = {};
  for (int s0 = 0; s0 < per_item; s0 += chunk) {
    std::int16_t w[chunk];
    for (int s = 0; s < chunk; ++s) w[s] = weights((first + s0 + s) * half + t);
    for (int s = 0; s < chunk; ++s) {
      const int step = first + s0 + s;
      // Padding steps: skipped one at a time, in chunks weight 0 on the last jamp.
      if (chunk > 1 || step <= n) {
        const bool in_upper = step < n - t;
        const int k = in_upper ? t + step : (chunk > 1 && step > n ? n - 1 : step - 1);
        Real term[sums] = {};
        for (int c = 0; c < max_combinations; ++c) {
          if (c < combinations) {
            const Complex<Real> column = j[c * n + k];
            term[each_combination ? c : 0] +=
                (in_upper ? upper_re[c] : lower_re[c]) * column.real() +
                (in_upper ? upper_im[c] : lower_im[c]) * column.imag();
          }
        }
        for (int c = 0; c < sums; ++c) sum[c] += Real(w[s]) * term[c];
      }
    }
  }
  for (int c = 0; c < sums; ++c) out[c] += double(sum[c]);
}

// The item's share summed over the combinations.
template <int n, int max_combinations, class Real, class Weights>
KOKKOS_INLINE_FUNCTION double folded_colour_share(const Weights& weights, int item,
                                                  const Complex<Real>* j, int combinations) {
  double share = 0;
  add_folded_colour_share<n, max_combinations, false>(weights, item, j, combinations, &share);
  return share;
}

}  // namespace hepex::amplitudes::detail
