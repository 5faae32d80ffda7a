// hepex: the command-line front end (contract: docs/cli.md).
#include <cstring>
#include <iostream>
#include <set>
#include <string>

#include "commands.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/core/spaces.hpp"
#include "mpi_session.hpp"
#include "output.hpp"
#include "progress_lines.hpp"

namespace {

// Under several MPI ranks, the commands that take many jobs spread them over
// the ranks (docs/cli.md "Many jobs, many ranks"), reduce its probe batches;
// any other command runs on rank 0 alone.
bool runs_on_this_rank(int argc, char* argv[], const hepex::distributed::Communicator& comm) {
  if (comm.rank() == 0) return true;
  static const std::set<std::string> job_commands{"reconstruct", "rref", "me", "reduce"};
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] != '-') return job_commands.count(argv[i]) > 0;
  }
  return false;
}

// One GPU per rank: node-local rank modulo the GPUs the node shows.
int device_for_this_rank(const hepex::distributed::Communicator& comm) {
  if (comm.alone() || !hepex::has_accelerator) return -1;
  return hepex::distributed::device_for_rank(comm, static_cast<int>(hepex::devices().size()));
}

// Runs the command; errors are reported here, while MPI is still up: a rank
// that finalises and exits non-zero may make the launcher kill the others
// before rank 0 has said why.
int run_command(int argc, char* argv[], const hepex::distributed::Communicator& comm) {
  const int rank = comm.rank();
  try {
    if (!runs_on_this_rank(argc, argv, comm)) return 0;
    // Kokkos::initialize prints its own help on --help: hand it -h instead,
    // which Kokkos ignores and CLI11 reads as --help, so that the help is
    // hepex's alone. The --kokkos-* options are still Kokkos's.
    static char short_help[] = "-h";
    for (int i = 1; i < argc; ++i) {
      if (std::strcmp(argv[i], "--") == 0) break;
      if (std::strcmp(argv[i], "--help") == 0) argv[i] = short_help;
    }
    if (argc > 1 && std::strcmp(argv[1], "bench") == 0) {
      throw hepex::Error(
          "the benchmarks left the CLI: run the hepex_bench program (built in the build's "
          "perf/ folder), e.g. `hepex_bench gemm --prime 65521`; perf/README.md");
    }
    hepex::Runtime runtime(argc, argv, device_for_this_rank(comm));  // --kokkos-* options
    // A long run is never silent: a progress line every 30 s (-v: 2 s).
    const auto heartbeat = hepex::cli::quiet_progress(rank);

    CLI::App app{"hepex: exact and high-throughput kernels for high-energy physics"};
    app.require_subcommand(0, 1);
    // Every option's help shows its default (docs/cli.md).
    app.option_defaults()->always_capture_default();
    app.footer(
        "Exit codes: 0 success, 1 invalid input or usage, 2 runtime failure, "
        "3 a negative answer. Kokkos options (--kokkos-device-id=N, "
        "--kokkos-disable-warnings, ...) are passed to Kokkos. Contract: docs/cli.md.");
    app.set_version_flag("--version", hepex::version_line());
    hepex::cli::add_info_command(app);
    hepex::cli::add_demo_command(app);
    hepex::cli::add_linalg_commands(app);
    hepex::cli::add_reconstruct_command(app);
    hepex::cli::add_reduce_command(app);
    hepex::cli::add_me_command(app);
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      // --help and --version exit 0; any usage error is exit 1 (docs/cli.md).
      if (rank != 0) return e.get_exit_code() == 0 ? 0 : 1;
      const int code = app.exit(e);
      return code == 0 ? 0 : 1;
    }
    if (app.get_subcommands().empty()) {
      if (rank == 0) std::cout << app.help();
      return 1;
    }
    hepex::cli::check_stdout();
    return 0;
  } catch (const hepex::Error& e) {
    // Job commands fail alike on every rank (distributed/jobs.hpp): rank 0 says why.
    if (rank == 0) std::cerr << "hepex: " << e.what() << std::endl;
    return e.exit_code();
  } catch (const std::exception& e) {
    std::cerr << "hepex: runtime failure: " << e.what() << std::endl;
    return 2;
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  try {
    hepex::cli::MpiSession mpi(argc, argv);
    const int code = run_command(argc, argv, mpi.comm());
    std::cout.flush();
    // Every rank's output and message are written before any rank finalises
    // and exits. A runtime failure (exit 2) may be one rank's alone: that rank
    // has said why and leaves without waiting for the others.
    if (code != 2) mpi.comm().barrier();
    return code;
  } catch (const std::exception& e) {
    std::cerr << "hepex: runtime failure: " << e.what() << std::endl;
    return 2;
  }
}
