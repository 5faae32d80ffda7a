#pragma once
// The engine's kernel for NG gluons and one precision: one team of threads
// per (gluon-helicity unit, few events), the Berends-Giele recursion
// (colour_ordered.hpp) in the team's scratch memory, one length at a time
// with the currents of a length computed in parallel, then the jamps of the
// unit's (up to four) top-helicity combinations and their colour sum, all in
// one kernel ("no per-diagram kernels"; the colour sum is a team reduction of
// the triangular quadratic form, folded into equal items, colour_sum.hpp).
// With --colour-sum blas the team writes the jamps to device memory instead,
// one unit per launch, and a vendor GEMM does the colour sum (double
// precision only).
//
// Why teams: one thread per (event, unit) needs ~10^4 events to fill an H100
// (gg_ttggg: 32 units, each thread with ~50 KB of currents in local memory);
// with a team per (event, unit) the same parallelism comes from ~100 events,
// and the currents live in shared memory. CUDACPP gives one thread per event
// and helicity, one stream per helicity (A. Valassi, kernel splitting paper,
// secs. 2.2 and 3.1), and on the H100 reaches 90% of its peak at 512-4096
// events (perf/results/amplitudes/README.md).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "hepex/amplitudes/detail/colour_ordered.hpp"
#include "hepex/amplitudes/detail/colour_sum.hpp"
#include "hepex/amplitudes/detail/current_plan.hpp"
#include "hepex/amplitudes/detail/evaluator.hpp"
#include "hepex/amplitudes/detail/helicity_units.hpp"
#include "hepex/amplitudes/detail/team_reductions.hpp"
#include "hepex/backend/gemm.hpp"
#include "hepex/backend/launch_check.hpp"
#include "hepex/core/error.hpp"

namespace hepex::amplitudes::detail {

template <class ExecSpace, int NG, class AmpReal, class ColourReal>
class EvaluatorOf : public Evaluator<ExecSpace> {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Partial = Kokkos::View<double**, Kokkos::LayoutRight, Memory>;
  using Jamps = Kokkos::View<cplx<ColourReal>**, Kokkos::LayoutLeft, Memory>;
  // At most 128 registers per thread, so that 16 warps fit on an SM of 64K
  // registers: unbounded, the kernel ran 16% slower on the H100 once it had
  // grown past ~128 (perf/results/amplitudes/README.md); teams of up to 512 threads.
  // HintLightWeight: Kokkos's CUDA backend passes the launch (functor and
  // policy, over 512 bytes with the units) as a kernel argument instead of
  // copying it to constant memory first (an event synchronize, a host copy to
  // a staging buffer and an asynchronous copy to the device on every launch):
  // 6-7 us less per evaluation on the H100 (perf/results/amplitudes/README.md).
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<512, 1>,
                                    Kokkos::Experimental::WorkItemProperty::HintLightWeight_t>;
  using Member = typename Policy::member_type;
  using Sizes = CurrentSizes<NG>;
  static constexpr int particles = NG + 2;
  static constexpr int colours = Sizes::colours;
  static constexpr int max_units = 1 << NG;

  // One event's scratch: gluon currents, subset momenta, the stored fermion
  // currents of both antitop helicities, spinors of the antitop (two
  // helicities) and top (per combination), and the jamps of all combinations;
  // every part a multiple of 16 bytes. Both antitop helicities of a unit go
  // in one pass (their fermion currents, then the jamps and colour sum of all
  // its combinations: fewer steps with more items each, a shorter path per
  // team; gg_ttggg float: 15% more MEs/s, perf/results/amplitudes/README.md). gg_ttggg in
  // double needs 40,896 bytes, under the 40,936 that Kokkos 4.6 offers a team
  // at level 0 in a GPU's 48 KB per block (the longest fermion currents are
  // not stored for that, CurrentSizes); where a backend offers less, the
  // scratch goes to level 1.
  struct Scratch {
    static constexpr std::size_t current = 4 * sizeof(cplx<AmpReal>) * Sizes::currents;
    static constexpr std::size_t momentum = 4 * sizeof(double) * Sizes::subsets;
    static constexpr std::size_t psi =
        2 * 4 * sizeof(cplx<AmpReal>) * Sizes::stored_fermion_currents;
    static constexpr std::size_t spinors =
        4 * sizeof(cplx<AmpReal>) * (2 + max_combinations_per_unit) + 2 * 4 * sizeof(double);
    static constexpr std::size_t jamps =
        sizeof(cplx<ColourReal>) * max_combinations_per_unit * colours;
    static constexpr std::size_t bytes = current + momentum + psi + spinors + jamps;
  };

