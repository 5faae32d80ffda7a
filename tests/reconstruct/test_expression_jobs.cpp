// reconstruct::ExpressionJobs over the test communicator (one process in
// hepex_tests, two ranks in hepex_mpi_tests): every answer is the generated
// function (GMP cross-multiplication), one job per expression or all of them
// together; a checkpoint skips the answers and keeps a failure only for as
// many primes as it had; results survive encoding.
#include <gtest/gtest.h>

#include <random>

#include "distributed/counting_job.hpp"
#include "distributed/test_communicator.hpp"
#include "hepex/core/error.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/jobs.hpp"
#include "reconstruct/random_functions.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex::reconstruct;
using hepex::test::communicator;

const std::vector<std::string> vars = {"s", "t", "d"};

RationalFunction parse_back(const std::string& text) {
  ReconstructOptions options;
  options.seed = 7;
  auto box = expression_black_box({hepex::io::Expression::parse(text, vars)}, vars.size());
  return reconstruct(*box, options).functions.at(0);
}

ExpressionJobs make_jobs(const std::vector<std::string>& texts, ExpressionJobSettings settings) {
  std::vector<hepex::io::Expression> expressions;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    expressions.push_back(hepex::io::Expression::parse(texts[i], vars));
    names.push_back("input " + std::to_string(i));
  }
  settings.variables = vars;
  return ExpressionJobs(std::move(expressions), texts, std::move(names), std::move(settings));
}

TEST(ExpressionJobs, AnswersAreTheFunctionsOneByOneOrTogether) {
  std::mt19937_64 rng(hepex::test::seed());
  for (int trial = 0; trial < hepex::test::cases(6); ++trial) {
    SCOPED_TRACE(hepex::test::seed_trace() + " trial " + std::to_string(trial));
    const std::size_t count = 1 + hepex::test::random_below(rng, 4);
    std::vector<RationalFunction> truth;
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < count; ++i) {
      const bool constant = hepex::test::random_chance(rng, 0.5);  // without: the shift
      truth.push_back({hepex::test::random_polynomial(rng, 3, 6, 4, 30, true),
                       hepex::test::random_polynomial(rng, 3, 3, 3, 30, constant)});
      texts.push_back(to_string(truth.back(), vars));
    }
    ExpressionJobSettings settings;
    settings.options.seed = hepex::test::seed() + static_cast<std::uint64_t>(trial);
    settings.options.threads = 1;
    settings.together = trial % 2 == 1;
    settings.probe_logs =
        hepex::test::shared_scratch_name("expression-jobs-" + std::to_string(trial));
    auto jobs = make_jobs(texts, settings);
    hepex::test::CountingJob<ExpressionJobResult> counting(jobs);
    hepex::distributed::RunOptions options;
    options.checkpoint = settings.probe_logs;
    options.schedule = hepex::distributed::Schedule::dynamic;
    const auto results = hepex::distributed::run(communicator(), counting, options);
    if (communicator().rank() == 0) {
      ASSERT_EQ(results.size(), settings.together ? 1u : count);
      for (std::size_t j = 0; j < results.size(); ++j) {
        const auto& r = results[j];
        ASSERT_TRUE(r.ok) << r.error;
        ASSERT_EQ(r.functions.size(), jobs.last(j) - jobs.first(j));
        EXPECT_GE(r.primes, 1u);
        EXPECT_GT(r.probes, 0u);
        for (std::size_t i = jobs.first(j); i < jobs.last(j); ++i) {
          const auto& answer = r.functions[i - jobs.first(j)];
          EXPECT_TRUE(hepex::test::same_function(parse_back(answer), truth[i]))
              << texts[i] << "\n  got " << answer;
        }
      }
    }
    counting.ran = 0;
    const auto again = hepex::distributed::run(communicator(), counting, options);
    EXPECT_EQ(communicator().max(static_cast<long long>(counting.ran)), 0);
    if (communicator().rank() == 0) EXPECT_TRUE(again == results);
  }
}

