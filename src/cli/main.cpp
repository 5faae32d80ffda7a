// hepex: the command-line front end (contract: docs CLI.md).
#include <iostream>

#include "commands.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"

int main(int argc, char* argv[]) {
  try {
    hepex::Runtime runtime(argc, argv);  // consumes --kokkos-* options

    CLI::App app{"hepex: exact and high-throughput kernels for high-energy physics"};
    app.require_subcommand(0, 1);
    app.set_version_flag("--version", hepex::version_line());
    hepex::cli::add_info_command(app);
    hepex::cli::add_demo_command(app);
    hepex::cli::add_linalg_commands(app);
    hepex::cli::add_bench_commands(app);
    hepex::cli::add_reconstruct_command(app);
    hepex::cli::add_me_command(app);
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      // --help and --version exit 0; any usage error is exit 1 (CLI.md).
      const int code = app.exit(e);
      return code == 0 ? 0 : 1;
    }
    if (app.get_subcommands().empty()) {
      std::cout << app.help();
      return 1;
    }
    return 0;
  } catch (const hepex::Error& e) {
    std::cerr << "hepex: " << e.what() << '\n';
    return e.exit_code();
  } catch (const std::exception& e) {
    std::cerr << "hepex: runtime failure: " << e.what() << '\n';
    return 2;
  }
}
