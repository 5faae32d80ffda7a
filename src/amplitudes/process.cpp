// Process table and the parsers of process / precision / colour-sum names.
#include "hepex/amplitudes/process.hpp"

#include "hepex/core/error.hpp"

namespace hepex::amplitudes {

namespace {

// helcolDenominator = 4 (two gluon spins) x 64 (two gluon colours) x (n_g!)
// for n_g identical outgoing gluons; ME units GeV^(4 - 2 * particles + 4).
const ProcessInfo table[] = {
    {Process::gg_tt, "gg_tt", 2, 4, 2, 16, 256, "GeV^0"},
    {Process::gg_ttg, "gg_ttg", 3, 5, 6, 32, 256, "GeV^-2"},
    {Process::gg_ttgg, "gg_ttgg", 4, 6, 24, 64, 512, "GeV^-4"},
    {Process::gg_ttggg, "gg_ttggg", 5, 7, 120, 128, 1536, "GeV^-6"},
};

}  // namespace

const ProcessInfo& process_info(Process process) { return table[static_cast<int>(process)]; }

Process parse_process(const std::string& name) {
  for (const auto& info : table)
    if (name == info.name) return info.process;
  throw Error("process '" + name + "': expected gg_tt, gg_ttg, gg_ttgg or gg_ttggg");
}

Precision parse_precision(const std::string& name) {
  if (name == "double") return Precision::double_precision;
  if (name == "float") return Precision::single_precision;
  if (name == "mixed") return Precision::mixed;
  throw Error("precision '" + name + "': expected double, float or mixed");
}

ColourSumMethod parse_colour_sum(const std::string& name) {
  if (name == "kernel") return ColourSumMethod::kernel;
  if (name == "blas") return ColourSumMethod::blas;
  throw Error("colour sum '" + name + "': expected kernel or blas");
}

const char* precision_name(Precision precision) {
  switch (precision) {
    case Precision::double_precision: return "double";
    case Precision::single_precision: return "float";
    case Precision::mixed: return "mixed";
  }
  return "?";
}

}  // namespace hepex::amplitudes
