#pragma once
// The engine's host evaluator: packs of events in SIMD lanes (one call of a
// lane kernel, detail/lane_kernel.hpp or colour_flow_lane_kernel.hpp, per pack, all helicity units
// in turn, no atomics), spread over the host execution space's threads (one pack per team of one
// thread, its scratch at level 1), dealt dynamically: the packs cost the same, but the cores need
// not run at one speed (on the GPU machine's host, 16 one-thread processes at once ran gg_ttgg
// at 10.6k to 16.3k MEs/s each), and equal static shares make every thread wait for the slowest
// (perf/results/amplitudes/README.md). The kernel is the one resolve_simd chose for this CPU
// (simd.hpp); the GPU builds use the team kernel of detail/evaluator.hpp instead.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "hepex/amplitudes/detail/colour_sum.hpp"
#include "hepex/amplitudes/detail/current_plan.hpp"
#include "hepex/amplitudes/detail/evaluator.hpp"
#include "hepex/amplitudes/detail/lane_task.hpp"
#include "hepex/core/error.hpp"

namespace hepex::amplitudes::detail {

template <class ExecSpace>
class LaneEvaluator : public Evaluator<ExecSpace> {
 public:
  using Memory = typename ExecSpace::memory_space;
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible,
                "the lane kernels run on the host");

  // The order in which the colour-flow family's kernel visits the good
  // helicities (colour_flow_helicity_order).
  using HelicityOrder = std::function<std::vector<int>(const std::vector<int>&)>;

  // top_line: the kernel is the top-line family's, which takes the
  // recursion's plan and the helicities grouped into units; the colour-flow
  // family's kernel takes the good helicities in helicity_order's order.
  LaneEvaluator(Process process, TopQuark top, LaneKernel kernel, bool top_line,
                HelicityOrder helicity_order = {})
      : top_line_(top_line),
        helicity_order_(std::move(helicity_order)),
        denominator_(colour_matrix(process).denominator),
        particles_(process_info(process).particles),
        coupling_power_(process_info(process).coupling_power),
        reversed_(process_info(process).reversed_helicities),
        top_(top),
        kernel_(kernel) {
    if (top_line_) plan_ = make_current_plan<Kokkos::HostSpace>(process_info(process).gluons);
    if (kernel_.run == nullptr) {
      throw Error(std::string(process_info(process).name) + ": no host kernel for this precision",
                  ErrorKind::runtime);
    }
  }

  int lanes() const { return kernel_.lanes; }

  void run(const std::vector<ExecSpace>& streams, const MomentaView<Memory>& momenta,
           const std::vector<int>& helicities, const Kokkos::View<double*, Memory>& me,
           double scale, const EventChoices& choices) override {
    const std::size_t events = momenta.extent(0);
    if (events == 0) return;
    // The previous evaluation may still read units_ and good_ (evaluate_async).
    streams[0].fence();
    // Formed again only for new good helicities (every evaluation but the
    // engine's probe of each single helicity has the same ones).
    if (helicities != good_) {
      units_ = top_line_ ? helicity_units(helicities, particles_) : std::vector<HelicityUnit>{};
      order_ = helicity_order_ ? helicity_order_(helicities) : std::vector<int>{};
      good_ = helicities;
    }
    const LaneTask task{momenta.data(),
                        events,
                        std::size_t(momenta.stride(1)),
                        std::size_t(momenta.stride(2)),
                        plan_.sub.data(),
                        plan_.mask.data(),
                        units_.data(),
                        static_cast<int>(units_.size()),
                        good_.data(),
                        static_cast<int>(good_.size()),
                        top_,
                        double(denominator_),
                        scale,
                        me.data(),
                        choices,
                        order_.data(),
                        coupling_power_,
                        reversed_};
    const LaneKernel kernel = kernel_;
    const std::size_t packs = (events + kernel.lanes - 1) / kernel.lanes;
    using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
    Kokkos::parallel_for(
        "hepex::me_lanes",
        Policy(streams[0], static_cast<int>(packs), 1)
            .set_scratch_size(1, Kokkos::PerTeam(kernel.scratch_bytes + scratch_alignment)),
        [=](const typename Policy::member_type& team) {
          void* scratch =
              team.team_scratch(1).get_shmem_aligned(kernel.scratch_bytes, scratch_alignment);
          kernel.run(task, std::size_t(team.league_rank()), scratch);
        });
  }

 private:
  bool top_line_;
  HelicityOrder helicity_order_;
  CurrentPlan<Kokkos::HostSpace> plan_;
  int denominator_;
  int particles_;
  int coupling_power_;
  unsigned reversed_;
  TopQuark top_;
  LaneKernel kernel_;
  std::vector<HelicityUnit> units_;
  std::vector<int> good_;
  std::vector<int> order_;
};

}  // namespace hepex::amplitudes::detail
