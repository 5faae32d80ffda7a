#pragma once
// A family's list of independent jobs, as one object: what the results depend
// on (the checkpoint's identity), how many jobs there are, how a chunk of them
// runs, and how a result travels (to rank 0, to the checkpoint) as bytes.
// `run(comm, jobs, options)` spreads it over the ranks with run_jobs
// (jobs.hpp): the same jobs from the `hepex` executable, C++ and Python,
// checkpointed and multi-rank (docs/distributed.md "Jobs").
//
// The families' jobs: linalg::RrefJobs (linalg/jobs.hpp), reconstruct::
// ExpressionJobs (reconstruct/jobs.hpp), amplitudes::RamboBatchJobs
// (amplitudes/jobs.hpp).

#include <cstddef>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/distributed/communicator.hpp"
#include "hepex/distributed/jobs.hpp"

namespace hepex::distributed {

template <class Result>
class Job {
 public:
  using result_type = Result;
  virtual ~Job() = default;

  // Everything the results depend on (options, the inputs' content): a
  // checkpoint made for another identity is refused. The same on every rank.
  virtual std::string identity() const = 0;
  // How many jobs (0 .. size()-1).
  virtual std::size_t size() const = 0;
  // The results of `jobs` (ascending indices), one each, in that order; a
  // pure function of the index and the inputs. Throw hepex::Error for a job
  // that cannot be done: every rank then throws the lowest such job's error.
  virtual std::vector<Result> run(const std::vector<std::size_t>& jobs) = 0;
  // A result as bytes and back: decode(encode(r)) == r (both take their
  // argument by value, so that large results move rather than copy). decode
  // throws hepex::Error for bytes encode did not make (a checkpoint of an
  // older form): such a stored result is run again.
  virtual std::string encode(Result result) const = 0;
  virtual Result decode(std::string bytes) const = 0;
  // Whether a result stored in a checkpoint may stand (e.g. not a failure
  // that more effort would turn into an answer).
  virtual bool reusable(const Result&) const { return true; }
};

// How a job list runs: the schedule over the ranks, the chunk of jobs given
// to Job::run at once, the checkpoint directory (empty: none) and where rank 0
// reports damaged checkpoint files (nullptr: nowhere).
struct RunOptions {
  Schedule schedule = Schedule::static_blocks;
  std::size_t chunk = 1;
  std::string checkpoint;
  std::ostream* messages = nullptr;
};

// Runs every job of `job` over comm's ranks; collective. On rank 0 every
// job's result, in job order; on the other ranks an empty vector. Jobs whose
// result is in the checkpoint (and decodes, and is reusable) are not run.
template <class Result>
std::vector<Result> run(const Communicator& comm, Job<Result>& job,
                        const RunOptions& options = {}) {
  JobOptions o;
  o.schedule = options.schedule;
  o.chunk = options.chunk;
  o.checkpoint = options.checkpoint;
  o.messages = options.messages;
  // The identity only matters to a checkpoint (it may read every input
  // once more); rank 0's, so that every rank stores under the one it checked,
  // and its error on every rank.
  if (!options.checkpoint.empty()) {
    std::string identity;  // 'T' + identity, or 'E' + KIND + ' ' + error
    if (comm.rank() == 0) {
      try {
        identity = "T" + job.identity();
      } catch (const Error& e) {
        identity = "E" + std::to_string(static_cast<int>(e.kind())) + ' ' + e.what();
      }
    }
    comm.broadcast(identity);
    if (identity.at(0) != 'T') {
      const auto space = identity.find(' ');
      throw Error(identity.substr(space + 1),
                  static_cast<ErrorKind>(std::stoi(identity.substr(1, space - 1))));
    }
    o.identity = identity.substr(1);
  }
  o.reusable = [&job](const std::string& bytes) {
    try {
      return job.reusable(job.decode(bytes));
    } catch (const Error&) {
      return false;  // not a result of this form: run the job again
    }
  };
  const auto run_chunk = [&job](const std::vector<std::size_t>& jobs) {
    std::vector<std::string> bytes;
    bytes.reserve(jobs.size());
    for (auto& result : job.run(jobs)) bytes.push_back(job.encode(std::move(result)));
    if (bytes.size() != jobs.size()) {
      throw Error("Job::run returned " + std::to_string(bytes.size()) + " results for " +
                      std::to_string(jobs.size()) + " jobs",
                  ErrorKind::runtime);
    }
    return bytes;
  };
  auto stored = run_jobs(comm, job.size(), run_chunk, o);
  std::vector<Result> results;
  results.reserve(stored.size());
  for (auto& bytes : stored) results.push_back(job.decode(std::move(bytes)));
  return results;
}

}  // namespace hepex::distributed
