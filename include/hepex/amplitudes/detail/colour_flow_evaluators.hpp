#pragma once
// The colour-flow family's evaluator: every subprocess with quark lines
// (colour_flow_recursion.hpp), one thread per event on any execution space,
// the helicities summed in the thread (small plans: by groups of the top
// pair's combinations, top_pair_groups; large ones in colour_flow_helicity_
// order's order, keeping the currents the next combination shares), the
// colour sum with MadGraph's matrix,
// and the event's choices (gs, helicity, colour flow; event_choices.hpp).
// The registry (generated/process_table.hpp) names
// make_colour_flow_evaluator<P> for each of the family's processes.
//
// On the host, where the build has lanes and the colour sum is the kernel's,
// the factory builds the SIMD lane evaluator (colour_flow_lane_kernel.hpp)
// instead. The portable kernel has no teams on the device yet (the top-line
// family's has). Small plans run as generated code, a pass per antitop
// helicity with every current a local variable (colour_flow_top_pairs.hpp);
// large ones from their tables, the plan's currents in the thread's own
// arrays, sized by the process at compile time (plan_as_code).

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "hepex/amplitudes/detail/colour_flow_recursion.hpp"
#include "hepex/amplitudes/detail/colour_flow_top_pairs.hpp"
#include "hepex/amplitudes/detail/evaluator.hpp"
#include "hepex/amplitudes/detail/event_choices.hpp"
#include "hepex/amplitudes/detail/generated/colour_flow.hpp"
#include "hepex/amplitudes/detail/lane_evaluator.hpp"
#include "hepex/amplitudes/detail/process_registry.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/config.hpp"
#include "hepex/core/error.hpp"

namespace hepex::amplitudes::detail {

// A View holding a host array, in memory space Memory.
template <class Memory, class T>
Kokkos::View<T*, Memory> device_copy(const char* label, const T* data, int count) {
  Kokkos::View<T*, Memory> view(std::string(label), static_cast<std::size_t>(count));
  auto host = Kokkos::create_mirror_view(view);
  for (int i = 0; i < count; ++i) host(i) = data[i];
  Kokkos::deep_copy(view, host);
  return view;
}

template <class ExecSpace, Process P, class AmpReal, class ColourReal>
class ColourFlowEvaluator : public Evaluator<ExecSpace> {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Flow = generated::ColourFlow<P>;
  static constexpr int particles = Flow::particles;
  static constexpr int colours = Flow::colours;
  static constexpr int nodes = Flow::nodes;
  // Each helicity's jamps from the plan written out as code (ColourFlow<P>::
  // jamps, generated/<process>_flow_code.hpp), or by executing the plan's
  // tables (colour_flow_jamps). Measured on the H200 in double (perf/results/
  // amplitudes/README.md): the code ran the small plans (at most 26 terms:
  // the 4-quark and 0-1 jet subprocesses) 1.7-2.0x faster (uu_ttxuu 3.55e7
  // -> 5.95e7 MEs/s, uc_ttxuc 1.07e8 -> 2.10e8) and the 77-term plans of the
  // 2-gluon subprocesses 11-18% slower (uux_ttxgg 2.06e7 -> 1.70e7): there
  // it takes all 255 registers and about 8 KB of stack per thread, against
  // the executor's 168 registers. Register caps (launch bounds of 256 x 2 or
  // 128 x 3 threads) made the code slower everywhere.
  // The small plans run a pass per light helicity combination that keeps
  // nothing between passes: the light currents once, then a loop over the
  // antitop's helicities (ColourFlow<P>::top_pair_jamps,
  // colour_flow_top_pairs.hpp): on the H200 uu_ttxuu 6.06e7 -> 7.86e7 MEs/s
  // with a pass per antitop helicity, uc_ttxuc 2.12e8 -> 2.44e8 -> 4.50e8
  // with the light currents once. (top_pair_code.py, small_plan, chooses: at
  // most 32 terms.) A process with two identical outgoing quarks runs its
  // partner's pass twice instead (exchanged_top_pair_jamps): half the code in
  // the kernel; uu_ttxuu 7.86e7 -> 1.05e8 MEs/s, then 1.54e8 with the light
  // currents once.
  static constexpr bool plan_as_code = Flow::top_pair_pass;
  // Executing the tables on a device, the jamps are summed into registers
  // (add_to_jamp).
  static constexpr int register_colours = std::is_same_v<Memory, Kokkos::HostSpace> ? 0 : colours;
  // The colour sum in double runs over the matrix's upper triangle, in
  // double weights converted once: on the H200 it took uux_ttxgg from 1.70e7
  // to 2.04e7 MEs/s (perf/results/amplitudes/README.md). In float (mixed and
  // single precision) the kernel keeps the whole integer matrix: there the
  // triangle in float weights measured slower (1.64e7 against 2.04e7 MEs/s
  // in mixed), for reasons not profiled.
  static constexpr bool triangle_sum = std::is_same_v<ColourReal, double>;

