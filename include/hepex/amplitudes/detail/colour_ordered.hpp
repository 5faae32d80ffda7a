#pragma once
// The dual amplitudes ("jamps") of g g -> t tbar + n g by Berends-Giele
// recursion of colour-ordered currents, for any number of gluons.
//
// Why recursion and not Feynman diagrams (CUDACPP's choice): one generic,
// short, obviously uniform routine serves all four processes, and its cost
// grows like the number of ordered gluon subsets (325 for 5 gluons) instead of
// the number of diagrams (1240 for gg_ttggg); no generated per-process code.
// Recursion is a re-bracketing of the same sum of Feynman diagrams with the same
// propagators (the top width sits in every top propagator, s- and t-channel,
// as in the reference), so it reproduces MadGraph's numbers, width included.
//
// Colour decomposition (F. A. Berends, W. T. Giele, Nucl. Phys. B 306 (1988)
// 759; M. Mangano, S. Parke, Phys. Rept. 200 (1991) 301): with Tr(T^a T^b) =
// delta^ab / 2 and [T^a, T^b] = i f^abc T^c,
//   M = sum over orderings s of the n gluons of  A(s) (T^{a_s1} ... T^{a_sn})_{i3 j4},
// where i3 is the top's colour (the T next to the outgoing top comes first)
// and j4 the antitop's. This is MadGraph's colour-flow basis: its colour flow
// k is the k-th ordering of the gluon labels in lexicographic order (its
// "T(1,2,5,3,4)", "T(1,5,2,3,4)", ...), so jamps[k] = A(k-th ordering), and
// the colour matrices of the reference data apply unchanged. With only one
// quark line the 1/N terms of the Fierz identity cancel.
//
// The colour-ordered rules follow from MadGraph's Feynman rules (couplings in
// parameters.hpp, ALOHA routines in helas.hpp) by contracting colour:
//  - three-gluon vertex, colour f^{e a b}: T^e f^{e a b} = -i [T^a, T^b], so the
//    ordered current J(A B) gets  -i VVV1P0_1(J(A), J(B), GC_10)  per split;
//  - four-gluon vertex, three terms f f x VVVV1/3/4 (Lorentz g14 g23 - g13 g24,
//    g14 g23 - g12 g34, g13 g24 - g12 g34): contracting with T^e, the
//    coefficient of T^A T^B T^C is -VVVV1 + VVVV4, i.e. the current
//    -i GC_12 [2 V_B (V_A.V_C) - V_C (V_A.V_B) - V_A (V_B.V_C)] / P^2;
//  - top-gluon vertex, colour T^a: no factor, the fermion current
//    Psi(s) = sum over s = s1 s2 (s1 non-empty) of FFV1_2(Psi(s2), J(s1)),
//    Psi() = v(p4), and A(s) = sum over s = s1 s2 of FFV1_0(Psi(s2), ubar(p3), J(s1)).
// Gluon currents: J(s) = sum over splits of the vertices, times 1/P^2
// (Feynman gauge, massless gluon, as ALOHA's VVV1P0_1 / VVVV*P0_1).

#include <type_traits>
#include <vector>

#include "hepex/amplitudes/detail/helas.hpp"
#include "hepex/amplitudes/parameters.hpp"

