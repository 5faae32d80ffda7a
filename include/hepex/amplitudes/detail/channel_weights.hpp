#pragma once
// MadEvent's multichannel weights (matrix_element.hpp, EventInputs::channel).
//
// MadEvent integrates each channel (an integration configuration, iconfig,
// of the process's configs.inc) on its own, with a phase-space map peaked
// where that configuration's propagators are, and asks the matrix element
// for |M|^2 times the channel's share w_ch of a partition of unity over the
// channels (single-diagram enhancement; sum over channels of w_ch = 1, so
// the sum of the channels' integrals is the cross section whatever the
// shares). MadGraph has two partitions: its default (sde_strategy 1),
// |A_ch|^2 / sum_i |A_i|^2 over the squared Feynman diagrams, and
// sde_strategy 2, the product of the configuration's propagator
// denominators over the same product's sum over all configurations
// (MadGraph's genps.f, get_channel_cut; Mattelaer and Ostrolenk,
// arXiv:2102.00773). hepex's Berends-Giele recursion never forms single
// Feynman diagrams, so it gives the second (docs/madevent.md), exactly as
// MadGraph's Fortran computes it:
//   G_c(p) = prod over the configuration's propagators j of
//            1 / (t_j - M_j^2 + 1e-10 stot)^2              (t-channel)
//            1 / ((s_j - M_j^2)^2 + (M_j Gamma_j)^2)         (s-channel)
//            [times exp((x - tmin) / (x + 1)) for a t-channel x = t_j / stot
//             below tmin_for_channel, the run card's option; -1: never]
//   w_ch = G_c(ch)(p) / sum_c G_c(p),
// with the propagator momenta summed from the external ones (incoming
// subtracted) along the configuration's tree.
//
// The tables (channel_tables.hpp) give per configuration its diagram (the
// channel id MadEvent passes, CONFSUB) and its first particles - 3
// propagators (the ones get_channel_cut reads).
//
// Most propagators recur in many configurations (gg_ttggg: 3780 in its 945
// configurations, 691 distinct), so on the host each distinct one, a node,
// is computed once per event (channel_weight_by_nodes); two propagators
// share a node only where their momenta are summed by the same additions in
// the same order and they have the same flags, so every G_c is bit for bit
// the per-configuration one (configuration_weight, kept for the GPU, whose
// threads cannot hold every node in registers).

#include <cstddef>

#include <Kokkos_Core.hpp>

#include "hepex/amplitudes/momenta.hpp"
#include "hepex/amplitudes/process.hpp"
#include "hepex/core/kokkos_math.hpp"
#include "hepex/core/spaces.hpp"

