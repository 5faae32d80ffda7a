#pragma once
// The top-line family's evaluator factory: g g -> t tbar + n gluons, legs
// g g t tbar g ... (the colour-ordered recursion of colour_ordered.hpp along
// the top line). The registry (generated/process_table.hpp) names
// make_top_line_gluons_evaluator<NG> for each of the family's processes; it
// builds the host SIMD lane evaluator (lane_evaluator.hpp) where the build has
// one and the colour sum is the kernel's, else the team kernel
// (team_evaluator.hpp) at the options' precision.

#include <memory>
#include <string>

#include "hepex/amplitudes/detail/helicity_units.hpp"
#include "hepex/amplitudes/detail/lane_evaluator.hpp"
#include "hepex/amplitudes/detail/process_registry.hpp"
#include "hepex/amplitudes/detail/team_evaluator.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/config.hpp"
#include "hepex/core/error.hpp"

namespace hepex::amplitudes::detail {

// The process has the family's legs: g g t tbar and NG - 2 more gluons, in
// MadGraph's helicity order for them (top_line_helicity).
inline void check_top_line_gluons(const ProcessInfo& info, int NG) {
  bool fits = info.particles == NG + 2 && info.gluons == NG &&
              info.reversed_helicities == top_line_reversed_helicities;
  for (int i = 0; fits && i < info.particles; ++i) {
    fits = info.pdg[i] == (i == 2 ? 6 : i == 3 ? -6 : 21);
  }
  if (!fits) {
    throw Error(std::string(info.name) + " (" + info.madgraph +
                    "): not g g > t t~ + gluons, the legs of the top-line family's kernels",
                ErrorKind::runtime);
  }
}

template <int NG>
std::unique_ptr<Evaluator<DeviceSpace>> make_top_line_gluons_evaluator(
    Process process, const MatrixElementOptions& o) {
  check_top_line_gluons(process_info(process), NG);
  const TopQuark top{o.parameters.top_mass, o.parameters.top_width};
#if HEPEX_HAS_ME_LANES
  if (uses_lane_kernel(o)) {
    return std::make_unique<LaneEvaluator<DeviceSpace>>(
        process, top, lane_kernel(o.simd, process, o.precision), true);
  }
#endif
  const TeamShape shape{o.team_size, o.events_per_team};
  switch (o.precision) {
    case Precision::double_precision:
      return std::make_unique<EvaluatorOf<DeviceSpace, NG, double, double>>(process, top,
                                                                            o.colour_sum, shape);
    case Precision::single_precision:
      return std::make_unique<EvaluatorOf<DeviceSpace, NG, float, float>>(process, top,
                                                                          o.colour_sum, shape);
    case Precision::mixed:
      return std::make_unique<EvaluatorOf<DeviceSpace, NG, double, float>>(process, top,
                                                                           o.colour_sum, shape);
  }
  throw Error("unknown precision", ErrorKind::runtime);
}

}  // namespace hepex::amplitudes::detail
