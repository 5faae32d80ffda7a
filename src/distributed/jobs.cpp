#include "hepex/distributed/jobs.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

#include "hepex/core/error.hpp"
#include "hepex/distributed/checkpoint.hpp"

namespace hepex::distributed {

Schedule parse_schedule(const std::string& name) {
  if (name == "static") return Schedule::static_blocks;
  if (name == "dynamic") return Schedule::dynamic;
  throw Error("schedule '" + name + "': use static or dynamic");
}

namespace {

struct Failure {
  std::size_t job = 0;
  ErrorKind kind = ErrorKind::runtime;
  std::string message;
};

// A failed job, as the bytes that rank 0 broadcasts: "F JOB KIND\nMESSAGE".
std::string encode_failure(const Failure& failure) {
  return "F " + std::to_string(failure.job) + ' ' + std::to_string(static_cast<int>(failure.kind)) +
         '\n' + failure.message;
}

Failure decode_failure(const std::string& bytes) {
  const auto newline = bytes.find('\n');
  std::istringstream head(bytes.substr(0, newline));
  char tag = 0;
  int kind = 0;
  Failure failure;
  if (newline == std::string::npos || !(head >> tag >> failure.job >> kind) || tag != 'F') {
    throw Error("run_jobs: a rank's report is corrupt", ErrorKind::runtime);
  }
  failure.kind = static_cast<ErrorKind>(kind);
  failure.message = bytes.substr(newline + 1);
  return failure;
}

// What one rank sends to rank 0: its results, each as the job returned it
// (never copied into one message: Communicator::gather_parts sends each on
// its own), after a first part naming their jobs and the rank's failure, if
// any: "JOB JOB ...\n" then, on a failure, encode_failure().
struct RankReport {
  std::map<std::size_t, std::string> results;
  std::optional<Failure> failure;

  std::vector<std::string> parts() && {
    std::vector<std::string> out(1);
    for (auto& [job, bytes] : results) {
      out.front() += std::to_string(job) + ' ';
      out.push_back(std::move(bytes));
    }
    out.front() += '\n';
    if (failure) out.front() += encode_failure(*failure);
    results.clear();
    return out;
  }

  static RankReport from_parts(std::vector<std::string>&& parts) {
    RankReport report;
    const std::string& head = parts.at(0);
    const auto newline = head.find('\n');
    if (newline == std::string::npos)
      throw Error("run_jobs: a rank's report is corrupt", ErrorKind::runtime);
    std::istringstream jobs(head.substr(0, newline));
    std::size_t i = 1;
    for (std::size_t job; jobs >> job; ++i) {
      if (i >= parts.size())
        throw Error("run_jobs: a rank's report is corrupt", ErrorKind::runtime);
      report.results.emplace(job, std::move(parts[i]));
    }
    if (i != parts.size()) throw Error("run_jobs: a rank's report is corrupt", ErrorKind::runtime);
    if (newline + 1 < head.size()) report.failure = decode_failure(head.substr(newline + 1));
    return report;
  }
};

// Hands out chunk numbers 0, 1, 2, ... to whichever rank asks first: one
// long long in an MPI window on rank 0, advanced by MPI_Fetch_and_op.
class ChunkCounter {
 public:
#if HEPEX_HAS_MPI
  explicit ChunkCounter(const Communicator& comm) : comm_(comm) {
    if (comm.alone()) return;
    const MPI_Aint bytes = comm.rank() == 0 ? sizeof(long long) : 0;
    MPI_Win_allocate(bytes, sizeof(long long), MPI_INFO_NULL, comm.mpi(), &base_, &window_);
    if (comm.rank() == 0) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, window_);
      *base_ = 0;
      MPI_Win_unlock(0, window_);
    }
    comm.barrier();
  }
  ~ChunkCounter() {
    if (window_ != MPI_WIN_NULL) MPI_Win_free(&window_);
  }
  long long next() {
    if (comm_.alone()) return local_++;
    const long long one = 1;
    long long previous = 0;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, window_);
    MPI_Fetch_and_op(&one, &previous, MPI_LONG_LONG, 0, 0, MPI_SUM, window_);
    MPI_Win_unlock(0, window_);
    return previous;
  }

 private:
  const Communicator& comm_;
  MPI_Win window_ = MPI_WIN_NULL;
  long long* base_ = nullptr;
#else
  explicit ChunkCounter(const Communicator&) {}
  long long next() { return local_++; }

 private:
#endif
  long long local_ = 0;
};

std::vector<std::vector<std::size_t>> split(const std::vector<std::size_t>& jobs, std::size_t first,
                                            std::size_t last, std::size_t chunk) {
  std::vector<std::vector<std::size_t>> chunks;
  for (std::size_t i = first; i < last; i += chunk) {
    chunks.emplace_back(jobs.begin() + i, jobs.begin() + std::min(last, i + chunk));
  }
  return chunks;
}

