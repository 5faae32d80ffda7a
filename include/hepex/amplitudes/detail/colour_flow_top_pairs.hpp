#pragma once
// The colour-flow family's portable kernel for small plans: per helicity
// combination of the light particles (all but the top pair), the light
// currents once, then a loop over the antitop's two helicities, every current
// a local variable.
//
// The closing top (the row spinor the amplitudes close on) is in no current
// and the antitop only in the top line's column currents. So the generated
// pass (generated/<process>_flow_code.hpp, flow_top_pair_jamps) forms the
// light currents once, then, per antitop helicity, the top line's currents
// and each amplitude's spinor gamma.J psi once, closed on both of the top's
// rows: the jamps of four combinations. The loop over the antitop's
// helicities is kept as a loop (HEPEX_KEEP_LOOP), so its code is in the
// kernel once. Nothing is indexed at run time and nothing is kept from one
// light combination to the next, so the compiler can hold the currents in
// registers; the kernel that keeps the currents of the previous combination
// (colour_flow_jamps' `changed`) holds them in an array in the thread's
// local memory, which on a GPU lies off the chip (uu_ttxuu: 6 KB of stack
// per thread). On the H200 (perf/results/amplitudes/README.md) a pass per
// antitop helicity took uu_ttxuu from 6.06e7 to 7.86e7 MEs/s and uc_ttxuc
// from 2.12e8 to 2.44e8; the light currents once per light combination took
// uc_ttxuc to 4.50e8. The steps and their order are colour_flow_jamps', so
// the jamps are the executor's to the bit (tests/amplitudes/
// test_colour_flow.cpp).

#include <vector>

#include "hepex/amplitudes/detail/colour_flow_recursion.hpp"

namespace hepex::amplitudes::detail {

// y = gamma.J psi for a gluon or singlet current J and a column spinor psi:
// the first half of ffv_sandwich, in its order of operations.
template <class T>
KOKKOS_INLINE_FUNCTION void closing_spinor(const cplx<T>* gluon, const cplx<T>* column,
                                           cplx<T>* y) {
  detail::sigma_times(gluon, T(-1), column[2], column[3], y[0], y[1]);
  detail::sigma_times(gluon, T(1), column[0], column[1], y[2], y[3]);
}

// The amplitude G ubar y (flow_amplitude(row, J, psi) for y =
// closing_spinor(J, psi)), summed as ffv_sandwich sums.
template <class T>
KOKKOS_INLINE_FUNCTION cplx<T> closed_amplitude(const cplx<T>* row, const cplx<T>* y) {
  return T(strong_coupling) * (row[0] * y[0] + row[1] * y[1] + row[2] * y[2] + row[3] * y[3]);
}

// A loop the device compiler keeps as a loop: its body is in the kernel once.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define HEPEX_KEEP_LOOP _Pragma("unroll 1")
#else
#define HEPEX_KEEP_LOOP
#endif

// A process's momenta with two particles exchanged (or not).
template <class Momentum>
struct ExchangedMomenta {
  const Momentum& momentum;
  int first, second;
  bool exchanged;
  KOKKOS_INLINE_FUNCTION double operator()(int part, int mu) const {
    const int q = !exchanged ? part : part == first ? second : part == second ? first : part;
    return momentum(q, mu);
  }
};

// The GPU pass of a process with two identical outgoing light quarks (Flow:
// u u > t t~ u u) from its partner's (Partner: u c > t t~ u c, the second
// quark line of another flavour; the same particle kinds and colour basis,
// make_process_tables.py, EXCHANGE_PARTNERS): by Fermi statistics the
// amplitude is the partner's minus the partner's with the two quarks
// exchanged (momenta, helicities and colour labels: flow f of the partner
// becomes the process's flow Flow::subtract_exchanged writes to). The
// partner's pass runs in a loop that the device compiler keeps, so that the
// kernel holds its code once: about half the code of the process's own pass
// (uu_ttxuu: 9336 instructions against uc_ttxuc's 6280 in double), on a GPU
// whose kernel waited most on fetching instructions (perf/results/amplitudes/
// README.md). A term is skipped where the partner's pass is zero by
// chirality (Partner::top_live). As Flow::top_pair_jamps: sink(a, jamps) for
// each antitop helicity antitops[a] with bit a of `wanted` set. The jamps
// equal the process's own pass's (the executor's to the bit) to rounding: the
// sums are formed in another order (tests/amplitudes/test_colour_flow.cpp).
template <class Flow, class Partner, class T, class Momentum, class Sink>
KOKKOS_INLINE_FUNCTION void exchanged_top_pair_jamps(const Momentum& momentum, const int* helicity,
                                                     const int* antitops, unsigned wanted,
                                                     const int* top, const TopQuark& quark,
                                                     const Sink& sink) {
  constexpr int first = Flow::exchange_first, second = Flow::exchange_second;
  static_assert(Partner::colours == Flow::colours && Partner::particles == Flow::particles);
  cplx<T> jamps[2][2][Flow::colours];  // per antitop helicity
  for (int a = 0; a < 2; ++a)
    for (int t = 0; t < 2; ++t)
      for (int c = 0; c < Flow::colours; ++c) jamps[a][t][c] = cplx<T>(T(0));
  HEPEX_KEEP_LOOP
  for (int s = 0; s < 2; ++s) {
    int h[Flow::particles];
    for (int part = 0; part < Flow::particles; ++part) h[part] = helicity[part];
    if (s == 1) {
      h[first] = helicity[second];
      h[second] = helicity[first];
    }
    if (!Partner::top_live(h)) continue;
    Partner::template top_pair_jamps<T>(ExchangedMomenta<Momentum>{momentum, first, second, s == 1},
                                        h, antitops, wanted, top, quark,
                                        [&](int a, const cplx<T>(*part)[Flow::colours]) {
                                          if (s == 0) {
                                            for (int t = 0; t < 2; ++t)
                                              for (int c = 0; c < Flow::colours; ++c)
                                                jamps[a][t][c] += part[t][c];
                                          } else {
                                            Flow::subtract_exchanged(part, jamps[a]);
                                          }
                                        });
  }
  for (int a = 0; a < 2; ++a)
    if ((wanted >> a & 1) != 0) sink(a, jamps[a]);
}

// The good helicity combinations (good[count], MadGraph's numbering, where
// particle p is bit particles - 1 - p) grouped by everything but the top
// pair's two bits: per group, in order of first appearance, five numbers:
// the combination with the two top bits cleared, then for t = 2 a + c (a,
// c the antitop's and the closing top's bit) the index into good of that
// combination, or -1 where it is not good. Host only, once per set of good
// helicities.
inline std::vector<int> top_pair_groups(int particles, int antitop, int closing, const int* good,
                                        int count) {
  const int a_bit = 1 << (particles - 1 - antitop), c_bit = 1 << (particles - 1 - closing);
  std::vector<int> groups;
  for (int i = 0; i < count; ++i) {
    const int light = good[i] & ~(a_bit | c_bit);
    const int t = 2 * ((good[i] & a_bit) != 0) + ((good[i] & c_bit) != 0);
    std::size_t g = 0;
    while (g < groups.size() && groups[g] != light) g += 5;
    if (g == groups.size()) groups.insert(groups.end(), {light, -1, -1, -1, -1});
    groups[g + 1 + t] = i;
  }
  return groups;
}

}  // namespace hepex::amplitudes::detail
