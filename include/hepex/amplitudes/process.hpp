#pragma once
// The processes g g -> t tbar + n gluons (n = 0..3): names, sizes, helicity
// tables and MadGraph's averaging denominators.

#include <array>
#include <string>
#include <vector>

#include <Kokkos_Macros.hpp>

namespace hepex::amplitudes {

enum class Process { gg_tt, gg_ttg, gg_ttgg, gg_ttggg };

// Floating-point types of an evaluation: amplitudes and colour sum in double,
// both in float, or "mixed" (amplitudes double, colour sum float; CUDACPP's
// FPTYPE=m).
enum class Precision { double_precision, single_precision, mixed };

// How the colour sum is evaluated: our own kernel, or a BLAS GEMM.
enum class ColourSumMethod { kernel, blas };

struct ProcessInfo {
  Process process;
  const char* name;           // "gg_tt", ...
  int gluons;                 // all gluons, incoming included: 2..5
  int particles;              // gluons + 2 (particle order: g g t tbar g...)
  int colour_flows;           // (gluons)!: the orderings of the gluons along the top line
  int helicity_combinations;  // 2^particles
  double averaging;           // helcolDenominator: 4 (spins) x 64 (colours) x (gluons-2)!
  const char* me_units;       // "GeV^0", "GeV^-2", ...
};

const ProcessInfo& process_info(Process process);

// "gg_tt" | "gg_ttg" | "gg_ttgg" | "gg_ttggg"; hepex::Error otherwise.
Process parse_process(const std::string& name);
Precision parse_precision(const std::string& name);         // "double" | "float" | "mixed"
ColourSumMethod parse_colour_sum(const std::string& name);  // "kernel" | "blas"
const char* precision_name(Precision precision);

// The helicity of particle `particle` in combination `combination`, in
// MadGraph's order (SelHel - 1): the last particle varies fastest, every
// particle runs -1, +1 except the tbar (particle 3), which runs +1, -1.
KOKKOS_INLINE_FUNCTION int helicity(int combination, int particle, int particles) {
  const int bit = (combination >> (particles - 1 - particle)) & 1;
  const int value = bit != 0 ? 1 : -1;
  return particle == 3 ? -value : value;
}

}  // namespace hepex::amplitudes
