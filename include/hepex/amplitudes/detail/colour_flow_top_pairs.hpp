#pragma once
// The colour-flow family's portable kernel for small plans: one pass per
// antitop helicity, every current in registers.
//
// The closing top (the row spinor the amplitudes close on) is in no current,
// so a pass with the other particles' helicities fixed forms each current
// once and each amplitude's spinor gamma.J psi once, and closes it on both
// of the top's rows: the jamps of two combinations
// (generated/<process>_flow_code.hpp, flow_top_jamps). The pass has no
// array indexed at run time and keeps nothing from one pass to the next, so
// the compiler can hold its currents in registers; the kernel that keeps the
// currents of the previous combination (colour_flow_jamps' `changed`) holds
// them in an array in the thread's local memory, which on a GPU lies off the
// chip (uu_ttxuu: 6 KB of stack per thread; with this pass 1968 bytes, and
// 7.86e7 MEs/s on the H200 against 6.06e7). A pass forming the currents
// without the antitop once for both antitop helicities held more at once
// and spilled more (4560 bytes). The steps and their order are
// colour_flow_jamps', so the jamps are the executor's to the bit
// (tests/amplitudes/test_colour_flow.cpp).

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
// chirality (Partner::top_live). The jamps equal the process's own pass's
// (Flow::top_jamps, the executor's to the bit) to rounding: the sums are
// formed in another order (tests/amplitudes/test_colour_flow.cpp).
template <class Flow, class Partner, class T, class Momentum>
KOKKOS_INLINE_FUNCTION void exchanged_top_jamps(const Momentum& momentum, const int* helicity,
                                                int antitop, const int* top, const TopQuark& quark,
                                                cplx<T> (*jamps)[Flow::colours]) {
  constexpr int first = Flow::exchange_first, second = Flow::exchange_second;
  static_assert(Partner::colours == Flow::colours && Partner::particles == Flow::particles);
  for (int t = 0; t < 2; ++t)
    for (int c = 0; c < Flow::colours; ++c) jamps[t][c] = cplx<T>(T(0));
  HEPEX_KEEP_LOOP
  for (int s = 0; s < 2; ++s) {
    int h[Flow::particles];
    for (int part = 0; part < Flow::particles; ++part) h[part] = helicity[part];
    if (s == 1) {
      h[first] = helicity[second];
      h[second] = helicity[first];
    }
    if (!Partner::top_live(h)) continue;
    cplx<T> part[2][Flow::colours];
    Partner::top_jamps(ExchangedMomenta<Momentum>{momentum, first, second, s == 1}, h, antitop, top,
                       quark, part);
    if (s == 0) {
      for (int t = 0; t < 2; ++t)
        for (int c = 0; c < Flow::colours; ++c) jamps[t][c] += part[t][c];
    } else {
      Flow::subtract_exchanged(part, jamps);
    }
  }
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
