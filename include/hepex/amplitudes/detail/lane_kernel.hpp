#pragma once
// The host ME kernel: one call computes a pack of events in SIMD lanes, all
// helicity units in turn, with the recursion's steps of colour_ordered.hpp,
// the same source as the GPU kernel (detail/evaluator.hpp), over Lanes
// instead of scalars; the colour sum is host-shaped
// (detail/triangle_colour_sum.hpp). Included only by the
// per-instruction-set translation units (src/amplitudes/lane_kernel_*.cpp):
// everything here is a template on their unnamed-namespace Tag (lanes.hpp).
//
// The scratch of one pack holds the currents of one unit, lanes wide
// (gg_ttggg in double with 8 lanes: 340 KB, within a core's L2), and is
// reused by the next unit; the kinematics of the gluon subsets are tabulated
// once per pack (detail/subset_kinematics.hpp).
// Partial packs repeat their last event in the spare lanes (Lanes::load) and
// store only the real ones. The unit sums are added in unit order, as the
// GPU kernel does. Where the task asks for choices (event_choices.hpp), the
// pack also keeps |M|^2 per good helicity and jamp2 per colour flow in its
// scratch and chooses per event at the end; the per-event coupling scales
// the stored |M|^2.

#include <cstddef>
#include <iterator>
#include <utility>

#include "hepex/amplitudes/detail/colour_flow_lane_kernel.hpp"
#include "hepex/amplitudes/detail/colour_ordered.hpp"
#include "hepex/amplitudes/detail/generated/top_line_gluons.hpp"
#include "hepex/amplitudes/detail/helicity_units.hpp"
#include "hepex/amplitudes/detail/lane_task.hpp"
#include "hepex/amplitudes/detail/lanes.hpp"
#include "hepex/amplitudes/detail/subset_kinematics.hpp"
#include "hepex/amplitudes/detail/triangle_colour_sum.hpp"

namespace hepex::amplitudes::detail {

template <class Tag, int NG, class AmpReal, class ColourReal>
struct LaneKernelOf {
  using D = Doubles<AmpReal>;
  using Sizes = CurrentSizes<NG>;
  static constexpr int lanes = AmpReal::lanes;
  static constexpr int particles = NG + 2;
  static constexpr int colours = Sizes::colours;
  using Colour = generated::TopLineGluons<NG>;  // the process's colour matrix
  static_assert(Colour::colours == colours, "the registry's colour basis is the recursion's");
  static constexpr int most = max_combinations_per_unit;
  static_assert(ColourReal::lanes == lanes, "amplitudes and colour sum in the same lanes");

  // CurrentPlan's tables as the recursion reads them (plan.sub(s, k), plan.mask(s)).
  struct Rows {
    const int* data;
    int width;
    int operator()(int s, int k) const { return data[s * width + k]; }
  };
  struct Column {
    const int* data;
    int operator()(int i) const { return data[i]; }
  };
  struct Plan {
    Rows sub;
    Column mask;
  };
  struct GluonMomenta {  // outgoing momentum of gluon g (particles g g _ _ g g g)
    const D (*p)[4];
    D operator()(int g, int mu) const { return g < 2 ? -p[g][mu] : p[g + 2][mu]; }
  };

  using Kinematics = SubsetKinematics<AmpReal>;

  // The scratch of one pack, in order: |M|^2 per good helicity and jamp2 per
  // flow (for the choices), gluon currents, the stored fermion currents of
  // both antitop helicities, top spinors per combination, the subsets'
  // kinematics, jamps per combination.
  struct Scratch {
    static constexpr std::size_t helicities = std::size_t(1) << particles;
    static constexpr std::size_t current = 4 * Sizes::currents;
    static constexpr std::size_t psi = 4 * Sizes::stored_fermion_currents;
    static constexpr std::size_t kinematics = Kinematics::per_subset * Sizes::subsets;
    static constexpr std::size_t bytes = sizeof(D) * (helicities + colours) +
                                         sizeof(cplx<AmpReal>) * (current + 2 * psi + 4 * most) +
                                         sizeof(AmpReal) * kinematics +
                                         sizeof(cplx<ColourReal>) * most * colours;
    D* helicity_me;  // [slot]
    D* jamp2;        // [flow]
    cplx<AmpReal>* currents;
    cplx<AmpReal>* psi_of[2];
    cplx<AmpReal>* top;
    Kinematics kinematics_of_subsets;
    cplx<ColourReal>* jamps;