  ColourFlowEvaluator(const TopQuark& top, int coupling_power)
      : top_(top), coupling_power_(coupling_power) {
    const ColourFlowPlan host = Flow::plan();
    node_ = device_copy<Memory>("hepex::flow_node", host.node, 5 * host.nodes);
    const int terms = Flow::terms > 0 ? Flow::terms : 1;
    term_ = device_copy<Memory>("hepex::flow_term", host.term, 4 * terms);
    term_factor_ = device_copy<Memory>("hepex::flow_term_factor", host.term_factor, terms);
    close_ = device_copy<Memory>("hepex::flow_close", host.close, 3 * host.closes);
    close_factor_ = device_copy<Memory>("hepex::flow_close_factor", host.close_factor, host.closes);
    kind_ = device_copy<Memory>("hepex::flow_kind", host.kind, particles);
    top_flags_ = device_copy<Memory>("hepex::flow_top", host.top, particles);
    if constexpr (triangle_sum) {
      // The colour matrix's upper triangle, w_ii = CF_ii and w_ik = 2 CF_ik
      // (CF symmetric): small integers, exact.
      ColourReal triangle[colours * (colours + 1) / 2];
      for (int a = 0, at = 0; a < colours; ++a)
        for (int b = a; b < colours; ++b)
          triangle[at++] = ColourReal((a == b ? 1 : 2) * Flow::cf[a * colours + b]);
      triangle_ =
          device_copy<Memory>("hepex::flow_colour_triangle", triangle, colours * (colours + 1) / 2);
    } else {
      cf_ = device_copy<Memory>("hepex::flow_cf", Flow::cf, colours * colours);
    }
    plan_ = host;
    plan_.node = node_.data();
    plan_.term = term_.data();
    plan_.term_factor = term_factor_.data();
    plan_.close = close_.data();
    plan_.close_factor = close_factor_.data();
    plan_.kind = kind_.data();
    plan_.top = top_flags_.data();
    denominator_ = colour_matrix(P).denominator;
  }

  // One thread per event: every helicity of `good`, the colour sum, the sum
  // and the choices.
  struct Kernel {
    MomentaView<Memory> momenta;
    ColourFlowPlan plan;
    Kokkos::View<const int*, Memory> good;
    Kokkos::View<const int*, Memory> order;            // colour_flow_helicity_order of good
    Kokkos::View<const int*, Memory> groups;           // plan_as_code: top_pair_groups of good
    Kokkos::View<const ColourReal*, Memory> triangle;  // triangle_sum: CF's, row by row
    Kokkos::View<const int*, Memory> cf;               // else CF
    Kokkos::View<double*, Memory> me;
    TopQuark top;
    unsigned reversed;
    double denominator;
    double scale;
    int coupling_power;
    EventChoices choices;

    struct EventMomenta {
      const MomentaView<Memory>* momenta;
      int e;
      KOKKOS_INLINE_FUNCTION double operator()(int part, int mu) const {
        return (*momenta)(e, part, mu);
      }
    };
    // MadGraph's helicity of a particle in a combination (process.hpp, helicity).
    struct Helicities {
      int combination;
      unsigned reversed;
      KOKKOS_INLINE_FUNCTION int operator()(int part) const {
        const int value = (combination >> (particles - 1 - part)) & 1 ? 1 : -1;
        return (reversed >> part) & 1 ? -value : value;
      }
    };

