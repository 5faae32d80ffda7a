// Process names and helicities from the registry, and the parsers of
// process / precision / colour-sum names.
#include "hepex/amplitudes/process.hpp"

#include "hepex/amplitudes/detail/process_registry.hpp"
#include "hepex/core/error.hpp"

namespace hepex::amplitudes {

const ProcessInfo& process_info(Process process) { return detail::process_entry(process).info; }

const std::vector<Process>& all_processes() {
  static const std::vector<Process> all = [] {
    std::vector<Process> processes;
    for (int i = 0; i < process_count; ++i) processes.push_back(static_cast<Process>(i));
    return processes;
  }();
  return all;
}

std::string process_names() {
  std::string names;
  for (const Process p : all_processes())
    names += (names.empty() ? "" : ", ") + std::string(process_info(p).name);
  std::string aliases;
  for (const ProcessAlias& alias : process_aliases) {
    aliases += (aliases.empty() ? "" : ", ") + std::string(alias.name) + " = " +
               process_info(alias.process).name;
  }
  return names + " (MadGraph's " + aliases + ")";
}

Process parse_process(const std::string& name) {
  for (const Process p : all_processes())
    if (name == process_info(p).name) return p;
  for (const ProcessAlias& alias : process_aliases)
    if (name == alias.name) return alias.process;
  throw Error("process '" + name + "': expected one of " + process_names());
}

int helicity(const ProcessInfo& info, int combination, int particle) {
  if (combination < 0 || combination >= info.helicity_combinations || particle < 0 ||
      particle >= info.particles) {
    throw Error(std::string(info.name) + ": no helicity combination " +
                std::to_string(combination) + " / particle " + std::to_string(particle));
  }
  const int value = (combination >> (info.particles - 1 - particle)) & 1 ? 1 : -1;
  return (info.reversed_helicities >> particle) & 1 ? -value : value;
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
