#pragma once
// The `hepex` subcommands. Each add_* registers one subcommand on the app; its
// callback does the work through the library (the CLI holds no logic).

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "number_options.hpp"  // parse_prime_option

namespace hepex::cli {

void add_info_command(CLI::App& app);
void add_demo_command(CLI::App& app);
void add_linalg_commands(CLI::App& app);  // rref, rank, nullspace, solve
void add_reconstruct_command(CLI::App& app);
void add_reduce_command(CLI::App& app);  // reduce (IBP systems)
void add_me_command(CLI::App& app);      // me (amplitudes)

}  // namespace hepex::cli
