#pragma once
// The colour-flow family's evaluator: every subprocess with quark lines
// (colour_flow_recursion.hpp), one thread per event on any execution space,
// the helicities summed in the thread (in colour_flow_helicity_order's
// order, keeping the currents the next combination shares), the colour sum with MadGraph's matrix,
// and the event's choices (gs, helicity, colour flow; event_choices.hpp).
// The registry (generated/process_table.hpp) names
// make_colour_flow_evaluator<P> for each of the family's processes.
//
// On the host, where the build has lanes and the colour sum is the kernel's,
// the factory builds the SIMD lane evaluator (colour_flow_lane_kernel.hpp)
// instead. The portable kernel has no teams on the device yet (the top-line
// family's has); the plan's currents live in the thread's own arrays, sized
// by the process at compile time. Small plans run as generated code, large
// ones from their tables (plan_as_code).

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "hepex/amplitudes/detail/colour_flow_recursion.hpp"
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
  static constexpr bool plan_as_code = Flow::terms <= 32;
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

    KOKKOS_INLINE_FUNCTION void operator()(int e) const {
      ColourFlowEvent<AmpReal, particles, nodes> event;
      cplx<AmpReal> value[4 * nodes];
      cplx<AmpReal> jamps[colours];
      double helicity_me[1 << particles];
      double jamp2[colours];
      for (int c = 0; c < colours; ++c) jamp2[c] = 0;
      const int count = static_cast<int>(good.extent(0));
      prepare_colour_flow_event(plan, EventMomenta{&momenta, e}, top, event);
      double sum = 0;
      for (int k = 0; k < count; ++k) {
        const int i = order(k);
        const unsigned changed = k == 0 ? all_particles_changed
                                        : changed_particles(good(i), good(order(k - 1)), particles);
        if constexpr (plan_as_code) {
          Flow::jamps(event, Helicities{good(i), reversed}, changed, top, value, jamps);
        } else {
          colour_flow_jamps<register_colours>(plan, event, Helicities{good(i), reversed}, changed,
                                              top, colours, value, jamps);
        }
        // |M|^2 = sum_ij Re(conj(J_i) CF_ij J_j) / denominator, in ColourReal;
        // triangle_sum: over the triangle (triangle_colour_sum.hpp),
        // sum_i Re(conj(J_i) z_i) with z_i = sum_{k >= i} w_ik J_k.
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
        helicity_me[i] = double(total) / denominator;
        sum += helicity_me[i];
      }
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
      const std::vector<int> order =
          colour_flow_helicity_order(Flow::plan(), helicities.data(), count);
      order_ = device_copy<Memory>("hepex::flow_order", order.data(), count);
    }
    const int events = static_cast<int>(momenta.extent(0));
    const Kernel kernel{momenta,
                        plan_,
                        good_,
                        order_,
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
  Kokkos::View<int*, Memory> good_, order_;
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