// Rank 0 prepares the checkpoint and reads what is finished; every rank
// learns the finished job indices (or the error, thrown on every rank).
std::map<std::size_t, std::string> finished_jobs(
    const Communicator& comm, const Checkpoint& checkpoint, std::ostream* messages,
    const std::function<bool(const std::string&)>& reusable, std::vector<bool>& done) {
  std::map<std::size_t, std::string> finished;
  std::string message;
  if (comm.rank() == 0) {
    try {
      checkpoint.prepare();
      auto stored = checkpoint.finished();
      if (messages != nullptr) {
        for (const auto& why : stored.damaged)
          *messages << "hepex: --checkpoint: " << why << "; running that job again\n";
      }
      finished = std::move(stored.results);
      if (reusable) {
        for (auto it = finished.begin(); it != finished.end();)
          it = reusable(it->second) ? std::next(it) : finished.erase(it);
      }
      std::ostringstream list;
      list << "ok";
      for (const auto& entry : finished) list << ' ' << entry.first;
      message = list.str();
    } catch (const Error& e) {
      message = std::string("error ") + std::to_string(e.exit_code()) + ' ' + e.what();
    }
  }
  comm.broadcast(message);
  std::istringstream in(message);
  std::string status;
  in >> status;
  if (status == "error") {
    int code = 0;
    in >> code;
    in.get();
    std::string text;
    std::getline(in, text, '\0');
    throw Error(text, static_cast<ErrorKind>(code));
  }
  for (std::size_t job; in >> job;) done[job] = true;
  return finished;
}

}  // namespace

std::vector<std::string> run_jobs(const Communicator& comm, std::size_t count, const RunJobs& run,
                                  const JobOptions& options) {
  if (options.chunk == 0) throw Error("run_jobs: the chunk size must be at least 1");
  std::vector<bool> done(count, false);
  std::unique_ptr<Checkpoint> checkpoint;
  std::map<std::size_t, std::string> finished;
  if (!options.checkpoint.empty()) {
    checkpoint = std::make_unique<Checkpoint>(options.checkpoint, options.identity, count);
    finished = finished_jobs(comm, *checkpoint, options.messages, options.reusable, done);
  }
  std::vector<std::size_t> pending;
  for (std::size_t job = 0; job < count; ++job) {
    if (!done[job]) pending.push_back(job);
  }

  RankReport mine;
  const auto run_chunk = [&](const std::vector<std::size_t>& jobs) {
    try {
      auto results = run(jobs);
      if (results.size() != jobs.size()) {
        throw Error("run_jobs: a chunk of " + std::to_string(jobs.size()) + " jobs returned " +
                        std::to_string(results.size()) + " results",
                    ErrorKind::runtime);
      }
      for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (checkpoint) checkpoint->store(jobs[i], results[i]);
        mine.results.emplace(jobs[i], std::move(results[i]));
      }
    } catch (const Error& e) {
      mine.failure = Failure{jobs.front(), e.kind(), e.what()};
    } catch (const std::exception& e) {
      mine.failure = Failure{jobs.front(), ErrorKind::runtime, e.what()};
    }
    return !mine.failure;
  };

  const std::size_t ranks = static_cast<std::size_t>(comm.size());
  const std::size_t rank = static_cast<std::size_t>(comm.rank());
  if (options.schedule == Schedule::static_blocks) {
    // Blocks of q + 1 jobs for the first `extra` ranks, q for the rest, so
    // that with fewer jobs than ranks the work goes to the lowest ranks.
    const std::size_t q = pending.size() / ranks, extra = pending.size() % ranks;
    const std::size_t first = rank * q + std::min(rank, extra);
    const std::size_t last = first + q + (rank < extra ? 1 : 0);
    for (const auto& chunk : split(pending, first, last, options.chunk)) {
      if (!run_chunk(chunk)) break;
    }
  } else {
    const auto chunks = split(pending, 0, pending.size(), options.chunk);
    ChunkCounter counter(comm);
    for (long long c = counter.next(); c < static_cast<long long>(chunks.size());
         c = counter.next()) {
      if (!run_chunk(chunks[static_cast<std::size_t>(c)])) break;
    }
  }

  // Rank 0 collects; the failure of the lowest job (if any) goes to everyone.
  // Rank 0's own results are not sent anywhere: they stay where the jobs
  // put them. The other ranks' arrive one message per result.
  auto reports = comm.gather_parts(std::move(mine).parts());
  std::string verdict;
  std::vector<std::string> results;
  if (comm.rank() == 0) {
    std::optional<Failure> first_failure;
    for (auto& parts : reports) {
      auto report = RankReport::from_parts(std::move(parts));
      finished.merge(report.results);
      if (report.failure && (!first_failure || report.failure->job < first_failure->job)) {
        first_failure = report.failure;
      }
    }
    if (first_failure) {
      verdict = encode_failure(*first_failure);
    } else {
      results.reserve(count);
      for (std::size_t job = 0; job < count; ++job) results.push_back(std::move(finished.at(job)));
    }
  }
  comm.broadcast(verdict);
  if (!verdict.empty()) {
    const Failure failure = decode_failure(verdict);
    throw Error(failure.message, failure.kind);
  }
  return results;
}

}  // namespace hepex::distributed
