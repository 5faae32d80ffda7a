// The host ME kernel for AVX-512 (F, DQ, VL, BW): 8 doubles or 16 floats per pack.
// Compiled with -mavx512f -mavx512dq -mavx512vl -mavx512bw -mprefer-vector-width=512
// (src/CMakeLists.txt); called only after resolve_simd has checked the CPU (simd.cpp). Tag keeps
// every instantiation local to this file (detail/lanes.hpp).
#include "hepex/amplitudes/detail/lane_kernel.hpp"

namespace hepex::amplitudes::detail {

namespace {
struct Avx512 {};
}  // namespace

LaneKernel lane_kernel_avx512(Process process, Precision precision) {
  return lane_kernel_for<Avx512, stdx::native_simd<double>::size(),
                         stdx::native_simd<float>::size()>(process, precision);
}

}  // namespace hepex::amplitudes::detail
