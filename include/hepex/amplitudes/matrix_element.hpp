#pragma once
// |M|^2 of g g -> t tbar + n g at LO, summed over helicities and colours and
// averaged as MadGraph does, for batches of events (engine of the amplitudes
// family; docs/architecture.md "Data flow per family").
//
// The good helicities are grouped into units by their gluon helicities (the
// gluon currents, most of the work, do not depend on the top helicities).
// On a host build the kernel of detail/lane_kernel.hpp computes packs of
// events in SIMD lanes, all units of a pack in one task (the instruction set
// chosen at run time, simd.hpp). On a GPU one
// kernel (detail/evaluator.hpp) gives every (unit, few events) a team of
// threads that computes the unit's currents, jamps and colour-summed |M|^2 in
// scratch memory; the units can be dealt in blocks over several
// execution-space instances (CUDA streams), one launch each. The team that
// finishes an event's last unit adds the units' sums in a fixed order and
// divides by the averaging denominator (EventTotals).
// Good helicities are found once, at construction, on a probe batch of RAMBO
// events.
//
// Work goes on the execution-space instance given at construction (the
// default one unless said otherwise), so that evaluate_async of several
// MatrixElements on their own instances keeps several batches in flight: how
// several generator jobs sharing one GPU use it (perf/results/amplitudes/README.md).
//
// For an event generator (MadEvent through its Fortran bridge, hepex_me.h),
// an evaluation also takes per event the strong coupling gs and uniform
// random numbers, and returns the helicity and colour flow chosen for the
// event record with MadGraph's rules (detail/event_choices.hpp): the
// EventArguments and EventInputs below.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "hepex/amplitudes/detail/evaluator.hpp"
#include "hepex/amplitudes/momenta.hpp"
#include "hepex/amplitudes/param_card.hpp"
#include "hepex/amplitudes/parameters.hpp"
#include "hepex/amplitudes/process.hpp"
#include "hepex/amplitudes/run_card.hpp"
#include "hepex/amplitudes/simd.hpp"
#include "hepex/core/spaces.hpp"

namespace hepex::amplitudes {

struct MatrixElementOptions {
  Precision precision = Precision::double_precision;
  ColourSumMethod colour_sum = ColourSumMethod::kernel;
  // Top mass and width (in every top propagator, and the mass in the
  // momentum checks) and alpha_s (for events without their own gs), as a
  // param_card.dat gives them (read_param_card).
  ModelParameters parameters;
  // Most execution-space instances used at once. One launch over all units
  // fills an H100 from ~100 events; more instances only add launches and
  // fences (perf/results/amplitudes/README.md).
  int streams = 1;
  // The GPU team kernel's threads per team and events per team; 0: the
  // measured choice for the process (team_shape, matrix_element.cpp). The
  // host kernel (one thread per pack of lanes events) takes none: options()
  // reports 1 and the lanes.
  int team_size = 0;
  int events_per_team = 0;
  // MadEvent's run (run_card.dat, read_run_card) for the channel weights
  // (EventInputs::channel; detail/channel_weights.hpp): the collider's s
  // (stot, in the t-channel denominators' 1e-10 stot regulator; 0: none)
  // and tmin_for_channel (-1: no cut; else needs collider_s > 0).
  RunParameters run;
  // Host builds: the instruction set of the host kernel (automatic: the
  // widest the CPU has); options() reports the one used. GPU builds, and the
  // BLAS colour sum (the team kernel): automatic or none only.
  Simd simd = Simd::automatic;
};

namespace detail {
// Whether an evaluation with these options runs the host SIMD lane kernel
// (the build has one and the colour sum is the kernel's; the BLAS colour sum
// needs the team kernel's jamps in device memory), else the team kernel. The
// engine shapes its options by it and the evaluator families build by it.
bool uses_lane_kernel(const MatrixElementOptions& options);
}  // namespace detail

// An evaluation's per-event inputs on the host (see check_event_inputs);
// an empty vector is an input not given.
struct EventInputs {
  std::vector<double> gs;      // the event's strong coupling; none: sqrt(4 pi alpha_s)
  std::vector<double> rndhel;  // uniform in [0, 1): choose a helicity
  std::vector<double> rndcol;  // uniform in [0, 1): choose a colour flow
  // With rndcol: the diagram configuration whose flows may be chosen
  // (MadEvent's igraph, 1..configurations; 0: the channel's, or all flows
  // without a channel); none: as 0.
  std::vector<int> igraph;
  // MadEvent's channel id (the diagram of an integration configuration,
  // 1..diagrams; 0: none): |M|^2 times the channel's multichannel weight
  // (detail/channel_weights.hpp), and the colour flow chosen among the
  // channel's where igraph is 0. None: no weights.
  std::vector<int> channel;
};

// What a host evaluation returns: me per event; selhel (the 1-based MadGraph
// helicity) where rndhel was given, selcol (the 1-based colour flow) where
// rndcol was; empty otherwise.
struct EventResults {
  std::vector<double> me;
  std::vector<int> selhel, selcol;
};

// The diagram configurations of a process (MadEvent's igraph runs 1..this):
// 3, 15, 105, 945 for gg_tt .. gg_ttggg.
int configurations(Process process);
// The Feynman diagrams of a process (MadEvent's channel ids run 1..this,
// those with a configuration): 3, 16, 123, 1240.
int diagrams(Process process);
// The channel id MadEvent passes for configuration c (1..configurations):
// the configuration's diagram.
int configuration_channel(Process process, int configuration);

// What check_event_inputs throws about one event's value ("gs = nan must be
// finite and > 0").
class EventInputError : public EventError {
 public:
  using EventError::EventError;
};

// Throws hepex::Error unless every given input has `events` entries and
// igraph comes only with rndcol, and EventInputError unless gs is finite
// and > 0, rndhel and rndcol are in [0, 1), igraph is in
// [0, configurations] and channel is 0 or a diagram with a configuration.
void check_event_inputs(const ProcessInfo& process, std::size_t events, const EventInputs& inputs);

class MatrixElement {
 public:
  using Memory = DeviceSpace::memory_space;