  struct EventScratch {
    cplx<AmpReal>* current;
    double* momentum;
    cplx<AmpReal>* psi;      // [2][4 stored_fermion_currents]
    cplx<AmpReal>* antitop;  // [2][4]
    cplx<AmpReal>* top;      // [4][4]
    double* antitop_k;       // [2][4]
    cplx<ColourReal>* jamps;

    KOKKOS_INLINE_FUNCTION explicit EventScratch(char* base) {
      current = reinterpret_cast<cplx<AmpReal>*>(base);
      momentum = reinterpret_cast<double*>(base + Scratch::current);
      psi = reinterpret_cast<cplx<AmpReal>*>(base + Scratch::current + Scratch::momentum);
      antitop = psi + 2 * 4 * Sizes::stored_fermion_currents;
      top = antitop + 8;
      antitop_k = reinterpret_cast<double*>(top + 4 * max_combinations_per_unit);
      jamps = reinterpret_cast<cplx<ColourReal>*>(antitop_k + 8);
    }
    KOKKOS_INLINE_FUNCTION MomentaInDoubles<AmpReal> kinematics(int a, double mass_squared) const {
      return {momentum, antitop_k + 4 * a, mass_squared};
    }
  };

  // The units [first_unit, first_unit + unit_count) for every event: league
  // rank r is unit r % unit_count, events (r / unit_count) * V ... + V - 1.
  // The scratch level is a template argument so that, at level 0, the
  // compiler sees that the scratch is GPU shared memory and reads it with
  // shared-memory loads (LDS); behind a run-time level every scratch access
  // was a generic load, slower to return (perf/results/amplitudes/README.md). So is
  // `choosing`: a helicity or colour is chosen (ChoiceKernel), the colour
  // sums are kept per combination and jamp2 is added up.
  template <int scratch_level, bool choosing>
  struct TeamKernel {
    MomentaView<Memory> momenta;
    CurrentPlan<Memory> plan;
    Kokkos::View<std::int16_t*, Memory> weights;  // folded_colour_weights
    double denominator;                           // of the colour matrix
    EventTotals<Memory> totals;                   // fused colour sum: partial(unit, event) and me
    ChoiceKernel<Memory> chosen;                  // choosing: partial(slot, event) and jamp2
    Jamps jamps;  // (event, combination * colours + flow): BLAS path, one unit
    HelicityUnit units[max_units];
    int unit_count;
    int first_unit;
    int events_per_team;
    bool fused;
    // The top's mass terms, formed on the host (helas.hpp, TopTerms).
    TopTerms<AmpReal> top;
    double mass_squared;

    KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
      const int events = static_cast<int>(momenta.extent(0));
      const int u = team.league_rank() % unit_count;
      const int first_event = team.league_rank() / unit_count * events_per_team;
      const int here =
          events - first_event < events_per_team ? events - first_event : events_per_team;
      const HelicityUnit& unit = units[u];
      char* base = static_cast<char*>(
          team.team_scratch(scratch_level).get_shmem_aligned(events_per_team * Scratch::bytes, 16));
      const auto scratch = [&](int v) { return EventScratch(base + v * Scratch::bytes); };
      // In every step, item i is sequence (or flow) i % n of event i / n.
      const auto for_items = [&](int n, const auto& body) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, here * n),
                             [&](int i) { body(scratch(i / n), first_event + i / n, i % n); });
        team.team_barrier();
      };
      const int antitops = unit.first_of_second_antitop < unit.count ? 2 : 1;

      // External lines: gluon wavefunctions (the length-1 currents), the
      // momenta of the gluon subsets, the top and antitop spinors.
      constexpr int externals = NG + Sizes::subsets + 2 + max_combinations_per_unit;
      for_items(externals, [&](const EventScratch& s, int e, int i) {
        const auto p = [&](int particle, int mu) { return momenta(e, particle, mu); };
        const auto particle_momentum = [&](int particle, double* out) {
          for (int mu = 0; mu < 4; ++mu) out[mu] = p(particle, mu);
        };
        double q[4];
        if (i < NG) {
          const int particle = i < 2 ? i : i + 2;  // g g t tbar g g g
          particle_momentum(particle, q);
          const auto w = vxxxxx<AmpReal>(
              q, top_line_helicity(unit.helicity[0], particle, particles), i < 2 ? -1 : 1);
          for (int mu = 0; mu < 4; ++mu) s.current[4 * (1 + i) + mu] = w.c[mu];
        } else if (i < NG + Sizes::subsets) {
          const auto gluon_k = [&](int g, int mu) { return g < 2 ? -p(g, mu) : p(g + 2, mu); };
          subset_momentum<NG>(i - NG, gluon_k, s.momentum + 4 * (i - NG));
        } else if (i < NG + Sizes::subsets + 2) {
          const int a = i - NG - Sizes::subsets;
          if (a < antitops) {
            const int h = unit.helicity[a == 0 ? 0 : unit.first_of_second_antitop];
            particle_momentum(3, q);
            const auto w = ixxxxx(q, top.mass, top_line_helicity(h, 3, particles), -1);
            for (int mu = 0; mu < 4; ++mu) {
              s.antitop[4 * a + mu] = w.c[mu];
              s.antitop_k[4 * a + mu] = w.k[mu];
            }
          }
        } else {
          const int k = i - NG - Sizes::subsets - 2;
          if (k < unit.count) {
            particle_momentum(2, q);
            const auto w =
                oxxxxx(q, top.mass, top_line_helicity(unit.helicity[k], 2, particles), 1);
            for (int mu = 0; mu < 4; ++mu) s.top[4 * k + mu] = w.c[mu];
          }
        }
      });
      // Gluon currents, by length.
      for_each_length<2, NG + 1>([&](auto length_constant) {
        constexpr int length = decltype(length_constant)::value;
        constexpr int first = Sequences::offset(NG, length);
        for_items(Sequences::falling(NG, length), [&](const EventScratch& s, int, int i) {
          gluon_current<NG, length>(plan, first + i, s.kinematics(0, mass_squared), s.current);
        });
      });
      // The stored fermion currents of the unit's antitop helicities, by
      // length; then per (antitop helicity, flow) the fermion current of
      // length NG - 1 that the flow's jamps need and the jamps of the
      // combinations with that antitop helicity; then their colour sum.
      const auto psi = [&](const EventScratch& s, int a) {
        return s.psi + a * 4 * Sizes::stored_fermion_currents;
      };
      for_each_length<1, NG - 1>([&](auto length_constant) {
        constexpr int length = decltype(length_constant)::value;
        constexpr int first = Sequences::offset(NG, length);
        constexpr int n = Sequences::falling(NG, length);
        for_items(antitops * n, [&](const EventScratch& s, int, int i) {
          const int a = i / n, id = first + i % n;
          fermion_current<NG, length>(plan, id, s.kinematics(a, mass_squared), s.current,
                                      s.antitop + 4 * a, top, psi(s, a),
                                      fermion_current_slot(psi(s, a), id));
        });
      });
      for_items(antitops * colours, [&](const EventScratch& s, int e, int i) {
        const int a = i / colours, flow = i % colours;
        const int ordering = Sequences::offset(NG, NG) + flow;
        cplx<AmpReal> first[4];
        first_fermion_current<NG>(plan, ordering, s.kinematics(a, mass_squared), s.current,
                                  s.antitop + 4 * a, top, psi(s, a), first);
        const int k0 = a == 0 ? 0 : unit.first_of_second_antitop;
        const int k1 = a == 0 ? unit.first_of_second_antitop : unit.count;
        for (int k = k0; k < k1; ++k) {
          const auto amplitude = close_on_top<NG>(plan, ordering, s.current, psi(s, a), first,
                                                  s.antitop + 4 * a, s.top + 4 * k);
          const cplx<ColourReal> jamp(ColourReal(amplitude.real()), ColourReal(amplitude.imag()));
          if (fused) {
            s.jamps[k * colours + flow] = jamp;
          } else {
            jamps(e, k * colours + flow) = jamp;
          }
        }
      });
      if (!fused) return;
      if (choosing && chosen.choices.rndcol != nullptr) {
        for_items(colours, [&](const EventScratch& s, int e, int flow) {
          double sum = 0;
          for (int k = 0; k < unit.count; ++k) {
            const cplx<ColourReal> j = s.jamps[k * colours + flow];
            sum += double(j.real()) * double(j.real()) + double(j.imag()) * double(j.imag());
          }
          Kokkos::atomic_add(&chosen.jamp2(flow, e), sum);
        });
      }
      colour_sum(team, here, unit, scratch);
    }

    // partial(unit, e) = the colour sums of the unit's jamps in scratch (or,
    // choosing, partial(slot, e) = each combination's): the team's threads
    // take the items of the folded triangle (folded_colour_share), each for
    // every combination.
    template <class ScratchOf>
    KOKKOS_INLINE_FUNCTION void colour_sum(const Member& team, int here, const HelicityUnit& unit,
                                           const ScratchOf& scratch) const {
      constexpr int most = max_combinations_per_unit;
      const int u = team.league_rank() % unit_count;
      const int first_event = team.league_rank() / unit_count * events_per_team;
      for (int v = 0; v < here; ++v) {
        const EventScratch s = scratch(v);
        const int e = first_event + v;
        if constexpr (choosing) {
          CombinationSums sums;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, colours),
              [&](int item, CombinationSums& acc) {
                add_folded_colour_share<colours, most, true>(weights, item, s.jamps, unit.count,
                                                             acc.v);
              },
              Kokkos::Sum<CombinationSums>(sums));
          Kokkos::single(Kokkos::PerTeam(team), [&] {
            for (int k = 0; k < unit.count; ++k)
              chosen.partial(unit.slot[k], e) = sums.v[k] / denominator;
          });
        } else {
          double sum = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, colours),
              [&](int item, double& acc) {
                acc += folded_colour_share<colours, most>(weights, item, s.jamps, unit.count);
              },
              sum);
          Kokkos::single(Kokkos::PerTeam(team), [&] {
            totals.partial(first_unit + u, e) = sum / denominator;
            totals.unit_done(e);
          });
        }
      }
    }
  };

  // The BLAS path's last step for unit u: partial(u, e) = colour_dot.
  using Matrix = Kokkos::View<const double**, Kokkos::LayoutRight, Memory, Kokkos::MemoryUnmanaged>;
  struct DotKernel {
    Matrix x, z;
    EventTotals<Memory> totals;
    int unit;
    int rows;

    KOKKOS_INLINE_FUNCTION void operator()(int e) const {
      totals.partial(unit, e) = colour_dot(x, z, rows, e);
      totals.unit_done(e);
    }
  };

  EvaluatorOf(Process process, TopQuark top, ColourSumMethod method, TeamShape shape)
      : plan_(make_current_plan<Memory>(NG)),
        weights_(folded_colour_weights<Memory>(colour_matrix(process))),
        denominator_(colour_matrix(process).denominator),
        top_(top),
        method_(method),
        shape_(shape) {
    if (method_ == ColourSumMethod::blas) {
      if (!std::is_same<ColourReal, double>::value) {
        throw Error("--colour-sum blas needs --precision double");
      }
      cf_ = full_colour_matrix<Memory>(colour_matrix(process));
    }
    // Level 0 (GPU shared memory) where the team's scratch fits, else level 1
    // (device memory on a GPU; on the host both are ordinary memory, and
    // Serial offers 32 KB at level 0).
    const std::size_t bytes = std::size_t(shape_.events_per_team) * Scratch::bytes;
    scratch_level_ = bytes <= std::size_t(Policy::scratch_size_max(0)) ? 0 : 1;
    const auto limit = std::size_t(Policy::scratch_size_max(1));
    if (bytes > limit) {
      throw Error("events per team " + std::to_string(shape_.events_per_team) + ": " +
                  std::to_string(shape_.events_per_team * Scratch::bytes) +
                  " bytes of team scratch, more than the " + std::to_string(limit) +
                  " bytes the execution space offers");
    }
    Policy probe(1, Kokkos::AUTO);
    const int most = probe.team_size_max(TeamKernel<0, true>{}, Kokkos::ParallelForTag());
    if (shape_.team_size > most) {
      throw Error("team size " + std::to_string(shape_.team_size) + ": at most " +
                  std::to_string(most) + " threads per team here");
    }
  }

  void run(const std::vector<ExecSpace>& streams, const MomentaView<Memory>& momenta,
           const std::vector<int>& helicities, const Kokkos::View<double*, Memory>& me,
           double scale, const EventChoices& choices) override {
    const int events = static_cast<int>(momenta.extent(0));
    const bool choosing = choices.chooses();
    if (choosing && method_ == ColourSumMethod::blas) {
      throw Error("choosing helicities or colours needs the kernel colour sum");
    }
    if (helicities != helicities_) {
      // An evaluation still in flight may read good_.
      for (const auto& s : streams) s.fence();
      helicities_ = helicities;
      units_ = helicity_units(helicities, particles);
      good_ = Kokkos::View<int*, Memory>("hepex::me_good_helicities", helicities.size());
      Kokkos::deep_copy(good_, Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                   helicities.data(), helicities.size()));
    }
    const int count = static_cast<int>(units_.size());
    const int rows = choosing ? static_cast<int>(helicities.size()) : count;
    const bool new_partial =
        partial_.extent(0) != std::size_t(rows) || partial_.extent(1) != std::size_t(events);
    const bool new_stored = stored_.extent(0) != std::size_t(events);
    const bool new_jamp2 = choices.rndcol != nullptr && jamp2_.extent(1) != std::size_t(events);
    // An evaluation still in flight (MatrixElement::evaluate_async) may use
    // the buffers about to be replaced.
    if (new_partial || new_stored || new_jamp2) {
      for (const auto& s : streams) s.fence();
    }
    if (new_partial) {
      partial_ = Partial(Kokkos::view_alloc(Kokkos::WithoutInitializing, "hepex::me_partial"), rows,
                         events);
    }
    if (new_stored) {
      stored_ = Kokkos::View<int*, Memory>("hepex::me_units_stored", events);  // zeros
    }
    if (new_jamp2) {
      jamp2_ = Partial("hepex::me_jamp2", colours, events);  // zeros; ChoiceKernel resets them
    }
    const EventTotals<Memory> totals{partial_, stored_, me, count, scale, NG, choices.gs};
    if (method_ == ColourSumMethod::blas) {
      for (int u = 0; u < count; ++u) blas_unit(streams[0], momenta, totals, u);
      return;
    }
    const ChoiceKernel<Memory> chosen{partial_, jamp2_, me, good_, scale, NG, choices};
    // Contiguous blocks of units, one launch per instance.
    const int instances = std::min(static_cast<int>(streams.size()), count);
    for (int s = 0; s < instances; ++s) {
      const int first = count * s / instances, last = count * (s + 1) / instances;
      if (choosing) {
        launch<true>(streams[s], momenta, totals, chosen, first, last - first, true, Jamps());
      } else {
        launch<false>(streams[s], momenta, totals, chosen, first, last - first, true, Jamps());
      }
    }
    if (!choosing) return;
    // After every unit: the other instances' units are waited for first.
    for (int s = 1; s < instances; ++s) streams[s].fence();
    Kokkos::parallel_for("hepex::me_choices",
                         Kokkos::RangePolicy<ExecSpace>(streams[0], 0, std::size_t(events)),
                         chosen);
  }

 private:
  template <bool choosing>
  void launch(const ExecSpace& stream, const MomentaView<Memory>& momenta,
              const EventTotals<Memory>& totals, const ChoiceKernel<Memory>& chosen, int first,
              int count, bool fused, const Jamps& jamps) const {
    if (scratch_level_ == 0) {
      launch_at<0, choosing>(stream, momenta, totals, chosen, first, count, fused, jamps);
    } else {
      launch_at<1, choosing>(stream, momenta, totals, chosen, first, count, fused, jamps);
    }
  }

  template <int scratch_level, bool choosing>
  void launch_at(const ExecSpace& stream, const MomentaView<Memory>& momenta,
                 const EventTotals<Memory>& totals, const ChoiceKernel<Memory>& chosen, int first,
                 int count, bool fused, const Jamps& jamps) const {
    const int events = static_cast<int>(momenta.extent(0));
    const int v = shape_.events_per_team;
    TeamKernel<scratch_level, choosing> kernel{momenta,
                                               plan_,
                                               weights_,
                                               denominator_,
                                               totals,
                                               chosen,
                                               jamps,
                                               {},
                                               count,
                                               first,
                                               v,
                                               fused,
                                               top_terms<AmpReal>(top_),
                                               top_.mass * top_.mass};
    std::copy(units_.begin() + first, units_.begin() + first + count, kernel.units);
    Policy policy(stream, count * ((events + v - 1) / v), shape_.team_size);
    policy.set_scratch_size(scratch_level, Kokkos::PerTeam(v * Scratch::bytes + 16));
    Kokkos::parallel_for("hepex::me_team", policy, kernel);
    backend::check_launch("hepex::me_team");
  }

  // The BLAS path for unit u: its jamps to device memory (one launch), then
  // Z = (CF / d) X by one vendor GEMM per combination and
  // partial(u, e) = sum_j X_j,2e Z_j,2e + X_j,2e+1 Z_j,2e+1. The GEMMs run on
  // `stream` between the jamps and the dot products; all units go through one
  // buffer on the first instance, in turn.
  void blas_unit(const ExecSpace& stream, const MomentaView<Memory>& momenta,
                 const EventTotals<Memory>& totals, int u) {
    const int events = static_cast<int>(momenta.extent(0));
    constexpr int rows = max_combinations_per_unit * colours;
    if (jamps_.extent(0) != std::size_t(events)) {
      jamps_ = Jamps(Kokkos::view_alloc(Kokkos::WithoutInitializing, "hepex::jamps"), events, rows);
      products_ = Partial(Kokkos::view_alloc(Kokkos::WithoutInitializing, "hepex::colour_products"),
                          rows, 2 * events);
    }
    launch<false>(stream, momenta, totals, ChoiceKernel<Memory>{}, u, 1, false, jamps_);
    const auto* x = reinterpret_cast<const double*>(jamps_.data());  // (re, im) pairs
    const int blocks = units_[u].count;
    for (int b = 0; b < blocks; ++b) {
      const std::ptrdiff_t offset = std::ptrdiff_t(b) * colours * 2 * events;
      backend::dgemm(stream, colours, 2 * events, colours, cf_.data(), colours, x + offset,
                     2 * events, 0.0, products_.data() + offset, 2 * events);
    }
    Kokkos::parallel_for(
        "hepex::me_colour_dots", Kokkos::RangePolicy<ExecSpace>(stream, 0, events),
        DotKernel{Matrix(x, rows, 2 * events), Matrix(products_.data(), rows, 2 * events), totals,
                  u, blocks * colours});
  }

  CurrentPlan<Memory> plan_;
  Kokkos::View<std::int16_t*, Memory> weights_;
  double denominator_;
  TopQuark top_;
  ColourSumMethod method_;
  TeamShape shape_;
  int scratch_level_ = 0;
  Kokkos::View<double*, Memory> cf_;  // CF / d, full, for the BLAS path
  std::vector<int> helicities_;       // of the last run, and their units
  std::vector<HelicityUnit> units_;
  Kokkos::View<int*, Memory> good_;    // helicities_ on the device
  Partial partial_;                    // (unit or good helicity, event)
  Partial jamp2_;                      // (flow, event): ChoiceKernel::jamp2
  Kokkos::View<int*, Memory> stored_;  // EventTotals::stored
  Jamps jamps_;                        // BLAS: one unit's jamps
  Partial products_;                   // BLAS: Z = CF X
};

}  // namespace hepex::amplitudes::detail
