// `hepex info`: what this build and machine offer.
#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "hepex/amplitudes/simd.hpp"
#include "hepex/config.hpp"
#include "hepex/core/runtime.hpp"

namespace hepex::cli {

namespace {

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) text += (i ? separator : "") + items[i];
  return text;
}

std::string simd_names(const std::vector<amplitudes::Simd>& sets) {
  std::vector<std::string> names;
  for (const auto s : sets) names.push_back(amplitudes::simd_name(s));
  return join(names, ", ");
}

// The ME host kernel's instruction set: what --simd auto picks here.
std::string me_simd() {
  using namespace amplitudes;
  if (!HEPEX_HAS_ME_LANES) return "none (matrix elements run on the device)";
  const Simd chosen = resolve_simd(Simd::automatic);
  return std::string("auto = ") + simd_name(chosen) + " (" +
         std::to_string(simd_lanes(chosen, Precision::double_precision)) + " doubles, " +
         std::to_string(simd_lanes(chosen, Precision::single_precision)) +
         " floats per pack); compiled: " + simd_names(simd_compiled()) +
         "; this CPU: " + simd_names(simd_supported());
}

std::string gib(std::size_t bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / (1u << 30) << " GiB";
  return out.str();
}

void print_info() {
  const BuildInfo info = build_info();
  std::cout << "hepex " << info.hepex_version << '\n'
            << "Kokkos:           " << info.kokkos_version << '\n'
            << "execution spaces: " << join(info.exec_spaces, ", ")
            << " (default: " << info.default_space << ")\n"
            << "devices:\n";
  const auto found = devices();
  for (std::size_t d = 0; d < found.size(); ++d) {
    std::cout << "  [" << d << "] " << found[d].kind << ": " << found[d].name << ", "
              << gib(found[d].memory_bytes) << '\n';
  }
  if (found.empty()) std::cout << "  (none visible)\n";
  std::cout << "MPI:              "
            << (info.mpi ? "yes (" + info.mpi_library + ")" : std::string("no (built without)"))
            << '\n'
            << "BLAS paths:       " << join(info.blas_paths, "; ") << '\n'
            << "ME SIMD (--simd): " << me_simd() << '\n';
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto* info = app.add_subcommand(
      "info", "Kokkos version, execution spaces, devices and memory, MPI, BLAS paths, ME SIMD");
  info->callback(print_info);
}

}  // namespace hepex::cli
