// The host ME kernel for SSE4.2: 2 doubles or 4 floats per pack.
// Compiled with -msse4.2 (src/CMakeLists.txt); called only after
// resolve_simd has checked the CPU (simd.cpp). Tag keeps every instantiation
// local to this file (detail/lanes.hpp).
#include "hepex/amplitudes/detail/lane_kernel.hpp"

namespace hepex::amplitudes::detail {

namespace {
struct Sse {};
}  // namespace

LaneKernel lane_kernel_sse(Process process, Precision precision) {
  return lane_kernel_for<Sse, stdx::native_simd<double>::size(), stdx::native_simd<float>::size()>(
      process, precision);
}

}  // namespace hepex::amplitudes::detail
