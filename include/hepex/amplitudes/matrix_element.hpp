#pragma once
// |M|^2 of g g -> t tbar + n g at LO, summed over helicities and colours and
// averaged as MadGraph does, for batches of events (engine of the amplitudes
// family; ARCHITECTURE.md "Data flow").
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
// several generator jobs sharing one GPU use it (perf/results/me.md).

#include <memory>
#include <vector>

#include "hepex/amplitudes/detail/evaluator.hpp"
#include "hepex/amplitudes/momenta.hpp"
#include "hepex/amplitudes/parameters.hpp"
#include "hepex/amplitudes/process.hpp"
#include "hepex/amplitudes/simd.hpp"
#include "hepex/core/spaces.hpp"

namespace hepex::amplitudes {

struct MatrixElementOptions {
  Precision precision = Precision::double_precision;
  ColourSumMethod colour_sum = ColourSumMethod::kernel;
  double width = top_width;  // top width in every top propagator [GeV]
  // Most execution-space instances used at once. One launch over all units
  // fills an H100 from ~100 events; more instances only add launches and
  // fences (perf/results/me.md).
  int streams = 1;
  // The GPU team kernel's threads per team and events per team; 0: the
  // measured choice for the process (team_shape, matrix_element.cpp). The
  // host kernel (one thread per pack of lanes events) takes none: options()
  // reports 1 and the lanes.
  int team_size = 0;
  int events_per_team = 0;
  // Host builds: the instruction set of the host kernel (automatic: the
  // widest the CPU has); options() reports the one used. GPU builds, and the
  // BLAS colour sum (the team kernel): automatic or none only.
  Simd simd = Simd::automatic;
};

class MatrixElement {
 public:
  using Memory = DeviceSpace::memory_space;

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

  // Device API: me(e) for the events of `momenta` (event, particle, mu); the
  // caller guarantees valid momenta (check_momenta) and me.extent(0) events.
  // evaluate returns when `me` holds the values; evaluate_async only enqueues
  // the work, ordered after earlier work on this MatrixElement's instance, and
  // `me` holds the values after fence(). Until then `momenta` and `me` must
  // stay as they are. The next evaluation of this object runs after this one
  // in the instance's order (with options.streams > 1, evaluate_async first
  // waits for the previous evaluation).
  void evaluate(const MomentaView<Memory>& momenta, const Kokkos::View<double*, Memory>& me);
  void evaluate_async(const MomentaView<Memory>& momenta, const Kokkos::View<double*, Memory>& me);
  void fence() const;

  // Host API: `momenta` event-major (see check_momenta), validated first.
  std::vector<double> evaluate(const std::vector<double>& momenta,
                               MomentumCheck check = MomentumCheck::on_shell,
                               const MomentumTolerance& tolerance = {});

  // Per-helicity colour-summed |M|^2 (before averaging), helicity-major:
  // result[h * events + e]; for the probe and for tests.
  std::vector<double> per_helicity(const MomentaView<Memory>& momenta);

 private:
  const ProcessInfo& info_;
  MatrixElementOptions options_;
  std::unique_ptr<detail::Evaluator<DeviceSpace>> evaluator_;
  std::vector<DeviceSpace> streams_;
  std::vector<int> good_;
  bool lanes_ = false;  // the host lane kernel, not the team kernel
};

}  // namespace hepex::amplitudes
