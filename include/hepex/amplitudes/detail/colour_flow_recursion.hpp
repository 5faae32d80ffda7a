#pragma once
// The colour-flow family's recursion: the jamps of any tree process of quarks
// and gluons (light quark lines and the massive top line, any number of
// them) for one event and one helicity, by Berends-Giele recursion over
// subsets of the particles, once per colour flow of MadGraph's basis with the
// colour fixed by that flow.
//
// The plan (which currents, which vertices feed each, with which colour
// factors) is made from MadGraph's colour basis by
// tools/madgraph/colour_flow_plan.py, whose header derives the rules; here
// the plan is only executed, the same code on the host and in a device
// kernel (one thread per event). The vertices are those of the top-line
// family (helas.hpp, colour_ordered.hpp) plus a quark line closing into a
// gluon (MadGraph's FFV1P0_3 = G (F2 gamma^mu F1) / P^2), with its colour
// factor 1/2 (the flow through the gluon) or -1/(2N) (the U(1) part of the
// gluon propagator, a colour singlet).

#include <vector>

#include "hepex/amplitudes/detail/helas.hpp"
#include "hepex/amplitudes/parameters.hpp"

namespace hepex::amplitudes::detail {

// Node and term kinds, as colour_flow_plan.py writes them.
enum ColourFlowNode : int {
  flow_external_gluon = 0,
  flow_external_column = 1,
  flow_gluon = 2,
  flow_singlet = 3,
  flow_column = 4,
  flow_external_row = 5,
  flow_row = 6
};
// (The generator's singlet pair, 3, reaches the tables as a pair with its
// colour factor in the term's factor.)
enum ColourFlowTerm : int {
  flow_vvv = 0,
  flow_vvvv = 1,
  flow_pair = 2,
  flow_attach = 4,
  flow_attach_row = 5
};

// One process's plan, as pointers into the memory the kernel reads:
//   node[5 i + 0..4]  kind, particle mask, particle (external) or 1 for a top
//                     line's fermion current (0 a massless quark's), first
//                     term, term count;
//   term[4 t + 0..3]  kind, a, b, c: vvv J(a) J(b); vvvv J(a) J(b) J(c);
//                     pair: row current a, column current b;
//                     attach(_row): gluon or singlet current a, column (row)
//                     current b;
//   term_factor[t]    the term's rational factor: the pair's colour factor
//                     (1/2 into the gluon, -1/(2N) into the singlet) times
//                     the factors of the currents it reads where the
//                     generator shared a current with a multiple of it
//                     (colour_flow_plan.py, share_multiples);
//   close[3 k + 0..2] jamp, gluon or singlet current, column current, and
//   close_factor[k]:  jamp += factor G ubar(closing) gamma.J psi; the
//                     closings of one amplitude (J, psi) are adjacent.
//   kind[p]           per particle 0 gluon, 1 column fermion, 2 row fermion;
//   top[p]            1 where the particle is a top (mass and width).
struct ColourFlowPlan {
  const int* node = nullptr;
  const int* term = nullptr;
  const double* term_factor = nullptr;
  const int* close = nullptr;
  const double* close_factor = nullptr;
  const int* kind = nullptr;
  const int* top = nullptr;
  int nodes = 0;
  int closes = 0;
  int particles = 0;
  int closing = 0;  // the row fermion the amplitude closes on (the outgoing top)
};

// F2 gamma^mu F1 (upper index) for a row spinor F2 and a column spinor F1,
// times `factor`, added to out. In the chiral basis, with
// ffv_sandwich(F1, F2, V) = F2 gamma.V F1 = sum_mu c_mu V^mu read off term
// by term (gamma.V = gamma^0 V^0 - gamma^k V^k, so F2 gamma^k F1 = -c_k):
//   c_0 =  F2_0 F1_2 + F2_1 F1_3 + F2_2 F1_0 + F2_3 F1_1
//   c_1 = -F2_0 F1_3 - F2_1 F1_2 + F2_2 F1_1 + F2_3 F1_0
//   c_2 = i (F2_0 F1_3 - F2_1 F1_2 - F2_2 F1_1 + F2_3 F1_0)
//   c_3 = -F2_0 F1_2 + F2_1 F1_3 + F2_2 F1_0 - F2_3 F1_1
// (ALOHA's FFV1P0_3 has the same sums.)
template <class T>
KOKKOS_INLINE_FUNCTION void add_pair_current(const cplx<T>* f1, const cplx<T>* f2, T factor,
                                             cplx<T>* out) {
  const cplx<T> c0 = f2[0] * f1[2] + f2[1] * f1[3] + f2[2] * f1[0] + f2[3] * f1[1];
  const cplx<T> c1 = f2[2] * f1[1] + f2[3] * f1[0] - f2[0] * f1[3] - f2[1] * f1[2];
  const cplx<T> c2 = f2[0] * f1[3] + f2[3] * f1[0] - f2[1] * f1[2] - f2[2] * f1[1];  // c_2 / i
  const cplx<T> c3 = f2[1] * f1[3] + f2[2] * f1[0] - f2[0] * f1[2] - f2[3] * f1[1];
  out[0] += factor * c0;
  out[1] += -factor * c1;
  out[2] += factor * cplx<T>(c2.im, -c2.re);  // -i c2
  out[3] += -factor * c3;
}

// The row fermion current's propagator (MadGraph's FFV1_1): returns
// i C x (kslash + M) / (k^2 - M^2 + i M W) for the row spinor x = psibar
// gamma.J, k the outgoing momentum of the current's particles (the momentum
// along the fermion arrow, which leaves through the row end).
template <class T, class K>
KOKKOS_INLINE_FUNCTION void row_propagator(const FermionLine<T, K>& line, const TopTerms<T>& top,
                                           cplx<T> coupling, const cplx<T>* x, cplx<T>* out) {
  const T k[4] = {T(line.k[0]), T(line.k[1]), T(line.k[2]), T(line.k[3])};
  const cplx<T> denominator(line.virtuality, top.mass_width);
  const cplx<T> factor = cplx<T>(0, 1) * coupling / denominator;
  cplx<T> u0, u1, l0, l1;
  // x kslash = ((x2, x3)(k0 + sigma.k), (x0, x1)(k0 - sigma.k))
  detail::times_sigma(k, T(1), x[2], x[3], u0, u1);
  detail::times_sigma(k, T(-1), x[0], x[1], l0, l1);
  const T m = top.mass;
  out[0] = factor * (u0 + m * x[0]);
  out[1] = factor * (u1 + m * x[1]);
  out[2] = factor * (l0 + m * x[2]);
  out[3] = factor * (l1 + m * x[3]);
}

// Accumulates the row spinor F2 gamma.V into out: ((F2_2, F2_3)(V0 + sigma.V),
// (F2_0, F2_1)(V0 - sigma.V)), so that (F2 gamma.V) F1 = ffv_sandwich(F1, F2, V).
template <class T>
KOKKOS_INLINE_FUNCTION void add_times_gamma(const cplx<T>* f2, const cplx<T>* v, cplx<T>* out) {
  cplx<T> a0, a1, b0, b1;
  detail::times_sigma(v, T(1), f2[2], f2[3], a0, a1);
  detail::times_sigma(v, T(-1), f2[0], f2[1], b0, b1);
  out[0] += a0;
  out[1] += a1;
  out[2] += b0;
  out[3] += b1;
}

// The external wavefunction of particle p at MadGraph's helicity h (all
// particles outgoing; the first two incoming): gluons vxxxxx, column
// fermions ixxxxx (u of an incoming quark, v of an outgoing antiquark), row
// fermions oxxxxx (ubar of an outgoing quark, vbar of an incoming antiquark),
// as CUDACPP's CPPProcess.cc calls them.
template <class T>
KOKKOS_INLINE_FUNCTION Wave<T> external_wave(const ColourFlowPlan& plan, const Doubles<T>* p,
                                             int part, int h, T top_mass) {
  const bool incoming = part < 2;
  const T mass = plan.top[part] ? top_mass : T(0);
  switch (plan.kind[part]) {
    case 0: return vxxxxx<T>(p, h, incoming ? -1 : 1);
    case 1: return ixxxxx<T>(p, mass, h, incoming ? 1 : -1);
    default: return oxxxxx<T>(p, mass, h, incoming ? -1 : 1);
  }
}

// What one event's helicities share, formed once per event: each particle's
// wavefunction at both helicities (ext[2 p + (h > 0)]), each node's outgoing
// momentum (the particles of its mask, summed in particle order, in double)
// and its propagator's denominator: 1 / k^2 for a gluon or singlet, k^2 - M^2
// for a fermion current (M the top's or 0). Sized by the caller: Particles
// and Nodes of the process (generated/colour_flow.hpp). T is a scalar (one
// event: the portable kernel) or SIMD lanes of events (the host lane kernel,
// colour_flow_lane_kernel.hpp); "double" is then lanes of doubles.
template <class T, int Particles, int Nodes>
struct ColourFlowEvent {
  Wave<T> ext[2 * Particles];
  Doubles<T> k[4 * Nodes];
  T denominator[Nodes];
};

template <class T, int Particles, int Nodes, class Momenta>
KOKKOS_INLINE_FUNCTION void prepare_colour_flow_event(const ColourFlowPlan& plan,
                                                      const Momenta& momenta, const TopQuark& quark,
                                                      ColourFlowEvent<T, Particles, Nodes>& event) {
  using D = Doubles<T>;
  const T top_mass = T(quark.mass);
  D p[4 * Particles];
  for (int part = 0; part < plan.particles; ++part) {
    for (int mu = 0; mu < 4; ++mu) p[4 * part + mu] = momenta(part, mu);
    for (int up = 0; up < 2; ++up) {
      event.ext[2 * part + up] = external_wave<T>(plan, p + 4 * part, part, up ? 1 : -1, top_mass);
    }
  }
  for (int i = 0; i < plan.nodes; ++i) {
    const int* n = plan.node + 5 * i;
    D* k = event.k + 4 * i;
    for (int mu = 0; mu < 4; ++mu) k[mu] = D(0);
    for (int part = 0; part < plan.particles; ++part)
      if ((n[1] >> part) & 1)
        for (int mu = 0; mu < 4; ++mu) k[mu] += event.ext[2 * part].k[mu];
    if (n[0] == flow_column || n[0] == flow_row) {
      const double mass = n[2] ? quark.mass : 0.0;
      event.denominator[i] = T(square(k) - D(mass * mass));
    } else {
      event.denominator[i] = T(D(1.0) / square(k));
    }
  }
}

// Node `node`'s current with its momentum, as the vertices take it.
template <class T, int Particles, int Nodes>
KOKKOS_INLINE_FUNCTION Wave<T> node_wave(const ColourFlowEvent<T, Particles, Nodes>& event,
                                         const cplx<T>* value, int node) {
  Wave<T> w;
  for (int mu = 0; mu < 4; ++mu) {
    w.c[mu] = value[4 * node + mu];
    w.k[mu] = event.k[4 * node + mu];
  }
  return w;
}

// The particles (bit p for particle p) whose helicity differs between two
// combinations of MadGraph's numbering (process.hpp, helicity: particle p is
// bit particles - 1 - p of the combination).
KOKKOS_INLINE_FUNCTION unsigned changed_particles(int combination, int previous, int particles) {
  const int differ = combination ^ previous;
  unsigned changed = 0;
  for (int part = 0; part < particles; ++part)
    if ((differ >> (particles - 1 - part)) & 1) changed |= 1u << part;
  return changed;
}
inline constexpr unsigned all_particles_changed = ~0u;

// An order of the good helicity combinations (indices into good[count]) in
// which consecutive combinations change few currents (colour_flow_jamps'
// `changed`): greedy, each next the one whose changed particles touch the
// fewest vertex terms, from good[0]. MadGraph's own order varies the last
// particles fastest, which are in most currents (uux_ttxgg over all 64
// combinations: 83% of the terms formed again per combination); this order
// varies first the particles in few currents, the closing top in none (25%).
// Host only, once per set of good helicities.
inline std::vector<int> colour_flow_helicity_order(const ColourFlowPlan& plan, const int* good,
                                                   int count) {
  const auto cost = [&](int a, int b) {
    const unsigned changed = changed_particles(good[a], good[b], plan.particles);
    long terms = 0;
    for (int i = 0; i < plan.nodes; ++i)
      if (unsigned(plan.node[5 * i + 1]) & changed) terms += 1 + plan.node[5 * i + 4];
    return terms;
  };
  std::vector<int> order;
  std::vector<bool> taken(std::size_t(count), false);
  for (int next = count > 0 ? 0 : -1; next >= 0;) {
    order.push_back(next);
    taken[next] = true;
    const int from = next;
    next = -1;
    long best = 0;
    for (int b = 0; b < count; ++b) {
      if (taken[b]) continue;
      const long c = cost(from, b);
      if (next < 0 || c < best) next = b, best = c;
    }
  }
  return order;
}

// Adds factor * s to a current's sum (4 components).
template <class T>
KOKKOS_INLINE_FUNCTION void add_scaled(double factor, const cplx<T>* s, cplx<T>* sum) {
  for (int mu = 0; mu < 4; ++mu) sum[mu] += T(factor) * s[mu];
}

// One term of the plan (kind, nodes a, b, c; colour_flow_plan.py) times its
// factor added to its sum: the three- or four-gluon numerator (into `three`,
// `four`), a quark pair's current or a fermion current times a gluon or
// singlet current (into `pair`). A sum the kind does not feed is not read
// (it may be null). Each sum is named in its own branch (no pointer chosen
// at run time), so that a device kernel keeps the sums in registers; the
// factor is 1 for most terms.
template <class T, int Particles, int Nodes>
KOKKOS_INLINE_FUNCTION void add_flow_term(int kind, int a, int b, int c, double factor,
                                          const ColourFlowEvent<T, Particles, Nodes>& event,
                                          const cplx<T>* value, cplx<T>* three, cplx<T>* four,
                                          cplx<T>* pair) {
  switch (kind) {
    case flow_pair: add_pair_current(value + 4 * b, value + 4 * a, T(factor), pair); return;
    case flow_vvv: {
      if (factor == 1.0) {
        add_vvv_numerator(node_wave(event, value, a), node_wave(event, value, b), three);
        return;
      }
      cplx<T> s[4] = {};
      add_vvv_numerator(node_wave(event, value, a), node_wave(event, value, b), s);
      add_scaled(factor, s, three);
      return;
    }
    case flow_vvvv: {
      if (factor == 1.0) {
        add_vvvv_numerator(value + 4 * a, value + 4 * b, value + 4 * c, four);
        return;
      }
      cplx<T> s[4] = {};
      add_vvvv_numerator(value + 4 * a, value + 4 * b, value + 4 * c, s);
      add_scaled(factor, s, four);
      return;
    }
    case flow_attach_row: {  // psibar gamma.J
      if (factor == 1.0) {
        add_times_gamma(value + 4 * b, value + 4 * a, pair);
        return;
      }
      cplx<T> s[4] = {};
      add_times_gamma(value + 4 * b, value + 4 * a, s);
      add_scaled(factor, s, pair);
      return;
    }
    default: {  // attach: gamma.J psi
      if (factor == 1.0) {
        add_gamma_times(value + 4 * a, value + 4 * b, pair);
        return;
      }
      cplx<T> s[4] = {};
      add_gamma_times(value + 4 * a, value + 4 * b, s);
      add_scaled(factor, s, pair);
      return;
    }
  }
}

// Which sums a node's terms feed (add_flow_term), for finish_flow_current:
// the plan executor passes all; the generated code (<process>_flow_code.hpp)
// only those its terms use, so that no empty sum is multiplied.
enum ColourFlowSums : unsigned {
  flow_sum_three = 1,
  flow_sum_four = 2,
  flow_sum_pair = 4,
  flow_all_sums = 7
};

// A current of kind `kind` (for a fermion current, top_line: whether it is
// the top line) from its sums, with its outgoing momentum k and its
// propagator's denominator (ColourFlowEvent's): the propagator of a top or
// massless quark line (pair), or the gluon's or singlet's (GC_10 VVV +
// GC_12 VVVV + G pair) / P^2, summed left to right over the sums in Sums.
template <unsigned Sums = flow_all_sums, class T, class K>
KOKKOS_INLINE_FUNCTION void finish_current(int kind, int top_line, const K* k, T denominator,
                                           const TopQuark& quark, const cplx<T>* three,
                                           const cplx<T>* four, const cplx<T>* pair, cplx<T>* out) {
  if (kind == flow_column || kind == flow_row) {
    const cplx<T> gc11(T(0), T(gc11_im));
    FermionLine<T, K> line;
    for (int mu = 0; mu < 4; ++mu) line.k[mu] = k[mu];
    line.virtuality = denominator;
    const TopTerms<T> terms{T(top_line ? quark.mass : 0.0),
                            T(top_line ? quark.mass * quark.width : 0.0)};
    if (kind == flow_column) {
      fermion_propagator(line, terms, gc11, pair, out);
    } else {
      row_propagator(line, terms, gc11, pair, out);
    }
    return;
  }
  for (int mu = 0; mu < 4; ++mu) {
    cplx<T> sum(T(0));
    if constexpr ((Sums & flow_sum_three) != 0) sum = three[mu] * T(gc10_re);
    if constexpr ((Sums & flow_sum_four) != 0) {
      sum = (Sums & flow_sum_three) != 0 ? sum + four[mu] * T(gc12_im) : four[mu] * T(gc12_im);
    }
    if constexpr ((Sums & flow_sum_pair) != 0) {
      sum = (Sums & (flow_sum_three | flow_sum_four)) != 0 ? sum + pair[mu] * T(strong_coupling)
                                                           : pair[mu] * T(strong_coupling);
    }
    out[mu] = sum * denominator;
  }
}

// Node i's current from its sums (finish_current with the node's momentum
// and denominator as the event holds them).
template <unsigned Sums = flow_all_sums, class T, int Particles, int Nodes>
KOKKOS_INLINE_FUNCTION void finish_flow_current(int kind, int top_line, int i,
                                                const ColourFlowEvent<T, Particles, Nodes>& event,
                                                const TopQuark& quark, const cplx<T>* three,
                                                const cplx<T>* four, const cplx<T>* pair,
                                                cplx<T>* out) {
  finish_current<Sums>(kind, top_line, event.k + 4 * i, event.denominator[i], quark, three, four,
                       pair, out);
}

// An external particle's current: its wavefunction at the chosen helicity
// (chosen = 2 part + (helicity > 0), the index into event.ext).
template <class T, int Particles, int Nodes>
KOKKOS_INLINE_FUNCTION void set_external_current(const ColourFlowEvent<T, Particles, Nodes>& event,
                                                 int chosen, cplx<T>* out) {
  for (int mu = 0; mu < 4; ++mu) out[mu] = event.ext[chosen].c[mu];
}

// One amplitude, closed on the row spinor of the closing top: FFV1_0 =
// -i GC_11 (...) = G ubar gamma.J psi, J the gluon or singlet current and
// psi the column current.
template <class T>
KOKKOS_INLINE_FUNCTION cplx<T> flow_amplitude(const cplx<T>* row, const cplx<T>* gluon,
                                              const cplx<T>* column) {
  return T(strong_coupling) * ffv_sandwich(column, row, gluon);
}

// jamps[jamp] += term. With Colours > 0 (a device kernel, Colours the
// process's count) through a loop over the colours known at compile time,
// so that the jamps stay in registers: an index known only at run time puts
// them in the thread's local memory, which on a GPU is off the chip.
template <int Colours, class T>
KOKKOS_INLINE_FUNCTION void add_to_jamp(cplx<T>* jamps, int jamp, const cplx<T>& term) {
  if constexpr (Colours > 0) {
    for (int c = 0; c < Colours; ++c)
      if (c == jamp) jamps[c] += term;
  } else {
    jamps[jamp] += term;
  }
}

// The jamps of one event (prepared) at one helicity combination, by
// executing the plan: helicity(particle) in MadGraph's convention, `value`
// scratch of 4 Nodes complex numbers; jamps[colours] are overwritten.
// RegisterColours: the colours at compile time for a device kernel
// (add_to_jamp), else 0. Each process's plan is also written out as code
// (generated/<process>_flow_code.hpp, ColourFlow<P>::jamps), the same steps
// with every index known at compile time, which the kernels call; this
// executor is its reference in the tests.
//
// A current depends only on the helicities of its own particles, so `value`
// may keep the currents of this event's previous combination: `changed` has
// bit p set where particle p's helicity differs from that combination
// (changed_particles), and only the currents with one of those particles
// are formed again (all_particles_changed: every current, as for an event's
// first combination).
template <int RegisterColours = 0, class T, int Particles, int Nodes, class Helicity>
KOKKOS_INLINE_FUNCTION void colour_flow_jamps(const ColourFlowPlan& plan,
                                              const ColourFlowEvent<T, Particles, Nodes>& event,
                                              const Helicity& helicity, unsigned changed,
                                              const TopQuark& quark, int colours, cplx<T>* value,
                                              cplx<T>* jamps) {
  int chosen[Particles];
  for (int part = 0; part < plan.particles; ++part) chosen[part] = 2 * part + (helicity(part) > 0);
  for (int i = 0; i < plan.nodes; ++i) {
    const int* n = plan.node + 5 * i;
    if ((unsigned(n[1]) & changed) == 0) continue;
    cplx<T>* out = value + 4 * i;
    if (n[0] == flow_external_gluon || n[0] == flow_external_column || n[0] == flow_external_row) {
      set_external_current(event, chosen[n[2]], out);
      continue;
    }
    cplx<T> three[4] = {}, four[4] = {}, pair[4] = {};
    for (int t = n[3]; t < n[3] + n[4]; ++t) {
      const int* term = plan.term + 4 * t;
      add_flow_term(term[0], term[1], term[2], term[3], plan.term_factor[t], event, value, three,
                    four, pair);
    }
    finish_flow_current(n[0], n[2], i, event, quark, three, four, pair, out);
  }
  for (int c = 0; c < colours; ++c) jamps[c] = cplx<T>(T(0));
  const cplx<T>* row = event.ext[chosen[plan.closing]].c;
  cplx<T> amplitude;
  for (int k = 0; k < plan.closes; ++k) {
    const int* close = plan.close + 3 * k;
    if (k == 0 || close[1] != close[-2] || close[2] != close[-1]) {
      amplitude = flow_amplitude(row, value + 4 * close[1], value + 4 * close[2]);
    }
    add_to_jamp<RegisterColours>(jamps, close[0], T(plan.close_factor[k]) * amplitude);
  }
}

}  // namespace hepex::amplitudes::detail