namespace hepex::amplitudes::detail {

// Ordered sequences of distinct gluons out of NG, by length, each length in
// lexicographic order; sequence 0 is the empty one.
// Loops, not recursion: these run inside the device kernels with runtime
// arguments, and a recursive device function has a stack that ptxas cannot
// size (on the H100 it overflowed CUDA's default per-thread stack).
// Used in kernels too: without KOKKOS_INLINE_FUNCTION a CUDA build relies on
// nvcc's --expt-relaxed-constexpr, which a Kokkos without
// Kokkos_ENABLE_CUDA_CONSTEXPR does not pass; the calls then returned garbage
// on the device (all MEs 0).
struct Sequences {
  // n (n - 1) ... (n - k + 1)
  KOKKOS_INLINE_FUNCTION static constexpr int falling(int n, int k) {
    int product = 1;
    for (int i = 0; i < k; ++i) product *= n - i;
    return product;
  }
  // First id of the sequences of length L.
  KOKKOS_INLINE_FUNCTION static constexpr int offset(int ng, int length) {
    int first = 0;
    for (int l = 0; l < length; ++l) first += falling(ng, l);
    return first;
  }
  KOKKOS_INLINE_FUNCTION static constexpr int count(int ng) { return offset(ng, ng + 1); }
};

// Calls f(std::integral_constant<int, L>()) for L = First, ..., Last - 1 in
// turn: the recursion's steps by sequence length with the length known at
// compile time, so that the loops over a current's splits below unroll with
// their bounds and index arithmetic folded (gg_ttgg on the H100: 14% fewer
// instructions per warp, 3% more MEs/s at the peak, perf/results/amplitudes/README.md).
template <int First, int Last, class F>
KOKKOS_INLINE_FUNCTION void for_each_length(const F& f) {
  if constexpr (First < Last) {
    f(std::integral_constant<int, First>());
    for_each_length<First + 1, Last>(f);
  }
}

// Where the recursion keeps one event's currents: plain arrays, so that the
// same per-current steps below run on a thread's own arrays (the reference,
// colour_ordered_jamps) and on a team's scratch memory (the engine's kernel,
// detail/evaluator.hpp), where the threads of a team share the currents of
// one length and compute those of the next in parallel.
//  current[4 s + mu]   gluon current J(s), s = 1 .. count(NG) - 1
//  momentum[4 m + mu]  outgoing momentum of the gluon subset with bits m
//  psi[4 (s - 1) + mu] fermion current Psi(s) of the sequences s shorter than
//                      NG - 1 (s = 1 .. offset(NG, NG - 1) - 1)
// The fermion currents of length NG - 1 are not stored: each enters one term
// of one jamp per top helicity (that of the ordering which starts with the
// gluon it lacks), so the jamp's step computes it (close_on_top's `first`).
// Momenta stay in double whatever T (see Wave); keeping one per gluon subset
// instead of one per current, and not storing the longest fermion currents,
// is what lets gg_ttggg's currents of both antitop helicities fit in 40 KB.
template <int NG>
struct CurrentSizes {
  static constexpr int currents = Sequences::count(NG);
  static constexpr int subsets = 1 << NG;
  static constexpr int stored_fermion_currents = Sequences::offset(NG, NG - 1) - 1;
  static constexpr int colours = Sequences::falling(NG, NG);
};

// Where the fermion current of sequence s (1 <= s < offset(NG, NG - 1)) is
// stored.
template <class Pointer>
KOKKOS_INLINE_FUNCTION Pointer fermion_current_slot(Pointer psi, int s) {
  return psi + 4 * (s - 1);
}

// The stored fermion current of sequence s, or the antitop's spinor for the
// empty sequence.
template <class T>
KOKKOS_INLINE_FUNCTION const cplx<T>* stored_fermion_current(const cplx<T>* psi, int s,
                                                             const cplx<T>* antitop) {
  return s == 0 ? antitop : fermion_current_slot(psi, s);
}

// What the recursion reads of the momenta ("kinematics"), per gluon subset
// with bits m:
//   k(m, mu)           its outgoing momentum, as the vertices take it (Momentum);
//   gluon_propagator(m) 1 / k^2;
//   fermion_line(m)    the top line whose current carries the subset and the
//                      outgoing antitop: k + k_antitop and its k^2 - M^2.
// The squares are formed in double (see Wave). MomentaInDoubles forms them
// when asked, from the subsets' double momenta (the GPU kernel, the
// reference); the host kernel tabulates them once per pack of events
// (detail/subset_kinematics.hpp), since every helicity unit asks again.
template <class T>
struct MomentaInDoubles {
  using Momentum = Doubles<T>;
  const Doubles<T>* momentum;   // [4 m + mu]
  const Doubles<T>* antitop_k;  // [mu]
  double mass_squared;          // of the top