namespace hepex::amplitudes::detail {

// One process's channels, host or device pointers alike.
struct ChannelTable {
  const short* config_diagram = nullptr;  // [configurations]: the diagram (channel id)
  const signed char* forest = nullptr;    // [configurations][propagators][d1, d2, flags]
  int configurations = 0;
  int propagators = 0;  // particles - 3
  int diagrams = 0;     // channel ids run 1..diagrams (those with a configuration)
  // The forest with equal propagators merged (above): node n is
  // nodes[3n..3n+2] = d1, d2 (> 0: external particle, < 0: node -d - 1, an
  // earlier one), flags; config_nodes[c * propagators + i] is propagator
  // -(i + 1)'s node in configuration c.
  const short* nodes = nullptr;
  const short* config_nodes = nullptr;
  int node_count = 0;
};
// most_channel_nodes (generated/process_list.hpp): the most nodes of any
// process (channel_table checks it).
inline constexpr int t_channel_flag = 1, top_mass_flag = 2, top_width_flag = 4;

// The process's tables in host memory (channel_tables.hpp).
ChannelTable channel_table(Process process);

// The configuration (1-based iconfig) whose diagram is `channel`, or 0 if
// the diagram has none (a four-gluon vertex, no MadEvent channel).
int channel_configuration(const ChannelTable& table, int channel);

// What a channel weight needs besides the tables: the top's mass and width,
// the collider's s (stot of MadEvent's run: the 1e-10 stot regulator of
// the t-channel denominators) and tmin_for_channel (-1: no t cut).
struct ChannelConstants {
  double mass = 0, width = 0, stot = 0, tmin = -1;
};

// A propagator's momentum q = (sum of its two daughters), each daughter an
// earlier propagator (d < 0: q_of[-d - 1]) or an external particle
// (incoming ones subtracted), summed from 0 in the forest's order, as
// get_channel_cut sums them.
template <class Momenta, class Earlier>
KOKKOS_INLINE_FUNCTION void propagator_momentum(const short (&daughters)[2], const Earlier& q_of,
                                                const Momenta& momenta, std::size_t e,
                                                double (&q)[4]) {
  for (int mu = 0; mu < 4; ++mu) q[mu] = 0;
  for (int d = 0; d < 2; ++d) {
    const int daughter = daughters[d];
    for (int mu = 0; mu < 4; ++mu) {
      if (daughter < 0) {
        q[mu] += q_of[-daughter - 1][mu];
      } else if (daughter <= 2) {  // incoming: subtracted
        q[mu] -= momenta(e, daughter - 1, mu);
      } else {
        q[mu] += momenta(e, daughter - 1, mu);
      }
    }
  }
}

// What a propagator of momentum q does to G: G / denominator * cut, with
// cut = exp((x - tmin) / (x + 1)) for a t-channel one below the t cut and
// exactly 1 otherwise (so G * cut is G where get_channel_cut skips it).
struct PropagatorFactor {
  double denominator, cut;
};
KOKKOS_INLINE_FUNCTION PropagatorFactor propagator_factor(const double (&q)[4], int flags,
                                                          const ChannelConstants& k) {
  const double t = q[0] * q[0] - q[1] * q[1] - q[2] * q[2] - q[3] * q[3];
  const double mass = (flags & top_mass_flag) != 0 ? k.mass : 0.0;
  if ((flags & t_channel_flag) != 0) {
    const double off = t - mass * mass + k.stot * 1e-10;
    const double x = t / k.stot;  // read only for tmin > -1, where stot > 0
    return {off * off, k.tmin > -1 && x < k.tmin ? compat::exp((x - k.tmin) / (x + 1)) : 1.0};
  }
  const double width = (flags & top_width_flag) != 0 ? k.width : 0.0;
  const double off = t - mass * mass, mw = mass * width;
  return {off * off + mw * mw, 1.0};
}

// G_c(p) of configuration c (0-based) for event e of momenta(event,
// particle, mu), as genps.f's get_channel_cut (sde_strat 2) forms it.
template <class Momenta>
KOKKOS_INLINE_FUNCTION double configuration_weight(const ChannelTable& table,
                                                   const ChannelConstants& k,
                                                   const Momenta& momenta, std::size_t e, int c) {
  constexpr int most = 4;  // gg_ttggg: 7 particles, 4 propagators
  double q[most][4];
  double g = 1;
  for (int i = 0; i < table.propagators; ++i) {
    const signed char* node = table.forest + (c * table.propagators + i) * 3;
    propagator_momentum({node[0], node[1]}, q, momenta, e, q[i]);
    const PropagatorFactor f = propagator_factor(q[i], node[2], k);
    g = g / f.denominator;
    g = g * f.cut;
  }
  return g;
}

// w_ch for event e: G of the configuration `config` (1-based) over the sum
// of G over all configurations, each G computed on its own (the GPU's).
template <class Momenta>
KOKKOS_INLINE_FUNCTION double channel_weight(const ChannelTable& table, const ChannelConstants& k,
                                             const Momenta& momenta, std::size_t e, int config) {
  double total = 0, mine = 0;
  for (int c = 0; c < table.configurations; ++c) {
    const double g = configuration_weight(table, k, momenta, e, c);
    total += g;
    if (c == config - 1) mine = g;
  }
  return mine / total;
}

// The same w_ch, bit for bit, from the nodes (the host's): each distinct
// propagator's momentum, denominator and t cut once, then per configuration
// the same divisions and products in the same order as configuration_weight.
template <class Momenta>
KOKKOS_INLINE_FUNCTION double channel_weight_by_nodes(const ChannelTable& table,
                                                      const ChannelConstants& k,
                                                      const Momenta& momenta, std::size_t e,
                                                      int config) {
  double q[most_channel_nodes][4];
  PropagatorFactor factor[most_channel_nodes];
  for (int n = 0; n < table.node_count; ++n) {
    const short* node = table.nodes + 3 * n;
    propagator_momentum({node[0], node[1]}, q, momenta, e, q[n]);
    factor[n] = propagator_factor(q[n], node[2], k);
  }
  double total = 0, mine = 0;
  for (int c = 0; c < table.configurations; ++c) {
    double g = 1;
    for (int i = 0; i < table.propagators; ++i) {
      const PropagatorFactor& f = factor[table.config_nodes[c * table.propagators + i]];
      g = g / f.denominator;
      g = g * f.cut;
    }
    total += g;
    if (c == config - 1) mine = g;
  }
  return mine / total;
}

// Per event of momenta: weights(e) = w of channel(e)'s configuration (1
// for channel 0; `configuration` maps a diagram to its configuration) and,
// where colour_configuration is not empty, the configuration its colour
// comes from (igraph(e) where given and not 0, else the channel's); on
// `instance` (matrix_element.cpp).
void launch_channel_weights(
    const DeviceSpace& instance, const ChannelTable& table, const ChannelConstants& constants,
    const MomentaView<DeviceSpace::memory_space>& momenta,
    const Kokkos::View<const int*, DeviceSpace::memory_space>& channel,
    const Kokkos::View<const int*, DeviceSpace::memory_space>& igraph,
    const Kokkos::View<int*, DeviceSpace::memory_space>& configuration,
    const Kokkos::View<double*, DeviceSpace::memory_space>& weights,
    const Kokkos::View<int*, DeviceSpace::memory_space>& colour_configuration);
// me(e) *= weights(e) on `instance`.
void scale_by_weights(const DeviceSpace& instance,
                      const Kokkos::View<double*, DeviceSpace::memory_space>& me,
                      const Kokkos::View<double*, DeviceSpace::memory_space>& weights);

}  // namespace hepex::amplitudes::detail
