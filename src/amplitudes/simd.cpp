// The host kernel's instruction sets: which are compiled, which the CPU
// supports (GCC/Clang's __builtin_cpu_supports), and the choice.
#include "hepex/amplitudes/simd.hpp"

#include <algorithm>

#include "hepex/amplitudes/detail/lane_task.hpp"
#include "hepex/config.hpp"
#include "hepex/core/error.hpp"

namespace hepex::amplitudes {

namespace {

struct SimdName {
  Simd simd;
  const char* name;
};
constexpr SimdName names[] = {{Simd::automatic, "auto"},
                              {Simd::none, "none"},
                              {Simd::sse, "sse"},
                              {Simd::avx2, "avx2"},
                              {Simd::avx512, "avx512"}};

// What the CPU must offer for each set: the -m flags its kernel is compiled
// with (src/CMakeLists.txt).
bool cpu_supports(Simd simd) {
#if HEPEX_HAS_ME_LANES_X86
  __builtin_cpu_init();
  switch (simd) {
    case Simd::sse: return __builtin_cpu_supports("sse4.2");
    case Simd::avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Simd::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
    default: break;
  }
#endif
  return simd == Simd::none;
}

const char* cpu_lacks(Simd simd) {
  switch (simd) {
    case Simd::sse: return "SSE4.2";
    case Simd::avx2: return "AVX2 with FMA";
    case Simd::avx512: return "AVX-512 (F, DQ, VL and BW)";
    default: return "";
  }
}

}  // namespace

Simd parse_simd(const std::string& name) {
  for (const auto& n : names)
    if (name == n.name) return n.simd;
  throw Error("unknown SIMD choice '" + name + "' (auto, none, sse, avx2 or avx512)");
}

const char* simd_name(Simd simd) {
  for (const auto& n : names)
    if (simd == n.simd) return n.name;
  return "?";
}

// HEPEX_LANE_KERNEL_<ISA>: whether this library has that kernel (set per
// library target, src/CMakeLists.txt: the sanitized test library leaves
// AVX-512 out).
std::vector<Simd> simd_compiled() {
  std::vector<Simd> compiled{Simd::none};
  if (HEPEX_LANE_KERNEL_SSE) compiled.push_back(Simd::sse);
  if (HEPEX_LANE_KERNEL_AVX2) compiled.push_back(Simd::avx2);
  if (HEPEX_LANE_KERNEL_AVX512) compiled.push_back(Simd::avx512);
  return compiled;
}

std::vector<Simd> simd_supported() {
  std::vector<Simd> supported;
  for (const Simd s : simd_compiled())
    if (cpu_supports(s)) supported.push_back(s);
  return supported;
}

Simd resolve_simd(Simd requested) {
  if (requested == Simd::automatic) return simd_supported().back();
  const auto compiled = simd_compiled();
  if (std::find(compiled.begin(), compiled.end(), requested) == compiled.end()) {
    std::string have;
    for (const Simd s : compiled) have += std::string(have.empty() ? "" : ", ") + simd_name(s);
    throw Error(
        std::string("--simd ") + simd_name(requested) +
        ": this build has no host kernel for it (it has " + have +
        (HEPEX_HAS_ME_LANES ? ")" : "; a GPU build evaluates matrix elements on the device)"));
  }
  if (!cpu_supports(requested)) {
    throw Error(std::string("--simd ") + simd_name(requested) + ": this CPU lacks " +
                cpu_lacks(requested));
  }
  return requested;
}

int simd_lanes(Simd simd, Precision precision) {
#if HEPEX_HAS_ME_LANES
  return detail::lane_kernel(resolve_simd(simd), Process::gg_ttgg, precision).lanes;
#else
  resolve_simd(simd);
  return 1;
#endif
}

#if HEPEX_HAS_ME_LANES
detail::LaneKernel detail::lane_kernel(Simd resolved, Process process, Precision precision) {
  switch (resolved) {
#if HEPEX_LANE_KERNEL_SSE
    case Simd::sse: return lane_kernel_sse(process, precision);
#endif
#if HEPEX_LANE_KERNEL_AVX2
    case Simd::avx2: return lane_kernel_avx2(process, precision);
#endif
#if HEPEX_LANE_KERNEL_AVX512
    case Simd::avx512: return lane_kernel_avx512(process, precision);
#endif
    case Simd::none: return lane_kernel_none(process, precision);
    default: throw Error("lane_kernel: unresolved SIMD choice", ErrorKind::runtime);
  }
}
#endif

}  // namespace hepex::amplitudes
