// run_jobs over the test communicator: results in job order whatever the
// ranks, schedule and chunking; every job run exactly once; the lowest failed
// job's error on every rank; checkpoints skip finished jobs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>

#include "distributed/test_communicator.hpp"
#include "hepex/core/error.hpp"
#include "hepex/distributed/job.hpp"
#include "hepex/distributed/jobs.hpp"
#include "test_seed.hpp"

namespace {

using hepex::distributed::JobOptions;
using hepex::distributed::Schedule;
using hepex::test::communicator;

// A result that depends on the job alone (with bytes a text format could trip on).
std::string expected_result(std::size_t job) {
  std::string bytes = "job " + std::to_string(job) + "\n";
  for (std::size_t i = 0; i < job % 5; ++i) bytes += char(i);  // includes '\0'
  return bytes;
}

// The jobs every rank ran, on rank 0 (all ranks must call it).
std::multiset<std::size_t> jobs_run_everywhere(const std::vector<std::size_t>& mine) {
  std::ostringstream text;
  for (const auto j : mine) text << j << ' ';
  std::multiset<std::size_t> all;
  for (const auto& part : communicator().gather(text.str())) {
    std::istringstream in(part);
    for (std::size_t j; in >> j;) all.insert(j);
  }
  return all;
}

TEST(Jobs, ResultsInJobOrderWhateverTheScheduleAndChunks) {
  std::mt19937_64 rng(hepex::test::seed());
  for (int trial = 0; trial < hepex::test::cases(40); ++trial) {
    const std::size_t count = rng() % 60;
    JobOptions options;
    options.schedule = trial % 2 ? Schedule::dynamic : Schedule::static_blocks;
    options.chunk = 1 + rng() % 7;
    SCOPED_TRACE(hepex::test::seed_trace() + " trial " + std::to_string(trial) + " count " +
                 std::to_string(count) + " chunk " + std::to_string(options.chunk));
    std::vector<std::size_t> ran;
    const auto results = hepex::distributed::run_jobs(
        communicator(), count,
        [&](const std::vector<std::size_t>& jobs) {
          EXPECT_LE(jobs.size(), options.chunk);
          EXPECT_TRUE(std::is_sorted(jobs.begin(), jobs.end()));
          std::vector<std::string> out;
          for (const auto j : jobs) {
            ran.push_back(j);
            out.push_back(expected_result(j));
          }
          return out;
        },
        options);
    const auto all = jobs_run_everywhere(ran);
    if (communicator().rank() != 0) {
      EXPECT_TRUE(results.empty());
      continue;
    }
    ASSERT_EQ(results.size(), count);
    for (std::size_t j = 0; j < count; ++j) {
      EXPECT_EQ(results[j], expected_result(j));
      EXPECT_EQ(all.count(j), 1u) << "job " << j;
    }
    EXPECT_EQ(all.size(), count);
  }
}

TEST(Jobs, LowestFailedJobIsReportedOnEveryRank) {
  std::mt19937_64 rng(hepex::test::seed() + 1);
  for (int trial = 0; trial < hepex::test::cases(20); ++trial) {
    const std::size_t count = 1 + rng() % 40;
    std::set<std::size_t> failing;
    for (int k = 0; k < 3; ++k) failing.insert(rng() % count);
    JobOptions options;
    options.schedule = trial % 2 ? Schedule::dynamic : Schedule::static_blocks;
    options.chunk = 1 + rng() % 3;
    SCOPED_TRACE(hepex::test::seed_trace() + " trial " + std::to_string(trial));
    const std::size_t first = *failing.begin();
    try {
      hepex::distributed::run_jobs(
          communicator(), count,
          [&](const std::vector<std::size_t>& jobs) {
            std::vector<std::string> out;
            for (const auto j : jobs) {
              if (failing.count(j)) {
                throw hepex::Error(
                    "job " + std::to_string(j) + " failed",
                    j % 2 ? hepex::ErrorKind::negative_answer : hepex::ErrorKind::runtime);
              }
              out.push_back(expected_result(j));
            }
            return out;
          },
          options);
      ADD_FAILURE() << "no error";
    } catch (const hepex::Error& e) {
      EXPECT_EQ(std::string(e.what()), "job " + std::to_string(first) + " failed");
      EXPECT_EQ(e.kind(),
                first % 2 ? hepex::ErrorKind::negative_answer : hepex::ErrorKind::runtime);
    }
  }
}

TEST(Jobs, CheckpointSkipsFinishedJobsAndRefusesAnotherJobList) {
  const std::string dir = hepex::test::shared_scratch_name("jobs-checkpoint");
  const std::size_t count = 23;
  const std::size_t stop_at = 9;  // the first run "dies" at this job
  for (const Schedule schedule : {Schedule::static_blocks, Schedule::dynamic}) {
    if (communicator().rank() == 0) std::filesystem::remove_all(dir);
    communicator().barrier();
    JobOptions options;
    options.schedule = schedule;
    options.checkpoint = dir;
    options.identity = "the job list";
    std::vector<std::size_t> first_run;
    EXPECT_THROW(hepex::distributed::run_jobs(
                     communicator(), count,
                     [&](const std::vector<std::size_t>& jobs) {
                       if (jobs.front() == stop_at) throw hepex::Error("killed");
                       first_run.push_back(jobs.front());
                       return std::vector<std::string>{expected_result(jobs.front())};
                     },
                     options),
                 hepex::Error);
    const auto done_before = jobs_run_everywhere(first_run);
    std::vector<std::size_t> second_run;
    const auto results = hepex::distributed::run_jobs(
        communicator(), count,
        [&](const std::vector<std::size_t>& jobs) {
          second_run.push_back(jobs.front());
          return std::vector<std::string>{expected_result(jobs.front())};
        },
        options);
    const auto done_after = jobs_run_everywhere(second_run);
    if (communicator().rank() == 0) {
      ASSERT_EQ(results.size(), count);
      for (std::size_t j = 0; j < count; ++j) {
        EXPECT_EQ(results[j], expected_result(j));
        EXPECT_EQ(done_before.count(j) + done_after.count(j), 1u) << "job " << j;
      }
    }
    options.identity = "another job list";
    EXPECT_THROW(hepex::distributed::run_jobs(
                     communicator(), count,
                     [](const std::vector<std::size_t>&) -> std::vector<std::string> {
                       throw std::logic_error("must not run");
                     },
                     options),
                 hepex::Error);
  }
  communicator().barrier();
  if (communicator().rank() == 0) std::filesystem::remove_all(dir);
}

// Stored results the caller says are not reusable (failures that more effort
// may turn into answers) are run again; the others are not.
TEST(Jobs, StoredResultsThatAreNotReusableRunAgain) {
  const std::string dir = hepex::test::shared_scratch_name("jobs-reusable");
  const std::size_t count = 12;
  if (communicator().rank() == 0) std::filesystem::remove_all(dir);
  communicator().barrier();
  JobOptions options;
  options.checkpoint = dir;
  options.identity = "the job list";
  const auto first = [](const std::vector<std::size_t>& jobs) {
    std::vector<std::string> out;
    for (const std::size_t j : jobs) out.push_back(j % 3 == 0 ? "failed" : expected_result(j));
    return out;
  };
  hepex::distributed::run_jobs(communicator(), count, first, options);
  options.reusable = [](const std::string& result) { return result != "failed"; };
  std::vector<std::size_t> again;
  const auto results = hepex::distributed::run_jobs(
      communicator(), count,
      [&](const std::vector<std::size_t>& jobs) {
        again.insert(again.end(), jobs.begin(), jobs.end());
        std::vector<std::string> out;
        for (const std::size_t j : jobs) out.push_back(expected_result(j));
        return out;
      },
      options);
  const auto rerun = jobs_run_everywhere(again);
  if (communicator().rank() == 0) {
    ASSERT_EQ(results.size(), count);
    for (std::size_t j = 0; j < count; ++j) {
      EXPECT_EQ(results[j], expected_result(j)) << "job " << j;
      EXPECT_EQ(rerun.count(j), j % 3 == 0 ? 1u : 0u) << "job " << j;
    }
  }
  communicator().barrier();
  if (communicator().rank() == 0) std::filesystem::remove_all(dir);
}

TEST(Jobs, CollectivesAgreeAcrossRanks) {
  const auto& comm = communicator();
  std::string text = comm.rank() == 0 ? std::string("from rank 0\0!", 13) : std::string();
  comm.broadcast(text);
  EXPECT_EQ(text, std::string("from rank 0\0!", 13));
  const auto parts = comm.gather(std::string(static_cast<std::size_t>(comm.rank()), 'x'));
  if (comm.rank() == 0) {
    ASSERT_EQ(parts.size(), static_cast<std::size_t>(comm.size()));
    for (int r = 0; r < comm.size(); ++r) EXPECT_EQ(parts[r], std::string(r, 'x'));
  } else {
    EXPECT_TRUE(parts.empty());
  }
  EXPECT_EQ(comm.max(comm.rank() * 10 - 3), (comm.size() - 1) * 10 - 3);
  // Parts: rank r sends r + 2 parts (an empty one, the others ending in
  // '\0'), each received as it was; the root's own are handed back without a
  // copy (the same buffer).
  const auto part = [](int r, int i) {
    if (i == 0) return std::string();
    return std::string(static_cast<std::size_t>(1000 * r + 100 * i), static_cast<char>('a' + i)) +
           '\0';
  };
  std::vector<std::string> mine;
  for (int i = 0; i <= comm.rank() + 1; ++i) mine.push_back(part(comm.rank(), i));
  const char* const root_data = mine.back().data();
  const auto gathered = comm.gather_parts(std::move(mine));
  if (comm.rank() == 0) {
    ASSERT_EQ(gathered.size(), static_cast<std::size_t>(comm.size()));
    for (int r = 0; r < comm.size(); ++r) {
      ASSERT_EQ(gathered[r].size(), static_cast<std::size_t>(r + 2)) << "rank " << r;
      for (int i = 0; i <= r + 1; ++i) EXPECT_EQ(gathered[r][i], part(r, i)) << "rank " << r;
    }
    EXPECT_EQ(gathered[0].back().data(), root_data);
  } else {
    EXPECT_TRUE(gathered.empty());
  }
  // All-gathers: every rank's bytes on every rank; values of 12 bytes, rank
  // r sending 3 r + 1 of them (uneven parts), into one buffer in rank order.
  const auto everyone =
      comm.all_gather(std::string(static_cast<std::size_t>(comm.rank()) + 1, 'y'));
  ASSERT_EQ(everyone.size(), static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) EXPECT_EQ(everyone[r], std::string(r + 1, 'y'));
  constexpr std::size_t unit = 12;
  std::vector<std::size_t> counts;
  std::size_t total = 0;
  for (int r = 0; r < comm.size(); ++r) total += counts.emplace_back(3 * r + 1);
  const auto byte = [](std::size_t r, std::size_t at) { return static_cast<char>(31 * r + at); };
  std::string mine_values(counts[comm.rank()] * unit, '\0');
  for (std::size_t at = 0; at < mine_values.size(); ++at) mine_values[at] = byte(comm.rank(), at);
  std::string all(total * unit, '\0');
  comm.all_gather_into(mine_values.data(), all.data(), counts, unit);
  for (std::size_t r = 0, from = 0; r < counts.size(); from += counts[r++] * unit) {
    for (std::size_t at = 0; at < counts[r] * unit; ++at)
      ASSERT_EQ(all[from + at], byte(r, at)) << "rank " << r << " byte " << at;
  }
  counts.push_back(0);  // a count for a rank that is not there
  EXPECT_THROW(comm.all_gather_into(mine_values.data(), all.data(), counts, unit), hepex::Error);
  EXPECT_GE(comm.node_rank(), 0);
  EXPECT_LT(comm.node_rank(), comm.node_size());
  EXPECT_EQ(hepex::distributed::device_for_rank(comm, 0), 0);
  EXPECT_EQ(hepex::distributed::device_for_rank(comm, 1), 0);
  EXPECT_EQ(hepex::distributed::device_for_rank(comm, 64), comm.node_rank() % 64);
}

TEST(Jobs, BadOptionsAreRefused) {
  JobOptions options;
  options.chunk = 0;
  EXPECT_THROW(
      hepex::distributed::run_jobs(
          communicator(), 3,
          [](const std::vector<std::size_t>& j) { return std::vector<std::string>(j.size()); },
          options),
      hepex::Error);
  EXPECT_THROW(hepex::distributed::parse_schedule("round-robin"), hepex::Error);
  EXPECT_EQ(hepex::distributed::parse_schedule("dynamic"), Schedule::dynamic);
}

// A typed job list (job.hpp): results "FORM j" for job j; decode refuses
// another form, so a checkpoint of an older form runs every job again.
class FormJob final : public hepex::distributed::Job<std::size_t> {
 public:
  FormJob(std::string form, std::size_t count, bool identity_fails = false)
      : form_(std::move(form)), count_(count), identity_fails_(identity_fails) {}
  std::string identity() const override {
    if (identity_fails_ && communicator().rank() == 0) throw hepex::Error("input.txt: unreadable");
    return "forms";
  }
  std::size_t size() const override { return count_; }
  std::vector<std::size_t> run(const std::vector<std::size_t>& jobs) override {
    ran += jobs.size();
    return jobs;
  }
  std::string encode(std::size_t j) const override { return form_ + ' ' + std::to_string(j); }
  std::size_t decode(std::string bytes) const override {
    if (bytes.rfind(form_ + ' ', 0) != 0) throw hepex::Error("another form");
    return std::stoull(bytes.substr(form_.size() + 1));
  }
  std::size_t ran = 0;

