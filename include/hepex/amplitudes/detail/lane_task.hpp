#pragma once
// What the host lane kernel (detail/lane_kernel.hpp, compiled once per
// instruction set) and the code calling it (detail/lane_evaluator.hpp,
// compiled for the baseline) share: plain data and function pointers, so
// that nothing compiled for a wider instruction set is reached before the
// CPU has been asked (simd.hpp).

#include <cstddef>

#include "hepex/amplitudes/detail/event_choices.hpp"
#include "hepex/amplitudes/detail/helicity_units.hpp"
#include "hepex/amplitudes/process.hpp"
#include "hepex/amplitudes/simd.hpp"

namespace hepex::amplitudes::detail {

// One evaluation: every pointer is host memory.
struct LaneTask {
  const double* momenta;  // momenta(e, i, mu) at e + stride_particle i + stride_mu mu
  std::size_t events;
  std::size_t stride_particle, stride_mu;
  const int* sub;   // CurrentPlan::sub, row-major, (NG + 1)^2 per sequence
  const int* mask;  // CurrentPlan::mask
  const HelicityUnit* units;
  int unit_count;
  const int* good;  // the good helicities in MadGraph's order (HelicityUnit::slot indexes it)
  int good_count;
  TopQuark top;
  double denominator;  // of the colour matrix
  double scale;        // averaging: me = sum over units / scale
  double* me;          // (events)
  EventChoices choices;
  const int* order;    // the colour-flow kernel's order of the good helicities (indices into good)
  int coupling_power;  // of the per-event gs (ProcessInfo::coupling_power)
  unsigned reversed;   // ProcessInfo::reversed_helicities (the colour-flow kernel's helicities)
};

struct LaneKernel {
  // Computes me for the events [pack * lanes, pack * lanes + lanes) of the
  // task (fewer in the last pack), in `scratch` (scratch_bytes, aligned to
  // scratch_alignment).
  void (*run)(const LaneTask& task, std::size_t pack, void* scratch) = nullptr;
  int lanes = 0;
  std::size_t scratch_bytes = 0;
};
inline constexpr std::size_t scratch_alignment = 64;

// The kernel for `process` in `precision`, per instruction set (one
// translation unit each, src/amplitudes/lane_kernel_*.cpp): the top-line
// family's (lane_kernel.hpp) or the colour-flow family's
// (colour_flow_lane_kernel.hpp).
LaneKernel lane_kernel_none(Process process, Precision precision);
LaneKernel lane_kernel_sse(Process process, Precision precision);
LaneKernel lane_kernel_avx2(Process process, Precision precision);
LaneKernel lane_kernel_avx512(Process process, Precision precision);

// The kernel of a resolved choice (resolve_simd): one of the above (simd.cpp).
LaneKernel lane_kernel(Simd resolved, Process process, Precision precision);

}  // namespace hepex::amplitudes::detail
