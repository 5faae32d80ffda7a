#pragma once
// The colour-flow family's host ME kernel: one call computes a pack of
// events in SIMD lanes (detail/lanes.hpp), every good helicity in turn (in
// the order of colour_flow_helicity_order, keeping the currents that the
// next combination shares), by
// the process's plan written out as code (ColourFlow<P>::jamps, the steps of
// colour_flow_recursion.hpp's executor) over Lanes instead of scalars: the
// plan is the same for every event, so each step of it is one SIMD
// operation across the pack. On one core the code ran 10-30% faster than
// executing the tables (perf/results/amplitudes/README.md), large plans
// included. The colour sum is
// MadGraph's matrix over the jamps, in ColourReal lanes, as the portable
// kernel forms it (colour_flow_evaluators.hpp). Included only by the
// per-instruction-set translation units (src/amplitudes/lane_kernel_*.cpp),
// through lane_kernel.hpp: everything here is a template on their
// unnamed-namespace Tag.
//
// The scratch of one pack holds the event's prepared parts, the currents of
// one helicity, the jamps, and per lane |M|^2 per good helicity and jamp2 per
// colour flow for the choices (event_choices.hpp); uux_ttxgg in double with 8
// lanes: 45 nodes, about 40 KB. Partial packs repeat their last event in the
// spare lanes (Lanes::load) and store only the real ones.

#include <cstddef>

#include "hepex/amplitudes/detail/colour_flow_recursion.hpp"
#include "hepex/amplitudes/detail/event_choices.hpp"
#include "hepex/amplitudes/detail/generated/colour_flow.hpp"
#include "hepex/amplitudes/detail/lane_task.hpp"
#include "hepex/amplitudes/detail/lanes.hpp"

namespace hepex::amplitudes::detail {

template <Process P, class AmpReal, class ColourReal>
struct ColourFlowLaneKernelOf {
  using D = Doubles<AmpReal>;
  using Flow = generated::ColourFlow<P>;
  static constexpr int lanes = AmpReal::lanes;
  static constexpr int particles = Flow::particles;
  static constexpr int colours = Flow::colours;
  static constexpr int nodes = Flow::nodes;
  static constexpr int helicities = 1 << particles;
  static_assert(ColourReal::lanes == lanes, "amplitudes and colour sum in the same lanes");

  // The scratch of one pack; a plain layout of trivially copyable lanes,
  // placed at the start of the (aligned) scratch without construction, as
  // lane_kernel.hpp does with its arrays.
  struct Scratch {
    ColourFlowEvent<AmpReal, particles, nodes> event;
    cplx<AmpReal> value[4 * nodes];
    cplx<AmpReal> jamps[colours];
    D helicity_me[helicities];  // per good helicity (slot), for the choice
    D jamp2[colours];
  };

  // Momentum component mu of particle `part`, the pack's lanes.
  struct PackMomenta {
    const LaneTask* task;
    std::size_t first;
    int here;
    D operator()(int part, int mu) const {
      return D::load(task->momenta + first + task->stride_particle * part + task->stride_mu * mu,
                     here);
    }
  };
  // MadGraph's helicity of a particle in a combination (process.hpp, helicity).
  struct Helicities {
    int combination;
    unsigned reversed;
    int operator()(int part) const {
      const int value = (combination >> (particles - 1 - part)) & 1 ? 1 : -1;
      return (reversed >> part) & 1 ? -value : value;
    }
  };

  static void run(const LaneTask& task, std::size_t pack, void* scratch) {
    const std::size_t first = pack * lanes;
    const int here = static_cast<int>(
        task.events - first < std::size_t(lanes) ? task.events - first : std::size_t(lanes));
    Scratch& s = *static_cast<Scratch*>(scratch);
    const ColourFlowPlan plan = Flow::plan();
    prepare_colour_flow_event(plan, PackMomenta{&task, first, here}, task.top, s.event);
    const EventChoices& choices = task.choices;
    for (int c = 0; c < colours; ++c) s.jamp2[c] = D(0);
    D sum = D(0);
    for (int k = 0; k < task.good_count; ++k) {
      const int i = task.order[k];
      const unsigned changed =
          k == 0 ? all_particles_changed
                 : changed_particles(task.good[i], task.good[task.order[k - 1]], particles);
      Flow::jamps(s.event, Helicities{task.good[i], task.reversed}, changed, task.top, s.value,
                  s.jamps);
      // |M|^2 = sum_ab Re(conj(J_a) CF_ab J_b) / denominator, in ColourReal.
      ColourReal total = ColourReal(0);
      for (int a = 0; a < colours; ++a) {
        const cplx<ColourReal> ja(ColourReal(s.jamps[a].re), ColourReal(s.jamps[a].im));
        cplx<ColourReal> row(ColourReal(0));
        for (int b = 0; b < colours; ++b) {
          const cplx<ColourReal> jb(ColourReal(s.jamps[b].re), ColourReal(s.jamps[b].im));
          row += ColourReal(Flow::cf[a * colours + b]) * jb;
        }
        total += ja.re * row.re + ja.im * row.im;
        s.jamp2[a] += D(ja.re) * D(ja.re) + D(ja.im) * D(ja.im);
      }
      s.helicity_me[i] = D(total) / D(task.denominator);
      sum += s.helicity_me[i];
    }
    (sum / D(task.scale)).store(task.me + first, here);
    if (choices.any()) choose(task, first, here, s);
  }

  // The per-event coupling and choices of the pack's `here` events, lane by
  // lane, from the sums in scratch.
  static void choose(const LaneTask& task, std::size_t first, int here, const Scratch& s) {
    const EventChoices& choices = task.choices;
    for (int lane = 0; lane < here; ++lane) {
      const std::size_t e = first + lane;
      if (choices.gs != nullptr) task.me[e] *= coupling_factor(choices.gs[e], task.coupling_power);
      if (choices.rndhel != nullptr) {
        const int i = first_cumulative_above(task.good_count, choices.rndhel[e],
                                             [&](int slot) { return s.helicity_me[slot].v[lane]; });
        choices.selhel[e] = i < 0 ? 0 : task.good[i] + 1;
      }
      if (choices.rndcol != nullptr) {
        choices.selcol[e] =
            choose_colour(choices, colours, e, [&](int flow) { return s.jamp2[flow].v[lane]; });
      }
    }
  }

  static LaneKernel kernel() { return {&run, lanes, sizeof(Scratch)}; }
};

// of(std::integral_constant<Process, P>) for the P of the family equal to
// `process` (none: a kernel without a run function, which LaneEvaluator
// refuses).
template <class Of, std::size_t... I>
LaneKernel kernel_for_colour_flow(Process process, const Of& of, std::index_sequence<I...>) {
  using generated::colour_flow_processes;
  LaneKernel kernel{};
  ((process == colour_flow_processes[I]
        ? (void)(kernel = of(std::integral_constant<Process, colour_flow_processes[I]>()))
        : (void)0),
   ...);
  return kernel;
}

}  // namespace hepex::amplitudes::detail
