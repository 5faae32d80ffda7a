// The host ME kernel for AVX2 + FMA: 4 doubles or 8 floats per pack.
// Compiled with -mavx2 -mfma (src/CMakeLists.txt); called only after
// resolve_simd has checked the CPU (simd.cpp). Tag keeps every instantiation
// local to this file (detail/lanes.hpp).
#include "hepex/amplitudes/detail/lane_kernel.hpp"

namespace hepex::amplitudes::detail {

namespace {
struct Avx2 {};
}  // namespace

LaneKernel lane_kernel_avx2(Process process, Precision precision) {
  return lane_kernel_for<Avx2, stdx::native_simd<double>::size(), stdx::native_simd<float>::size()>(
      process, precision);
}

}  // namespace hepex::amplitudes::detail