    // |M|^2 of one helicity combination from its jamps, summed over the
    // colours in ColourReal: sum_ij Re(conj(J_i) CF_ij J_j) / denominator;
    // triangle_sum: over the triangle (triangle_colour_sum.hpp),
    // sum_i Re(conj(J_i) z_i) with z_i = sum_{k >= i} w_ik J_k. Adds each
    // |J_i|^2 to jamp2 (the colour choice's weights).
    KOKKOS_INLINE_FUNCTION double colour_sum(const cplx<AmpReal>* jamps, double* jamp2) const {
      ColourReal total = 0;
      for (int a = 0, at = 0; a < colours; ++a) {
        const cplx<ColourReal> ja(ColourReal(jamps[a].re), ColourReal(jamps[a].im));
        cplx<ColourReal> row(ColourReal(0));
        if constexpr (triangle_sum) {
          for (int b = a; b < colours; ++b) {
            const cplx<ColourReal> jb(ColourReal(jamps[b].re), ColourReal(jamps[b].im));
            row += triangle(at++) * jb;
          }
        } else {
          for (int b = 0; b < colours; ++b) {
            const cplx<ColourReal> jb(ColourReal(jamps[b].re), ColourReal(jamps[b].im));
            row += ColourReal(cf(a * colours + b)) * jb;
          }
        }
        total += ja.re * row.re + ja.im * row.im;
        jamp2[a] += double(ja.re) * double(ja.re) + double(ja.im) * double(ja.im);
      }
      return double(total) / denominator;
    }

    // Every good combination's |M|^2 into helicity_me (indexed as good);
    // returns their sum.
    KOKKOS_INLINE_FUNCTION double helicity_sum(int e, double* helicity_me, double* jamp2) const {
      double sum = 0;
      if constexpr (plan_as_code) {
        // By groups of the top pair's four combinations (top_pair_groups).
        const int count = static_cast<int>(groups.extent(0)) / 5;
        for (int g = 0; g < count; ++g) {
          const int light = groups(5 * g);
          int helicity[particles];
          for (int part = 0; part < particles; ++part)
            helicity[part] = Helicities{light, reversed}(part);
          const int a_bit = 1 << (particles - 1 - Flow::antitop);
          const int c_bit = 1 << (particles - 1 - plan.closing);
          const int top_helicity[2] = {Helicities{light, reversed}(plan.closing),
                                       Helicities{light | c_bit, reversed}(plan.closing)};
          const int antitops[2] = {Helicities{light, reversed}(Flow::antitop),
                                   Helicities{light | a_bit, reversed}(Flow::antitop)};
          const unsigned wanted = (groups(5 * g + 1) >= 0 || groups(5 * g + 2) >= 0 ? 1u : 0u) |
                                  (groups(5 * g + 3) >= 0 || groups(5 * g + 4) >= 0 ? 2u : 0u);
          // Written out, so that jamps is indexed by constants only.
          const auto sink = [&](int a, const cplx<AmpReal>(*jamps)[colours]) {
            const int slot[2] = {groups(5 * g + 1 + 2 * a), groups(5 * g + 2 + 2 * a)};
            if (slot[0] >= 0) sum += helicity_me[slot[0]] = colour_sum(jamps[0], jamp2);
            if (slot[1] >= 0) sum += helicity_me[slot[1]] = colour_sum(jamps[1], jamp2);
          };
          if constexpr (Flow::exchanged) {
            exchanged_top_pair_jamps<Flow, generated::ColourFlow<Flow::partner>, AmpReal>(
                EventMomenta{&momenta, e}, helicity, antitops, wanted, top_helicity, top, sink);
          } else {
            Flow::template top_pair_jamps<AmpReal>(EventMomenta{&momenta, e}, helicity, antitops,
                                                   wanted, top_helicity, top, sink);
          }
        }
      } else {
        ColourFlowEvent<AmpReal, particles, nodes> event;
        cplx<AmpReal> value[4 * nodes];
        cplx<AmpReal> jamps[colours];
        prepare_colour_flow_event(plan, EventMomenta{&momenta, e}, top, event);
        const int count = static_cast<int>(good.extent(0));
        for (int k = 0; k < count; ++k) {
          const int i = order(k);
          const unsigned changed = k == 0
                                       ? all_particles_changed
                                       : changed_particles(good(i), good(order(k - 1)), particles);
          colour_flow_jamps<register_colours>(plan, event, Helicities{good(i), reversed}, changed,
                                              top, colours, value, jamps);
          helicity_me[i] = colour_sum(jamps, jamp2);
          sum += helicity_me[i];
        }
      }
      return sum;
    }

