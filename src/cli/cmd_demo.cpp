// `hepex demo`: a short run of every kernel family on one backend, as a table.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "hepex/amplitudes/self_check.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/self_check.hpp"
#include "hepex/linalg/self_check.hpp"
#include "hepex/reconstruct/self_check.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "table.hpp"

namespace hepex::cli {

namespace {

struct DemoOptions {
  std::string backend = has_accelerator ? "device" : "host";
  std::size_t cases = 1u << 20;
  std::size_t rref_size = 1024;
  std::uint64_t seed = 20261122;
  std::string json_path;
};

std::string milliseconds(double seconds) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << seconds * 1e3;
  return out.str();
}

void run_demo(const DemoOptions& options) {
  const Place backend = parse_place(options.backend);
  OutputFile json("--json", options.json_path);
  const BuildInfo info = build_info();
  std::cout << "hepex demo: hepex " << info.hepex_version << ", Kokkos " << info.kokkos_version
            << ", backend " << place_name(backend) << " ("
            << (backend == Place::device ? DeviceSpace::name() : HostSpace::name()) << "), seed "
            << options.seed << "\n\n";

  const auto rows = field::self_check(backend, options.cases, options.seed);
  Table table({"family", "check", "field", "parameter", "cases", "failures", "time [ms]"});
  nlohmann::json json_rows = nlohmann::json::array();
  std::size_t failures = 0;
  for (const auto& row : rows) {
    table.add_row({"field", "identities + host=device", row.field, row.parameter,
                   std::to_string(row.cases), std::to_string(row.failures),
                   milliseconds(row.seconds)});
    json_rows.push_back({{"family", "field"},
                         {"field", row.field},
                         {"parameter", row.parameter},
                         {"cases", row.cases},
                         {"failures", row.failures},
                         {"seconds", row.seconds}});
    failures += row.failures;
  }
  const auto rref = linalg::rref_self_check(backend, options.rref_size, 8, options.seed);
  table.add_row({"rref", "rank + A*nullspace = 0", "Zp32",
                 "p = 2147483647, n = " + std::to_string(rref.n) + ", rank " +
                     std::to_string(rref.rank) + "/" + std::to_string(rref.expected_rank),
                 "1", rref.passed ? "0" : "1", milliseconds(rref.seconds)});
  json_rows.push_back({{"family", "rref"},
                       {"field", "Zp32"},
                       {"n", rref.n},
                       {"rank", rref.rank},
                       {"expected_rank", rref.expected_rank},
                       {"failures", rref.passed ? 0 : 1},
                       {"seconds", rref.seconds}});
  failures += rref.passed ? 0 : 1;
  using linalg::GemmMethod;
  for (const auto& [p, methods] : std::vector<std::pair<std::uint64_t, std::vector<GemmMethod>>>{
           {65521, {GemmMethod::fp64, GemmMethod::int8, GemmMethod::int64}},
           {2147483647, {GemmMethod::multiword, GemmMethod::int8, GemmMethod::int64}}}) {
    const auto gemm = linalg::gemm_self_check(backend, 256, p, methods, options.seed);
    std::string names, times;
    nlohmann::json seconds;
    for (const auto& [method, time] : gemm.seconds) {
      names += std::string(names.empty() ? "" : " == ") + linalg::gemm_method_name(method);
      times += (times.empty() ? "" : " + ") + milliseconds(time);
      seconds[linalg::gemm_method_name(method)] = time;
    }
    table.add_row({"modgemm", names, "Zp32", "p = " + std::to_string(p) + ", 256 x 256 x 256", "1",
                   gemm.passed ? "0" : "1", times});
    json_rows.push_back({{"family", "modgemm"},
                         {"field", "Zp32"},
                         {"prime", p},
                         {"n", gemm.n},
                         {"failures", gemm.passed ? 0 : 1},
                         {"seconds", seconds}});
    failures += gemm.passed ? 0 : 1;
  }
  const auto zippel = reconstruct::self_check(options.seed);
  table.add_row({"reconstruct", "balanced Zippel + CRT = known answer", "Zp64 -> Q",
                 std::to_string(zippel.functions) + " functions, 4 variables, " +
                     std::to_string(zippel.terms) + " terms, " + std::to_string(zippel.primes) +
                     " primes",
                 "1", zippel.passed ? "0" : "1", milliseconds(zippel.seconds)});
  json_rows.push_back({{"family", "reconstruct"},
                       {"field", "Zp64"},
                       {"functions", zippel.functions},
                       {"terms", zippel.terms},
                       {"primes", zippel.primes},
                       {"failures", zippel.passed ? 0 : 1},
                       {"seconds", zippel.seconds}});
  failures += zippel.passed ? 0 : 1;
  // Amplitudes: MEs run on the default execution space whatever --backend says.
  const auto me = amplitudes::me_self_check(256, options.seed);
  std::ostringstream me_parameter;
  me_parameter << "gg_ttgg, reference event rel. err " << std::setprecision(2) << me.reference_error
               << ", " << std::fixed << std::setprecision(0) << me.events / me.seconds << " MEs/s";
  table.add_row({"amplitudes", "|M|^2 vs MadGraph + RAMBO batch", "double", me_parameter.str(),
                 std::to_string(me.events), me.passed ? "0" : "1", milliseconds(me.seconds)});
  json_rows.push_back({{"family", "amplitudes"},
                       {"process", "gg_ttgg"},
                       {"events", me.events},
                       {"reference_error", me.reference_error},
                       {"mes_per_second", me.events / me.seconds},
                       {"failures", me.passed ? 0 : 1},
                       {"seconds", me.seconds}});
  failures += me.passed ? 0 : 1;
  table.print(std::cout);
  std::cout << '\n' << (failures == 0 ? "all checks passed" : "CHECKS FAILED") << '\n';

  emit_json(json, {{"command", "demo"},
                   {"hepex", info.hepex_version},
                   {"kokkos", info.kokkos_version},
                   {"backend", place_name(backend)},
                   {"seed", options.seed},
                   {"rows", json_rows},
                   {"failures", failures}});
  if (failures != 0) {
    throw Error(std::to_string(failures) + " self-check cases failed", ErrorKind::runtime);
  }
}

}  // namespace

void add_demo_command(CLI::App& app) {
  auto options = std::make_shared<DemoOptions>();
  auto* demo = app.add_subcommand("demo", "short run of every kernel family, as a table");
  demo->add_option("--backend", options->backend,
                   "host or device execution space (default: device if the build has one)")
      ->check(CLI::IsMember({"host", "device"}));
  demo->add_option("--cases", options->cases, "random cases per check")
      ->check(whole_number(1, std::size_t{1} << 30));
  demo->add_option("--seed", options->seed, "random seed")->check(whole_number());
  demo->add_option("--rref-size", options->rref_size, "order of the demo's RREF matrix")
      ->check(whole_number(1, std::size_t{1} << 15));
  demo->add_option("--json", options->json_path, "write a JSON summary to FILE (default: none)");
  demo->callback([options] { run_demo(*options); });
}

}  // namespace hepex::cli
