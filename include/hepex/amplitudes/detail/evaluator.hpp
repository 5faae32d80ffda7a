#pragma once
// What the MatrixElement engine runs: one evaluation of one process at one
// precision, on the device's team kernel (team_evaluator.hpp) or the host's
// SIMD lane kernel (lane_evaluator.hpp), made by the process's evaluator
// family (process_registry.hpp).

#include <vector>

#include "hepex/amplitudes/detail/event_choices.hpp"
#include "hepex/amplitudes/momenta.hpp"

namespace hepex::amplitudes::detail {

// How a kernel launch is shaped: threads per team, events per team
// (0: chosen per process, team_shape_for).
struct TeamShape {
  int team_size = 0;
  int events_per_team = 0;
};

// Runs one precision's kernels; the MatrixElement front end picks it at run time.
template <class ExecSpace>
class Evaluator {
 public:
  using Memory = typename ExecSpace::memory_space;
  virtual ~Evaluator() = default;
  // me(e) = (sum over the units of `helicities` (helicity_units) of their
  // colour-summed |M|^2) / scale for every event e of `momenta`, times the
  // event's coupling factor and with the choices asked for (`choices`,
  // event_choices.hpp; `helicities` in MadGraph's order then). Units are
  // dealt in contiguous blocks over `streams`; the caller fences them. Runs
  // on the same streams are ordered; the buffers are per Evaluator.
  virtual void run(const std::vector<ExecSpace>& streams, const MomentaView<Memory>& momenta,
                   const std::vector<int>& helicities, const Kokkos::View<double*, Memory>& me,
                   double scale, const EventChoices& choices) = 0;
};

}  // namespace hepex::amplitudes::detail
