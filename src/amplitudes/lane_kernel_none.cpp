// The host ME kernel for no SIMD: one event per pack (the baseline the others are measured
// against). Compiled with the baseline flags (src/CMakeLists.txt); called only after resolve_simd
// has checked the CPU (simd.cpp). Tag keeps every instantiation local to this file
// (detail/lanes.hpp).
#include "hepex/amplitudes/detail/lane_kernel.hpp"

namespace hepex::amplitudes::detail {

namespace {
struct None {};
}  // namespace

LaneKernel lane_kernel_none(Process process, Precision precision) {
  return lane_kernel_for<None, 1, 1>(process, precision);
}

}  // namespace hepex::amplitudes::detail
