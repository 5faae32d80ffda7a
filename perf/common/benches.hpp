#pragma once
// The benchmarks of `hepex_bench` (perf/hepex_bench.cpp), one per file in the
// family's perf/ folder. Two kinds:
// - option benchmarks (rref, gemm, zippel, me): CLI11 subcommands with
//   --options, a table on stdout and --json; each add_*_bench registers one;
// - argument benchmarks (rref-flint, rref-api, row-space, rref-check,
//   spread-rref, npy-read, replay-rate, reconstruct): positional arguments, read by the
//   driver scripts in perf/; each *_main gets argv[0] = its name and the
//   arguments after it, and returns the exit status (bad input: a message on
//   stderr and 1, perf/common/bench_args.hpp).
// Kokkos is initialised once by hepex_bench's main.

#include <CLI/CLI.hpp>

#include "number_options.hpp"
#include "output.hpp"
#include "progress_lines.hpp"
#include "table.hpp"

namespace hepex::bench {

// The CLI's option and output helpers (src/cli: Table, OutputFile,
// whole_number, parse_prime_option, verbose_progress, ...).
using namespace hepex::cli;

void add_rref_bench(CLI::App& app);    // linalg/bench_rref_device.cpp
void add_gemm_bench(CLI::App& app);    // linalg/bench_gemm_device.cpp
void add_zippel_bench(CLI::App& app);  // reconstruct/bench_zippel.cpp
void add_me_bench(CLI::App& app);      // amplitudes/bench_me.cpp

int rref_flint_main(int argc, char* argv[]);   // linalg/bench_rref_flint.cpp
int rref_api_main(int argc, char* argv[]);     // python/bench_rref_api.cpp
int row_space_main(int argc, char* argv[]);    // linalg/bench_row_space.cpp
int rref_check_main(int argc, char* argv[]);   // linalg/bench_rref_check.cpp
int spread_rref_main(int argc, char* argv[]);  // linalg/bench_spread_rref.cpp
int npy_read_main(int argc, char* argv[]);     // linalg/bench_npy_read.cpp
int replay_rate_main(int argc, char* argv[]);  // reduce/replay_rate.cpp
int reconstruct_main(int argc, char* argv[]);  // reconstruct/reconstruct_bench.cpp

}  // namespace hepex::bench
