#pragma once
// The `hepex` subcommands. Each add_* registers one subcommand on the app; its
// callback does the work through the library (the CLI holds no logic).

#include <CLI/CLI.hpp>

namespace hepex::cli {

void add_info_command(CLI::App& app);
void add_demo_command(CLI::App& app);
void add_linalg_commands(CLI::App& app);  // rref, rank, nullspace, solve
void add_bench_commands(CLI::App& app);   // bench rref

}  // namespace hepex::cli