 private:
  std::string form_;
  std::size_t count_;
  bool identity_fails_;
};

TEST(Jobs, TypedJobsRunAgainWhatTheyCannotDecode) {
  hepex::distributed::RunOptions options;
  options.checkpoint = hepex::test::shared_scratch_name("typed-jobs");
  FormJob old_form("v1", 9), new_form("v2", 9);
  // Jobs run on every rank together, on rank 0.
  const auto ran_everywhere = [](const FormJob& job) {
    std::size_t total = 0;
    for (const auto& part : communicator().gather(std::to_string(job.ran)))
      total += std::stoull(part);
    return total;
  };
  const auto first = hepex::distributed::run(communicator(), old_form, options);
  const auto again = hepex::distributed::run(communicator(), old_form, options);
  const std::size_t old_ran = ran_everywhere(old_form);
  const auto newer = hepex::distributed::run(communicator(), new_form, options);
  const std::size_t new_ran = ran_everywhere(new_form);
  if (communicator().rank() != 0) return;
  std::vector<std::size_t> want(9);
  for (std::size_t j = 0; j < 9; ++j) want[j] = j;
  EXPECT_EQ(first, want);
  EXPECT_EQ(again, want);
  EXPECT_EQ(newer, want);
  EXPECT_EQ(old_ran, 9u);  // once each: the second run took them all from the checkpoint
  EXPECT_EQ(new_ran, 9u);  // the new form decoded none of them: all ran again
}

TEST(Jobs, AnIdentityThatFailsOnRankZeroFailsEveryRank) {
  hepex::distributed::RunOptions options;
  options.checkpoint = hepex::test::shared_scratch_name("typed-jobs-identity");
  FormJob job("v1", 3, true);
  try {
    hepex::distributed::run(communicator(), job, options);
    ADD_FAILURE() << "no error";
  } catch (const hepex::Error& e) {
    EXPECT_STREQ(e.what(), "input.txt: unreadable");
    EXPECT_EQ(e.kind(), hepex::ErrorKind::invalid_input);
  }
  EXPECT_EQ(job.ran, 0u);
}

}  // namespace
