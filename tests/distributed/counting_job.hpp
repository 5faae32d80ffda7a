#pragma once
// A job list that runs another one and counts the jobs it ran on this rank:
// what the tests of the families' jobs use to see a checkpoint skip work.

#include <cstddef>
#include <string>
#include <vector>

#include "hepex/distributed/job.hpp"

namespace hepex::test {

template <class Result>
class CountingJob final : public distributed::Job<Result> {
 public:
  explicit CountingJob(distributed::Job<Result>& job) : job_(job) {}
  std::string identity() const override { return job_.identity(); }
  std::size_t size() const override { return job_.size(); }
  std::vector<Result> run(const std::vector<std::size_t>& jobs) override {
    ran += jobs.size();
    return job_.run(jobs);
  }
  std::string encode(Result result) const override { return job_.encode(std::move(result)); }
  Result decode(std::string bytes) const override { return job_.decode(std::move(bytes)); }
  bool reusable(const Result& result) const override { return job_.reusable(result); }

  std::size_t ran = 0;  // jobs run on this rank

 private:
  distributed::Job<Result>& job_;
};

}  // namespace hepex::test