    explicit Scratch(void* base) {
      helicity_me = static_cast<D*>(base);
      jamp2 = helicity_me + helicities;
      currents = reinterpret_cast<cplx<AmpReal>*>(jamp2 + colours);
      psi_of[0] = currents + current;
      psi_of[1] = psi_of[0] + psi;
      top = psi_of[1] + psi;
      kinematics_of_subsets.table = reinterpret_cast<AmpReal*>(top + 4 * most);
      jamps = reinterpret_cast<cplx<ColourReal>*>(kinematics_of_subsets.table + kinematics);
    }
  };

  static void run(const LaneTask& task, std::size_t pack, void* scratch_base) {
    const std::size_t first = pack * lanes;
    const int here = static_cast<int>(
        task.events - first < std::size_t(lanes) ? task.events - first : std::size_t(lanes));
    const Scratch s(scratch_base);
    const Plan plan{{task.sub, (NG + 1) * (NG + 1)}, {task.mask}};
    D p[particles][4];
    for (int i = 0; i < particles; ++i)
      for (int mu = 0; mu < 4; ++mu)
        p[i][mu] =
            D::load(task.momenta + first + task.stride_particle * i + task.stride_mu * mu, here);
    // The outgoing antitop's momentum is p[3] (ixxxxx with nsf = -1).
    const Kinematics& kinematics = s.kinematics_of_subsets;
    kinematics.template fill<NG>(GluonMomenta{p}, p[3], task.top.mass);
    const TopTerms<AmpReal> top = top_terms<AmpReal>(task.top);
    const AmpReal mass = top.mass;
    const EventChoices& choices = task.choices;
    if (choices.rndcol != nullptr)
      for (int flow = 0; flow < colours; ++flow) s.jamp2[flow] = D(0);
    D total = D(0);
    for (int u = 0; u < task.unit_count; ++u) {
      const HelicityUnit& unit = task.units[u];
      for (int g = 0; g < NG; ++g) {
        const int particle = g < 2 ? g : g + 2;
        const auto w = vxxxxx<AmpReal>(
            p[particle], top_line_helicity(unit.helicity[0], particle, particles), g < 2 ? -1 : 1);
        for (int mu = 0; mu < 4; ++mu) s.currents[4 * (1 + g) + mu] = w.c[mu];
      }
      for_each_length<2, NG + 1>(
          GluonCurrentsOfLength<NG, AmpReal, Plan, Kinematics>{plan, kinematics, s.currents});
      const int antitops = unit.first_of_second_antitop < unit.count ? 2 : 1;
      Wave<AmpReal> antitop[2];
      for (int a = 0; a < antitops; ++a) {
        const int h = unit.helicity[a == 0 ? 0 : unit.first_of_second_antitop];
        antitop[a] = ixxxxx<AmpReal>(p[3], mass, top_line_helicity(h, 3, particles), -1);
        for_each_length<1, NG - 1>(FermionCurrentsOfLength<NG, AmpReal, Plan, Kinematics>{
            plan, kinematics, s.currents, antitop[a].c, top, s.psi_of[a]});
      }
      for (int k = 0; k < unit.count; ++k) {
        const auto w =
            oxxxxx<AmpReal>(p[2], mass, top_line_helicity(unit.helicity[k], 2, particles), 1);
        for (int mu = 0; mu < 4; ++mu) s.top[4 * k + mu] = w.c[mu];
      }
      for (int a = 0; a < antitops; ++a) {
        const int k0 = a == 0 ? 0 : unit.first_of_second_antitop;
        const int k1 = a == 0 ? unit.first_of_second_antitop : unit.count;
        for (int flow = 0; flow < colours; ++flow) {
          const int ordering = Sequences::offset(NG, NG) + flow;
          cplx<AmpReal> first_current[4];
          first_fermion_current<NG>(plan, ordering, kinematics, s.currents, antitop[a].c, top,
                                    s.psi_of[a], first_current);
          for (int k = k0; k < k1; ++k) {
            const auto amplitude = close_on_top<NG>(plan, ordering, s.currents, s.psi_of[a],
                                                    first_current, antitop[a].c, s.top + 4 * k);
            s.jamps[k * colours + flow] =
                cplx<ColourReal>(ColourReal(amplitude.real()), ColourReal(amplitude.imag()));
          }
        }
      }
      D sums[most];
      colour_sums(s.jamps, unit.count, sums);
      D unit_total = sums[0];
      for (int k = 1; k < unit.count; ++k) unit_total += sums[k];
      total += unit_total / D(task.denominator);
      if (choices.rndhel != nullptr)
        for (int k = 0; k < unit.count; ++k) s.helicity_me[unit.slot[k]] = sums[k];
      if (choices.rndcol != nullptr) add_jamp2(s.jamps, unit.count, s.jamp2);
    }
    (total / D(task.scale)).store(task.me + first, here);
    if (choices.any()) choose(task, first, here, s);
  }

