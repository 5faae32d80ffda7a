#pragma once
// What the job commands (reconstruct --file, rref with several files, me
// --batches) share: the --checkpoint / --schedule / --chunk options, and
// inputs read once on rank 0 (the only rank that sees stdin under mpiexec).

#include <CLI/CLI.hpp>
#include <string>

#include "hepex/distributed/job.hpp"

namespace hepex::cli {

struct JobCliOptions {
  std::string checkpoint;
  std::string schedule = "static";
  std::size_t chunk = 1;
};

// Adds --checkpoint DIR, --schedule static|dynamic, --chunk N (default `chunk`).
void add_job_options(CLI::App& cmd, JobCliOptions& o, std::size_t chunk);

// The library's options (damaged checkpoint files reported on stderr).
distributed::RunOptions run_options(const JobCliOptions& o);

// The whole of `path` ('-': stdin) on every rank of comm, read by rank 0; a
// read error is thrown on every rank.
std::string read_on_rank0(const std::string& path, const distributed::Communicator& comm);

}  // namespace hepex::cli