  KOKKOS_INLINE_FUNCTION Momentum k(int m, int mu) const { return momentum[4 * m + mu]; }
  KOKKOS_INLINE_FUNCTION T gluon_propagator(int m) const {
    return T(Doubles<T>(1) / square(momentum + 4 * m));
  }
  KOKKOS_INLINE_FUNCTION FermionLine<T, Momentum> fermion_line(int m) const {
    FermionLine<T, Momentum> line;
    for (int mu = 0; mu < 4; ++mu) line.k[mu] = momentum[4 * m + mu] + antitop_k[mu];
    line.virtuality = T(square(line.k) - Doubles<T>(mass_squared));
    return line;
  }
};

// The gluon current J(s) of a sequence of the given length, from the currents
// of its pieces (all shorter, so ready):
// J(s) = [sum (-i)(i GC_10) VVV1 + sum (-i GC_12) ordered VVVV] / P^2,
// where both couplings are real: (-i)(i GC_10) = GC_10 and
// -i GC_12 = gc12_im, applied once to each sum.
template <int NG, int length, class T, class Plan, class Kinematics>
KOKKOS_INLINE_FUNCTION void gluon_current(const Plan& plan, int s, const Kinematics& kinematics,
                                          cplx<T>* current) {
  constexpr int W = NG + 1;
  const auto polarisation = [&](int i, int j) { return current + 4 * plan.sub(s, i * W + j); };
  const auto piece = [&](int i, int j) {
    const int id = plan.sub(s, i * W + j);
    const int m = plan.mask(id);
    Wave<T, typename Kinematics::Momentum> w;
    for (int mu = 0; mu < 4; ++mu) {
      w.c[mu] = current[4 * id + mu];
      w.k[mu] = kinematics.k(m, mu);
    }
    return w;
  };
  cplx<T> three[4] = {}, four[4] = {};
  for (int c = 1; c < length; ++c) add_vvv_numerator(piece(0, c), piece(c, length), three);
  for (int c1 = 1; c1 < length; ++c1)
    for (int c2 = c1 + 1; c2 < length; ++c2)
      add_vvvv_numerator(polarisation(0, c1), polarisation(c1, c2), polarisation(c2, length), four);
  const T propagator = kinematics.gluon_propagator(plan.mask(s));
  const T vvv = T(gc10_re) * propagator, vvvv = T(gc12_im) * propagator;
  for (int mu = 0; mu < 4; ++mu) current[4 * s + mu] = three[mu] * vvv + four[mu] * vvvv;
}

// The fermion current Psi(s) of a sequence shorter than NG into out[0..3],
// from the gluon currents, the stored fermion currents of its suffixes and
// the outgoing antitop's column spinor (Psi of the empty sequence), with the
// top's mass and width in the propagator.
template <int NG, int length, class T, class Plan, class Kinematics>
KOKKOS_INLINE_FUNCTION void fermion_current(const Plan& plan, int s, const Kinematics& kinematics,
                                            const cplx<T>* current, const cplx<T>* antitop,
                                            const TopTerms<T>& top, const cplx<T>* psi,
                                            cplx<T>* out) {
  constexpr int W = NG + 1;
  const cplx<T> gc11(T(0), T(gc11_im));
  cplx<T> x[4] = {};
  for (int c = 1; c <= length; ++c) {
    const int suffix = plan.sub(s, c * W + length);
    add_gamma_times(current + 4 * plan.sub(s, c), stored_fermion_current(psi, suffix, antitop), x);
  }
  fermion_propagator(kinematics.fermion_line(plan.mask(s)), top, gc11, x, out);
}

// The fermion current of the length-(NG - 1) suffix of the full ordering s
// (not stored: close_on_top takes it as `first`) into first[0..3].
template <int NG, class T, class Plan, class Kinematics>
KOKKOS_INLINE_FUNCTION void first_fermion_current(const Plan& plan, int s,
                                                  const Kinematics& kinematics,
                                                  const cplx<T>* current, const cplx<T>* antitop,
                                                  const TopTerms<T>& top, const cplx<T>* psi,
                                                  cplx<T>* first) {
  fermion_current<NG, NG - 1>(plan, plan.sub(s, (NG + 1) + NG), kinematics, current, antitop, top,
                              psi, first);
}

// The jamp of the full ordering s, closed on the outgoing top's row spinor;
// `first` is first_fermion_current(s), the others are stored.
template <int NG, class T, class Plan>
KOKKOS_INLINE_FUNCTION cplx<T> close_on_top(const Plan& plan, int s, const cplx<T>* current,
                                            const cplx<T>* psi, const cplx<T>* first,
                                            const cplx<T>* antitop, const cplx<T>* top) {
  constexpr int W = NG + 1;
  const cplx<T> gc11(T(0), T(gc11_im));
  cplx<T> amplitude = ffv_sandwich(first, top, current + 4 * plan.sub(s, 1));
  for (int c = 2; c <= NG; ++c) {
    const int suffix = plan.sub(s, c * W + NG);
    amplitude += ffv_sandwich(stored_fermion_current(psi, suffix, antitop), top,
                              current + 4 * plan.sub(s, c));
  }
  return cplx<T>(T(0), T(-1)) * gc11 * amplitude;  // FFV1_0 = -i C F2 gamma.V F1
}

// The momentum of the gluon subset `mask`, summed in gluon order from
// gluon_k(g, mu), the outgoing momentum of gluon g.
template <int NG, class GluonMomentum, class D>
KOKKOS_INLINE_FUNCTION void subset_momentum(int mask, const GluonMomentum& gluon_k, D* out) {
  for (int mu = 0; mu < 4; ++mu) out[mu] = D(0);
  for (int g = 0; g < NG; ++g)
    if ((mask >> g) & 1)
      for (int mu = 0; mu < 4; ++mu) out[mu] += gluon_k(g, mu);
}

// subset_momentum's gluon_k from wavefunctions, callable on host and device
// (a host lambda called from subset_momentum would need nvcc's relaxed
// constexpr, see Sequences).
template <class T>
struct WaveMomenta {
  const Wave<T>* waves;
  KOKKOS_INLINE_FUNCTION Doubles<T> operator()(int g, int mu) const { return waves[g].k[mu]; }
};

// The reference's steps for for_each_length: every gluon (fermion) current of
// one length, in order. Functors callable on host and device, not host
// lambdas, for the reason given at WaveMomenta.
template <int NG, class T, class Plan, class Kinematics>
struct GluonCurrentsOfLength {
  const Plan& plan;
  const Kinematics& kinematics;
  cplx<T>* current;
  template <int length>
  KOKKOS_INLINE_FUNCTION void operator()(std::integral_constant<int, length>) const {
    for (int s = Sequences::offset(NG, length); s < Sequences::offset(NG, length + 1); ++s)
      gluon_current<NG, length>(plan, s, kinematics, current);
  }
};

template <int NG, class T, class Plan, class Kinematics>
struct FermionCurrentsOfLength {
  const Plan& plan;
  const Kinematics& kinematics;
  const cplx<T>* current;
  const cplx<T>* antitop;
  TopTerms<T> top;
  cplx<T>* psi;
  template <int length>
  KOKKOS_INLINE_FUNCTION void operator()(std::integral_constant<int, length>) const {
    for (int s = Sequences::offset(NG, length); s < Sequences::offset(NG, length + 1); ++s)
      fermion_current<NG, length>(plan, s, kinematics, current, antitop, top, psi,
                                  fermion_current_slot(psi, s));
  }
};

// The reference: all steps in one thread, in order of length, for the NG!
// jamps of one event and one helicity (gluon wavefunctions gluons[g],
// g = 0..NG-1 in particle order g g _ _ g g g). The engine runs the same
// steps spread over a team (detail/evaluator.hpp).
template <int NG, class T, class Plan>
void colour_ordered_jamps(const Plan& plan, const Wave<T>* gluons, const Wave<T>& top,
                          const Wave<T>& antitop, const TopQuark& quark, cplx<T>* jamps) {
  using Sizes = CurrentSizes<NG>;
  std::vector<cplx<T>> current(4 * Sizes::currents), psi(4 * Sizes::stored_fermion_currents);
  std::vector<Doubles<T>> momentum(4 * Sizes::subsets);
  for (int m = 1; m < Sizes::subsets; ++m) {
    subset_momentum<NG>(m, WaveMomenta<T>{gluons}, &momentum[4 * m]);
  }
  for (int s = 1; s <= NG; ++s)
    for (int mu = 0; mu < 4; ++mu) current[4 * s + mu] = gluons[plan.gluon(s)].c[mu];
  using Kinematics = MomentaInDoubles<T>;
  const Kinematics kinematics{momentum.data(), antitop.k, quark.mass * quark.mass};
  const TopTerms<T> terms = top_terms<T>(quark);
  for_each_length<2, NG + 1>(
      GluonCurrentsOfLength<NG, T, Plan, Kinematics>{plan, kinematics, current.data()});
  for_each_length<1, NG - 1>(FermionCurrentsOfLength<NG, T, Plan, Kinematics>{
      plan, kinematics, current.data(), antitop.c, terms, psi.data()});
  for (int f = 0; f < Sizes::colours; ++f) {
    const int s = Sequences::offset(NG, NG) + f;
    cplx<T> first[4];
    first_fermion_current<NG>(plan, s, kinematics, current.data(), antitop.c, terms, psi.data(),
                              first);
    jamps[f] = close_on_top<NG>(plan, s, current.data(), psi.data(), first, antitop.c, top.c);
  }
}

}  // namespace hepex::amplitudes::detail