// 100-bit coefficients need several primes: with one allowed the job is a
// failure (a result, not an error), kept by a rerun with one prime and run
// again with more, which gives the answer; the other job's answer stands.
TEST(ExpressionJobs, AFailureStandsOnlyForThePrimesItHad) {
  std::mt19937_64 rng(hepex::test::seed() + 1);
  SCOPED_TRACE(hepex::test::seed_trace());
  const RationalFunction big{hepex::test::random_polynomial(rng, 3, 4, 3, 100, true),
                             hepex::test::random_polynomial(rng, 3, 2, 2, 100, true)};
  const std::vector<std::string> texts = {"s + t*d", to_string(big, vars)};
  ExpressionJobSettings settings;
  settings.options.seed = hepex::test::seed();
  settings.options.threads = 1;
  settings.options.max_primes = 1;
  const std::string checkpoint = hepex::test::shared_scratch_name("expression-jobs-primes");
  settings.probe_logs = checkpoint;
  hepex::distributed::RunOptions options;
  options.checkpoint = checkpoint;
  auto one = make_jobs(texts, settings);
  const auto first = hepex::distributed::run(communicator(), one, options);
  hepex::test::CountingJob<ExpressionJobResult> counting_one(one);
  const auto kept = hepex::distributed::run(communicator(), counting_one, options);
  EXPECT_EQ(communicator().max(static_cast<long long>(counting_one.ran)), 0);
  settings.options.max_primes = 20;
  auto more = make_jobs(texts, settings);
  hepex::test::CountingJob<ExpressionJobResult> counting_more(more);
  const auto last = hepex::distributed::run(communicator(), counting_more, options);
  EXPECT_EQ(communicator().max(static_cast<long long>(counting_more.ran)), 1);
  if (communicator().rank() != 0) return;
  ASSERT_EQ(first.size(), 2u);
  EXPECT_TRUE(first[0].ok);
  EXPECT_FALSE(first[1].ok);
  EXPECT_FALSE(first[1].error.empty());
  EXPECT_EQ(first[1].max_primes, 1u);
  EXPECT_TRUE(kept == first);
  EXPECT_TRUE(last[0] == first[0]);
  ASSERT_TRUE(last[1].ok) << last[1].error;
  EXPECT_GE(last[1].primes, 2u);
  EXPECT_TRUE(hepex::test::same_function(parse_back(last[1].functions.at(0)), big));
}

TEST(ExpressionJobs, ResultsSurviveEncoding) {
  auto jobs = make_jobs({"s"}, {});
  std::mt19937_64 rng(hepex::test::seed());
  for (int trial = 0; trial < hepex::test::cases(50); ++trial) {
    SCOPED_TRACE(hepex::test::seed_trace() + " trial " + std::to_string(trial));
    ExpressionJobResult r;
    r.ok = hepex::test::random_chance(rng, 0.5);
    r.max_primes = hepex::test::random_below(rng, 100);
    r.seed = hepex::test::random_word(rng);
    r.primes = hepex::test::random_below(rng, 10);
    r.probes = hepex::test::random_below(rng, 100000);
    r.black_box_seconds = hepex::test::random_real(rng, 0.0, 1.0);
    r.seconds = hepex::test::random_real(rng, 1.0, 2.0);
    for (std::size_t i = hepex::test::random_below(rng, 5); i > 0; --i) {
      r.prime_uses.push_back({hepex::test::random_word(rng) >> 1,
                              static_cast<PrimeUse::Role>(hepex::test::random_below(rng, 5)),
                              hepex::test::random_below(rng, 1000)});
    }
    if (r.ok) {
      for (std::size_t i = 1 + hepex::test::random_below(rng, 4); i > 0; --i)
        r.functions.push_back("(s^2 - " + std::to_string(i) + "*t)/(d - 4)");
    } else {
      r.error = "needs more primes\nthan 3";
    }
    EXPECT_TRUE(jobs.decode(jobs.encode(r)) == r);
  }
  for (const std::string bad :
       {"", "ok 1 2 3 4 0x1p+0 0x1p+0 -", "maybe 1 2 3 4 0x1p+0 0x1p+0 -\nx",
        "ok 1 2 3 4 0x1p+0 0x1p+0 5:odd:3\ns", "ok 1 2 3 4 0x1p+0 0x1p+0 - 9\ns",
        "ok 1 2 3 0x1p+0 0x1p+0 -\ns", "ok 1 2 3 4 0x1p+0 0x1p+0 -\n"}) {
    EXPECT_THROW(jobs.decode(bad), hepex::Error) << bad;
  }
}

}  // namespace
