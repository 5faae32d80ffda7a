#pragma once
// Rational functions of many expressions as one job list (distributed/
// job.hpp): a job per expression, or one job for all of them sharing their
// probes (`together`, as the coefficients of one IBP system). What `hepex
// reconstruct --file` runs, over MPI ranks and with --checkpoint; the same
// from C++ and Python.
//
// A job that needs more primes than allowed, or whose function is
// undefined, is a result too (ok == false, with why and the work done):
// the other jobs still get their answers, and a rerun with more primes
// tries it again (reusable()).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hepex/distributed/job.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/rational.hpp"

namespace hepex::reconstruct {

struct ExpressionJobResult {
  bool ok = false;
  std::size_t max_primes = 0;  // the limit it ran with
  // The work: the seed, primes combined, every prime tried, probes, times.
  std::uint64_t seed = 0;
  std::size_t primes = 0, probes = 0;
  std::vector<PrimeUse> prime_uses;
  double black_box_seconds = 0, seconds = 0;
  // ok: one function per expression of the job, as text in the variables'
  // names (the factored form where it is shorter, if asked); else why not.
  std::vector<std::string> functions;
  std::string error;

  bool operator==(const ExpressionJobResult& o) const;
};

struct ExpressionJobSettings {
  std::vector<std::string> variables;
  ReconstructOptions options;  // primes, seed, degrees, threads, progress
  bool together = false;       // one job, one black box of every expression
  bool factored = false;       // functions in factored form where that is shorter
  // A directory (the checkpoint's) where each running job keeps its probes
  // (probe_log.hpp, "probes-J"): a killed run resumes with the seed it had
  // and replays them; empty: none.
  std::string probe_logs;
  // Whether options.seed was chosen by the caller (false: a job resumed
  // from its probe log takes the log's seed).
  bool seed_given = true;
};

class ExpressionJobs final : public distributed::Job<ExpressionJobResult> {
 public:
  // `texts`: the expressions as written (their identity); `names`: how errors
  // name each one ("FILE:LINE"). The three have one entry per expression.
  ExpressionJobs(std::vector<io::Expression> expressions, std::vector<std::string> texts,
                 std::vector<std::string> names, ExpressionJobSettings settings);

  // The variables, the degree limit, the output form and every expression;
  // not the primes or the seed (a finished answer depends on neither, so a
  // rerun with more primes keeps the finished jobs).
  std::string identity() const override;
  std::size_t size() const override { return settings_.together ? 1 : expressions_.size(); }
  // Errors other than a failed reconstruction name the expression.
  std::vector<ExpressionJobResult> run(const std::vector<std::size_t>& jobs) override;
  std::string encode(ExpressionJobResult result) const override;
  ExpressionJobResult decode(std::string bytes) const override;
  // Answers stand; a failure stands only for as many primes as it had.
  bool reusable(const ExpressionJobResult& result) const override;

  // The expressions of job j: [first, last).
  std::size_t first(std::size_t job) const { return settings_.together ? 0 : job; }
  std::size_t last(std::size_t job) const {
    return settings_.together ? expressions_.size() : job + 1;
  }

 private:
  ExpressionJobResult run_one(std::size_t job) const;

  std::vector<io::Expression> expressions_;
  std::vector<std::string> names_;
  ExpressionJobSettings settings_;
  std::string identity_;  // built once from the texts
};

}  // namespace hepex::reconstruct
