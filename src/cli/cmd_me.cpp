// `hepex me`: LO matrix elements of g g -> t tbar + n g (CLI.md "Matrix elements").
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/amplitudes/rambo.hpp"
#include "hepex/core/error.hpp"

namespace hepex::cli {

namespace {

using namespace hepex::amplitudes;

struct MeOptions {
  std::string process;
  std::size_t events = 16384;
  std::uint64_t seed = 20261122;
  double sqrt_s = 1500.0;
  std::string precision = "double";
  std::string colour_sum = "kernel";
  std::string momenta_path;
  std::string out_path;
  std::string json_path;
};

// One event per non-empty, non-'#' line: 4 * particles numbers.
std::vector<double> read_momenta(std::istream& in, const std::string& name, int particles) {
  std::vector<double> momenta;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string field;
    int count = 0;
    while (fields >> field) {
      std::size_t used = 0;
      double value = 0;
      try {
        value = std::stod(field, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != field.size()) {
        throw Error(name + ":" + std::to_string(number) + ": '" + field + "' is not a number");
      }
      momenta.push_back(value);
      ++count;
    }
    if (count != 4 * particles) {
      throw Error(name + ":" + std::to_string(number) + ": " + std::to_string(count) +
                  " numbers, expected " + std::to_string(4 * particles) + " (E px py pz for " +
                  std::to_string(particles) + " particles)");
    }
  }
  if (momenta.empty()) throw Error(name + ": no events");
  return momenta;
}

void run_me(const MeOptions& o) {
  const Process process = parse_process(o.process);
  const auto& info = process_info(process);
  MatrixElementOptions options;
  options.precision = parse_precision(o.precision);
  options.colour_sum = parse_colour_sum(o.colour_sum);
  if (o.momenta_path.empty() && o.events == 0) throw Error("--events must be at least 1");

  std::ofstream file;
  if (!o.out_path.empty()) {
    file.open(o.out_path);
    if (!file) throw Error("--out: cannot write '" + o.out_path + "'");
  }
  std::ostream& out = o.out_path.empty() ? std::cout : file;

  if (!o.momenta_path.empty()) {
    std::vector<double> momenta;
    if (o.momenta_path == "-") {
      momenta = read_momenta(std::cin, "stdin", info.particles);
    } else {
      std::ifstream in(o.momenta_path);
      if (!in) throw Error("--momenta: cannot read '" + o.momenta_path + "'");
      momenta = read_momenta(in, o.momenta_path, info.particles);
    }
    try {
      check_momenta(info, momenta.data(), momenta.size());
    } catch (const Error& e) {
      throw Error(o.momenta_path + ": " + e.what());
    }
    MatrixElement me(process, options);
    const auto values = me.evaluate(momenta);
    const std::size_t per_event = 4 * info.particles;
    out << std::setprecision(std::numeric_limits<double>::max_digits10);
    for (std::size_t e = 0; e < values.size(); ++e) {
      for (std::size_t k = 0; k < per_event; ++k) out << momenta[e * per_event + k] << ' ';
      out << values[e] << '\n';
    }
    return;
  }

  MatrixElement me(process, options);
  MomentaView<MatrixElement::Memory> momenta("hepex::me_momenta", o.events, info.particles, 4);
  rambo(DeviceSpace(), momenta, o.sqrt_s, o.seed);
  Kokkos::View<double*, MatrixElement::Memory> values("hepex::me_values", o.events);
  DeviceSpace().fence();
  const auto start = std::chrono::steady_clock::now();
  me.evaluate(momenta, values);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double sum = 0;
  Kokkos::parallel_reduce(
      "hepex::me_mean", Kokkos::RangePolicy<DeviceSpace>(0, o.events),
      KOKKOS_LAMBDA(int e, double& acc) { acc += values(e); }, sum);
  out << "process " << info.name << ", " << o.events << " RAMBO events at sqrt(s) = " << o.sqrt_s
      << " GeV, seed " << o.seed << ", precision " << precision_name(options.precision)
      << ", colour sum " << o.colour_sum << ", " << me.good_helicities().size() << "/"
      << info.helicity_combinations << " good helicities, " << DeviceSpace::name() << '\n';
  out << std::setprecision(6) << "time " << seconds << " s, throughput " << o.events / seconds
      << " MEs/s\n";
  out << std::setprecision(10) << "mean ME " << sum / o.events << ' ' << info.me_units << '\n';
  if (!o.json_path.empty()) {
    std::ofstream json(o.json_path);
    if (!json) throw Error("--json: cannot write '" + o.json_path + "'");
    json << nlohmann::json{{"command", "me"},
                           {"process", info.name},
                           {"events", o.events},
                           {"sqrt_s", o.sqrt_s},
                           {"seed", o.seed},
                           {"precision", precision_name(options.precision)},
                           {"colour_sum", o.colour_sum},
                           {"good_helicities", me.good_helicities().size()},
                           {"execution_space", DeviceSpace::name()},
                           {"seconds", seconds},
                           {"mes_per_second", o.events / seconds},
                           {"mean_me", sum / o.events},
                           {"me_units", info.me_units}}
                .dump(2)
         << '\n';
  }
}

}  // namespace

void add_me_command(CLI::App& app) {
  auto o = std::make_shared<MeOptions>();
  auto* me = app.add_subcommand("me", "LO matrix elements of g g -> t tbar + 0..3 gluons");
  me->add_option("--process", o->process, "gg_tt, gg_ttg, gg_ttgg or gg_ttggg")->required();
  me->add_option("--events", o->events, "number of RAMBO events (without --momenta)");
  me->add_option("--seed", o->seed, "RAMBO random seed");
  me->add_option("--sqrts", o->sqrt_s, "collision energy sqrt(s) [GeV]");
  me->add_option("--precision", o->precision, "double, float or mixed");
  me->add_option("--colour-sum", o->colour_sum, "kernel or blas");
  me->add_option("--momenta", o->momenta_path, "events to evaluate, one per line ('-': stdin)");
  me->add_option("--out", o->out_path, "write to FILE instead of stdout");
  me->add_option("--json", o->json_path, "RAMBO runs: write a JSON summary to FILE");
  me->callback([o] { run_me(*o); });
}

}  // namespace hepex::cli
