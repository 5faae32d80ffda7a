#pragma once
// A list of independent jobs spread over the ranks of a communicator
// (docs/distributed.md), with results gathered on rank 0 in job
// order and, optionally, stored as they finish so that a killed run can be
// restarted (checkpoint.hpp).
//
// The results never depend on how many ranks ran them: each job is a pure
// function of its index and the command's inputs, and rank 0 assembles them by
// index. That is what makes a multi-rank run's output byte-identical to a
// single-rank one.

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "hepex/distributed/communicator.hpp"

namespace hepex::distributed {

enum class Schedule {
  static_blocks,  // rank r takes the r-th contiguous block of the jobs left
  dynamic         // ranks take the next chunk from a shared counter as they finish
};

// "static" or "dynamic"; hepex::Error otherwise.
Schedule parse_schedule(const std::string& name);

struct JobOptions {
  Schedule schedule = Schedule::static_blocks;
  std::size_t chunk = 1;             // jobs handed to `run` at once (e.g. batched on a GPU)
  std::string checkpoint;            // directory for finished results; empty: none
  std::string identity;              // everything the results depend on (for the checkpoint)
  std::ostream* messages = nullptr;  // rank 0: damaged checkpoint files are reported here
  // Whether a result stored in the checkpoint may be used (e.g. not a failure
  // that more effort could turn into an answer); empty: every result may.
  std::function<bool(const std::string& result)> reusable;
};

// Computes the results of the given jobs (indices ascending), one per job.
using RunJobs = std::function<std::vector<std::string>(const std::vector<std::size_t>& jobs)>;

// Runs jobs 0..count-1 over comm's ranks; collective. Returns every job's
// result in job order on rank 0 and an empty vector on the other ranks.
// If jobs fail (run throws), every rank throws, once all have stopped, the
// error of the failed job with the lowest index: the same error on every rank
// count. Jobs found in the checkpoint are not run again.
std::vector<std::string> run_jobs(const Communicator& comm, std::size_t count, const RunJobs& run,
                                  const JobOptions& options = {});

}  // namespace hepex::distributed