    KOKKOS_INLINE_FUNCTION void operator()(int e) const {
      double helicity_me[1 << particles];
      double jamp2[colours];
      for (int c = 0; c < colours; ++c) jamp2[c] = 0;
      const int count = static_cast<int>(good.extent(0));
      const double sum = helicity_sum(e, helicity_me, jamp2);
      me(e) = choices.gs == nullptr ? sum / scale
                                    : sum / scale * coupling_factor(choices.gs[e], coupling_power);
      if (choices.rndhel != nullptr) {
        const int i = first_cumulative_above(count, choices.rndhel[e],
                                             [&](int slot) { return helicity_me[slot]; });
        choices.selhel[e] = i < 0 ? 0 : good(i) + 1;
      }
      if (choices.rndcol != nullptr) {
        choices.selcol[e] =
            choose_colour(choices, colours, e, [&](int flow) { return jamp2[flow]; });
      }
    }
  };

  void run(const std::vector<ExecSpace>& streams, const MomentaView<Memory>& momenta,
           const std::vector<int>& helicities, const Kokkos::View<double*, Memory>& me,
           double scale, const EventChoices& choices) override {
    if (helicities != helicities_) {
      helicities_ = helicities;
      const int count = static_cast<int>(helicities.size());
      good_ = device_copy<Memory>("hepex::flow_good", helicities.data(), count);
      if constexpr (plan_as_code) {
        const std::vector<int> groups = top_pair_groups(
            particles, Flow::antitop, Flow::plan().closing, helicities.data(), count);
        groups_ = device_copy<Memory>("hepex::flow_top_pair_groups", groups.data(),
                                      static_cast<int>(groups.size()));
      } else {
        const std::vector<int> order =
            colour_flow_helicity_order(Flow::plan(), helicities.data(), count);
        order_ = device_copy<Memory>("hepex::flow_order", order.data(), count);
      }
    }
    const int events = static_cast<int>(momenta.extent(0));
    const Kernel kernel{momenta,
                        plan_,
                        good_,
                        order_,
                        groups_,
                        triangle_,
                        cf_,
                        me,
                        top_,
                        process_info(P).reversed_helicities,
                        double(denominator_),
                        scale,
                        coupling_power_,
                        choices};
    Kokkos::parallel_for("hepex::me_colour_flow",
                         Kokkos::RangePolicy<ExecSpace>(streams.front(), 0, events), kernel);
  }

 private:
  TopQuark top_;
  int coupling_power_;
  int denominator_ = 1;
  ColourFlowPlan plan_;
  Kokkos::View<int*, Memory> node_, term_, close_, kind_, top_flags_, cf_;
  Kokkos::View<ColourReal*, Memory> triangle_;
  Kokkos::View<double*, Memory> term_factor_, close_factor_;
  std::vector<int> helicities_;
  Kokkos::View<int*, Memory> good_, order_, groups_;
};

template <Process P>
std::unique_ptr<Evaluator<DeviceSpace>> make_colour_flow_evaluator(Process process,
                                                                   const MatrixElementOptions& o) {
  const ProcessInfo& info = process_info(process);
  if (o.colour_sum != ColourSumMethod::kernel) {
    throw Error(std::string(info.name) + " (" + info.madgraph +
                "): the colour-flow family sums colours in its own kernel; the BLAS colour "
                "sum is the top-line family's (g g > t t~ + gluons)");
  }
  const TopQuark top{o.parameters.top_mass, o.parameters.top_width};
#if HEPEX_HAS_ME_LANES
  if (uses_lane_kernel(o)) {
    return std::make_unique<LaneEvaluator<DeviceSpace>>(
        process, top, lane_kernel(o.simd, process, o.precision), false,
        [](const std::vector<int>& good) {
          return colour_flow_helicity_order(generated::ColourFlow<P>::plan(), good.data(),
                                            static_cast<int>(good.size()));
        });
  }
#endif
  switch (o.precision) {
    case Precision::double_precision:
      return std::make_unique<ColourFlowEvaluator<DeviceSpace, P, double, double>>(
          top, info.coupling_power);
    case Precision::single_precision:
      return std::make_unique<ColourFlowEvaluator<DeviceSpace, P, float, float>>(
          top, info.coupling_power);
    case Precision::mixed:
      return std::make_unique<ColourFlowEvaluator<DeviceSpace, P, double, float>>(
          top, info.coupling_power);
  }
  throw Error("unknown precision", ErrorKind::runtime);
}

}  // namespace hepex::amplitudes::detail