  // d |M_c|^2 of each of a unit's `count` combinations.
  static void colour_sums(const cplx<ColourReal>* jamps, int count, D* sums) {
    static_assert(most == 4, "one case per number of combinations");
    switch (count) {
      case 1: return triangle_colour_sums<Colour, 1>(jamps, sums);
      case 2: return triangle_colour_sums<Colour, 2>(jamps, sums);
      case 3: return triangle_colour_sums<Colour, 3>(jamps, sums);
      default: return triangle_colour_sums<Colour, 4>(jamps, sums);
    }
  }

  // jamp2[flow] += |J_c,flow|^2 over a unit's `count` combinations.
  static void add_jamp2(const cplx<ColourReal>* jamps, int count, D* jamp2) {
    for (int flow = 0; flow < colours; ++flow) {
      ColourReal sum = ColourReal(0);
      for (int k = 0; k < count; ++k) {
        const cplx<ColourReal>& j = jamps[k * colours + flow];
        sum += j.re * j.re + j.im * j.im;
      }
      jamp2[flow] += D(sum);
    }
  }

  // The per-event coupling and choices of the pack's `here` events, lane by
  // lane, from the sums in scratch.
  static void choose(const LaneTask& task, std::size_t first, int here, const Scratch& s) {
    const EventChoices& choices = task.choices;
    for (int lane = 0; lane < here; ++lane) {
      const std::size_t e = first + lane;
      if (choices.gs != nullptr) task.me[e] *= coupling_factor(choices.gs[e], NG);
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

  static LaneKernel kernel() { return {&run, lanes, Scratch::bytes}; }
};

// of(std::integral_constant<int, NG>) for the NG among NGs equal to `gluons`
// (none: a kernel without a run function, which LaneEvaluator refuses).
template <class Of, int... NGs>
LaneKernel kernel_for_gluons(int gluons, const Of& of, std::integer_sequence<int, NGs...>) {
  LaneKernel kernel{};
  ((gluons == NGs ? (void)(kernel = of(std::integral_constant<int, NGs>())) : (void)0), ...);
  return kernel;
}

// The kernel for `process` and `precision` with double lanes of width
// DoubleLanes and float lanes of width FloatLanes; mixed precision keeps the
// double width (its amplitudes are doubles).
template <class Tag, int DoubleLanes, int FloatLanes>
LaneKernel lane_kernel_for(Process process, Precision precision) {
  using Double = Lanes<double, DoubleLanes, Tag>;
  using Float = Lanes<float, FloatLanes, Tag>;
  using FloatOfDouble = Lanes<float, DoubleLanes, Tag>;
  // The colour-flow family: one kernel per process (generated/colour_flow.hpp).
  const auto flow = [&](auto process_constant) {
    constexpr Process P = decltype(process_constant)::value;
    switch (precision) {
      case Precision::double_precision: return ColourFlowLaneKernelOf<P, Double, Double>::kernel();
      case Precision::single_precision: return ColourFlowLaneKernelOf<P, Float, Float>::kernel();
      case Precision::mixed: return ColourFlowLaneKernelOf<P, Double, FloatOfDouble>::kernel();
    }
    return LaneKernel{};
  };
  constexpr std::size_t flows = std::size(generated::colour_flow_processes);
  const LaneKernel flow_kernel =
      kernel_for_colour_flow(process, flow, std::make_index_sequence<flows>());
  if (flow_kernel.run != nullptr) return flow_kernel;
  // The top-line family: one kernel per number of gluons.
  const int gluons = process_info(process).gluons;
  const auto of = [&](auto ng) {
    constexpr int NG = decltype(ng)::value;
    switch (precision) {
      case Precision::double_precision: return LaneKernelOf<Tag, NG, Double, Double>::kernel();
      case Precision::single_precision: return LaneKernelOf<Tag, NG, Float, Float>::kernel();
      case Precision::mixed: return LaneKernelOf<Tag, NG, Double, FloatOfDouble>::kernel();
    }
    return LaneKernel{};
  };
  // One kernel per process of the family (generated/top_line_gluons.hpp).
  return kernel_for_gluons(gluons, of, generated::top_line_gluons_parameters{});
}

}  // namespace hepex::amplitudes::detail