  // The device API's per-event arguments (EventInputs, on the device); an
  // empty View is an argument not given; selhel with rndhel, selcol (and
  // optionally igraph) with rndcol; channel with or without the others. The
  // caller guarantees valid values (check_event_inputs).
  struct EventArguments {
    Kokkos::View<const double*, Memory> gs;
    Kokkos::View<const double*, Memory> rndhel;
    Kokkos::View<int*, Memory> selhel;
    Kokkos::View<const double*, Memory> rndcol;
    Kokkos::View<const int*, Memory> igraph;
    Kokkos::View<int*, Memory> selcol;
    Kokkos::View<const int*, Memory> channel;
  };

  explicit MatrixElement(Process process, MatrixElementOptions options = {},
                         const DeviceSpace& instance = DeviceSpace());
  ~MatrixElement();
  MatrixElement(const MatrixElement&) = delete;
  MatrixElement& operator=(const MatrixElement&) = delete;

  const ProcessInfo& info() const { return info_; }
  const MatrixElementOptions& options() const { return options_; }
  // Helicity combinations (MadGraph order, 0-based) with a non-zero |M|^2.
  const std::vector<int>& good_helicities() const { return good_; }
  // Teams of the kernel launches of one evaluation of `events` events, all
  // instances together (team kernel: units x ceil(events / events per team);
  // host lane kernel: one per pack of lanes events).
  std::size_t launch_teams(std::size_t events) const;

  // Device API: me(e) for the events of `momenta` (event, particle, mu), and
  // the choices asked for in `arguments`; the caller guarantees valid
  // momenta (check_momenta) and me.extent(0) events.
  // evaluate returns when `me` holds the values; evaluate_async only enqueues
  // the work, ordered after earlier work on this MatrixElement's instance, and
  // `me` holds the values after fence(). Until then `momenta` and `me` must
  // stay as they are. The next evaluation of this object runs after this one
  // in the instance's order (with options.streams > 1, evaluate_async first
  // waits for the previous evaluation).
  void evaluate(const MomentaView<Memory>& momenta, const Kokkos::View<double*, Memory>& me,
                const EventArguments& arguments = {});
  void evaluate_async(const MomentaView<Memory>& momenta, const Kokkos::View<double*, Memory>& me,
                      const EventArguments& arguments = {});
  void fence() const;

  // Host API: `momenta` event-major (see check_momenta) and `inputs`,
  // validated first (with this MatrixElement's top mass).
  std::vector<double> evaluate(const std::vector<double>& momenta,
                               MomentumCheck check = MomentumCheck::on_shell,
                               const MomentumTolerance& tolerance = {});
  EventResults evaluate(const std::vector<double>& momenta, const EventInputs& inputs,
                        MomentumCheck check = MomentumCheck::on_shell,
                        const MomentumTolerance& tolerance = {});

  // Per-helicity colour-summed |M|^2 (before averaging), helicity-major:
  // result[h * events + e]; for the probe and for tests.
  std::vector<double> per_helicity(const MomentaView<Memory>& momenta);

 private:
  // Each event's channel weight and the configuration its colour comes from
  // (channel_weights_, colour_configuration_) on the first instance.
  void weigh_channels(const MomentaView<Memory>& momenta, const EventArguments& arguments,
                      bool colour);
  // The host API's work for `events` events from `momenta` on.
  EventResults evaluate_batch(const double* momenta, std::size_t events, const EventInputs& inputs);

  const ProcessInfo& info_;
  MatrixElementOptions options_;
  std::unique_ptr<detail::Evaluator<DeviceSpace>> evaluator_;
  std::vector<DeviceSpace> streams_;
  std::vector<int> good_;
  bool lanes_ = false;  // the host lane kernel, not the team kernel
  // The process's icolamp table in Memory (detail/event_choices.hpp).
  Kokkos::View<std::uint64_t*, Memory> flow_choices_;
  int flow_words_ = 0;
  // The process's channel tables in Memory (detail/channel_weights.hpp), the
  // configuration of each diagram (0: none), and per event of the evaluation
  // in flight its weight and the configuration its colour comes from.
  Kokkos::View<short*, Memory> channel_diagrams_;
  Kokkos::View<signed char*, Memory> channel_forest_;
  Kokkos::View<short*, Memory> channel_nodes_, channel_config_nodes_;
  Kokkos::View<int*, Memory> diagram_configuration_;
  Kokkos::View<double*, Memory> channel_weights_;
  Kokkos::View<int*, Memory> colour_configuration_;
  // evaluate(std::vector...)'s device copies, kept for the next call of as
  // many events (evaluate_batch).
  struct Buffers {
    MomentaView<Memory> momenta;
    MomentaView<Memory>::HostMirror host_momenta;
    Kokkos::View<double*, Memory> me, gs, rndhel, rndcol;
    Kokkos::View<int*, Memory> igraph, channel, selhel, selcol;
  };
  Buffers buffers_;
};

}  // namespace hepex::amplitudes
