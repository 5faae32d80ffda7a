#pragma once
// Which SIMD instruction set the host ME kernel runs on. A host build carries
// the kernel compiled for several x86-64 instruction sets (events in vector
// lanes, detail/lanes.hpp) and picks one at run time from what the CPU
// offers, so one binary runs on any x86-64 and uses AVX-512 where it exists.
// GPU builds run the device kernel and have only `none`.

#include <string>
#include <vector>

#include "hepex/amplitudes/process.hpp"

namespace hepex::amplitudes {

enum class Simd { automatic, none, sse, avx2, avx512 };

// "auto" | "none" | "sse" | "avx2" | "avx512"; hepex::Error otherwise.
Simd parse_simd(const std::string& name);
const char* simd_name(Simd simd);

// The instruction sets this build has a host kernel for (none first), and
// those of them the CPU running it supports.
std::vector<Simd> simd_compiled();
std::vector<Simd> simd_supported();

// The instruction set an evaluation with `requested` runs on: automatic is
// the widest supported one; another choice must be compiled and supported
// (hepex::Error saying which is missing otherwise).
Simd resolve_simd(Simd requested);

// Events per pack of the host kernel for `simd` (resolved) and `precision`:
// 1 for none; the vector width in doubles (double, mixed) or floats.
int simd_lanes(Simd simd, Precision precision);

}  // namespace hepex::amplitudes
