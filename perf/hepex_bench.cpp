// hepex_bench: every benchmark of hepex's own code in one program
// (perf/README.md). `hepex_bench NAME ...`: NAME is one of the benchmarks of
// perf/common/benches.hpp; `hepex_bench --help` lists them. Kokkos is set up
// here once (--kokkos-* options are Kokkos's); errors end in
// "hepex_bench: message" (or "hepex_bench NAME: message") and exit 1, or 2
// for a runtime failure, as the hepex CLI's do.
#include <algorithm>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "benches.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"

namespace {

struct ArgumentBench {
  const char* name;
  const char* summary;
  int (*main)(int argc, char* argv[]);
};

// The benchmarks that take positional arguments (each prints its usage).
const std::vector<ArgumentBench>& argument_benches() {
  using namespace hepex::bench;
  static const std::vector<ArgumentBench> benches{
      {"rref-flint", "PRIME N1,N2,... [JSON]: FLINT's nmod_mat_rref on one core (the CPU anchor)",
       rref_flint_main},
      {"rref-api", "N P host|device REPEATS: the C++ host API's rref (beside Python's)",
       rref_api_main},
      {"row-space", "ROWS ADD COLS P host|device REPEATS: growing an echelon form vs a fresh RREF",
       row_space_main},
      {"rref-check", "N D SEED P [P ...]: one large RREF, every entry of the result checked",
       rref_check_main},
      {"spread-rref",
       "N D SEED W auto|host|nccl P [P ...]: one large RREF over MPI ranks, every entry checked",
       spread_rref_main},
      {"npy-read", "[N [M [REPEATS]]]: reading an N x N .npy beside an M x M Matrix Market file",
       npy_read_main},
      {"replay-rate", "SYSTEM ORDER TARGETS VARS [BATCH ...]: probes/s of reduce's replay",
       replay_rate_main},
      {"reconstruct", "FILE [--name N] [--seed S] [--box KIND]: one function beside FireFly's",
       reconstruct_main},
  };
  return benches;
}

const ArgumentBench* find_argument_bench(int argc, char* argv[]) {
  if (argc < 2) return nullptr;
  for (const auto& bench : argument_benches()) {
    if (std::strcmp(argv[1], bench.name) == 0) return &bench;
  }
  return nullptr;
}

int run(int argc, char* argv[]) {
  // Kokkos::initialize prints its own help on --help: CLI11 reads -h alike.
  static char short_help[] = "-h";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0) argv[i] = short_help;
  }
  hepex::Runtime runtime(argc, argv);  // removes the --kokkos-* options
  if (const ArgumentBench* bench = find_argument_bench(argc, argv)) {
    const std::string program = std::string("hepex_bench ") + bench->name;
    try {
      return bench->main(argc - 1, argv + 1);
    } catch (const std::exception& e) {
      std::cerr << program << ": " << e.what() << "\n";
      return 1;
    }
  }
  const auto heartbeat = hepex::cli::quiet_progress(0);  // a line every 30 s
  CLI::App app{"hepex_bench: hepex's benchmarks (perf/README.md)"};
  app.require_subcommand(1);
  app.option_defaults()->always_capture_default();
  std::string footer = "Benchmarks with positional arguments:\n";
  for (const auto& bench : argument_benches()) {
    footer += "  " + std::string(bench.name) + " " + bench.summary + "\n";
  }
  app.footer(footer);
  hepex::bench::add_rref_bench(app);
  hepex::bench::add_gemm_bench(app);
  hepex::bench::add_zippel_bench(app);
  hepex::bench::add_me_bench(app);
  const std::vector<CLI::App*> benches = app.get_subcommands({});
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(benches.begin(), benches.end(),
                   [&](const CLI::App* sub) { return sub->get_name() == argv[1]; })) {
    throw hepex::Error(std::string("unknown benchmark '") + argv[1] +
                       "': hepex_bench --help lists them");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // --help: 0; a usage error: 1
    return code == 0 ? 0 : 1;
  }
  hepex::cli::check_stdout();
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  try {
    return run(argc, argv);
  } catch (const hepex::Error& e) {
    std::cerr << "hepex_bench: " << e.what() << std::endl;
    return e.exit_code();
  } catch (const std::exception& e) {
    std::cerr << "hepex_bench: runtime failure: " << e.what() << std::endl;
    return 2;
  }
}
