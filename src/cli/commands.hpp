#pragma once
// The `hepex` subcommands. Each add_* registers one subcommand on the app; its
// callback does the work through the library (the CLI holds no logic).

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace hepex::cli {

// A --prime value: decimal digits only, below 2^63 (primality is checked by
// the field); hepex::Error otherwise.
std::uint64_t parse_prime_option(const std::string& text);

void add_info_command(CLI::App& app);
void add_demo_command(CLI::App& app);
void add_linalg_commands(CLI::App& app);  // rref, rank, nullspace, solve
void add_bench_commands(CLI::App& app);   // bench rref, bench gemm, bench zippel, bench me
void add_bench_gemm_command(CLI::App& bench);
void add_bench_zippel_command(CLI::App& bench);
void add_bench_me_command(CLI::App& bench);
void add_reconstruct_command(CLI::App& app);
void add_reduce_command(CLI::App& app);  // reduce (IBP systems)
void add_me_command(CLI::App& app);      // me (amplitudes)

}  // namespace hepex::cli
