// The probe log (hepex/reconstruct/probe_log.hpp): a reconstruction through
// it gives the answer it gives without it; a rerun replays every probe (the
// black box is called only for the four verification points); a log cut at
// a random byte (a kill mid-write) or damaged at a random byte resumes with
// only the lost probes evaluated again, and still the same answer; a log of
// another identity, shape or function is refused; a log made with one seed
// serves a run with another. Random rational functions in 1-5 variables,
// answers checked exactly against the generated function (GMP).
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/probe_log.hpp"
#include "hepex/reconstruct/rational.hpp"
#include "random_functions.hpp"
#include "test_seed.hpp"

namespace {

namespace fs = std::filesystem;
using namespace hepex::reconstruct;
using hepex::io::Expression;

// Counts the points that reach the black box.
class Counted : public BlackBox {
 public:
  explicit Counted(const BlackBox& box) : box_(box) {}
  std::size_t variables() const override { return box_.variables(); }
  std::size_t functions() const override { return box_.functions(); }
  void evaluate(const hepex::field::Zp64& f, std::size_t count,
                const std::vector<std::uint64_t>& points, std::vector<std::uint64_t>& values,
                std::vector<std::uint8_t>& ok) const override {
    calls += count;
    box_.evaluate(f, count, points, values, ok);
  }
  mutable std::atomic<std::size_t> calls{0};

 private:
  const BlackBox& box_;
};

struct Case {
  std::vector<std::string> names;
  RationalFunction truth;
  std::unique_ptr<BlackBox> box;
};

Case random_case(std::mt19937_64& rng) {
  Case c;
  const std::size_t n = 1 + rng() % 5;
  for (std::size_t i = 0; i < n; ++i) c.names.push_back("x" + std::to_string(i + 1));
  const std::size_t terms =
      std::min<std::size_t>(1 + rng() % 12, hepex::test::monomial_count(n, 4));
  c.truth.num = hepex::test::random_polynomial(rng, n, terms, 4, 20, rng() % 2 == 0);
  c.truth.den =
      hepex::test::random_polynomial(rng, n, std::min<std::size_t>(terms, 4), 3, 20, true);
  const std::string text =
      "(" + to_string(c.truth.num, c.names) + ")/(" + to_string(c.truth.den, c.names) + ")";
  std::vector<Expression> e;
  e.push_back(Expression::parse(text, c.names));
  c.box = expression_black_box(std::move(e), n);
  return c;
}

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("hepex_probe_log_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

ReconstructOptions seeded(std::uint64_t seed) {
  ReconstructOptions o;
  o.seed = seed;
  return o;
}

TEST(ProbeLog, ReplaysResumesAndKeepsTheAnswer) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  for (int trial = 0; trial < hepex::test::cases(12); ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    Case c = random_case(rng);
    const std::uint64_t seed = rng();
    const fs::path path = scratch("log-" + std::to_string(trial));
    fs::remove(path);
    const auto plain = reconstruct(*c.box, seeded(seed));
    ASSERT_TRUE(hepex::test::same_function(plain.functions[0], c.truth));

    Counted counted(*c.box);
    {
      ProbeLog log(counted, path.string(), "trial", seed);
      const auto r = reconstruct(log, seeded(seed));
      EXPECT_EQ(to_string(r.functions[0], c.names), to_string(plain.functions[0], c.names));
      // A point asked for twice (the origin, by the factor scan and the
      // shift) is evaluated once: every probe is evaluated or replayed.
      EXPECT_EQ(counted.calls + log.replayed(), r.probes);
    }
    // A rerun: every probe from the log, the box only for the verification.
    counted.calls = 0;
    std::size_t probes = 0;
    {
      ProbeLog log(counted, path.string(), "trial", seed + 1);
      EXPECT_EQ(log.seed(), seed);  // the log's, not the new one
      const auto r = reconstruct(log, seeded(log.seed()));
      probes = r.probes;
      EXPECT_EQ(to_string(r.functions[0], c.names), to_string(plain.functions[0], c.names));
      EXPECT_LE(log.loaded(), r.probes);
      EXPECT_EQ(log.replayed(), r.probes);
      EXPECT_LE(counted.calls, 4u);
    }
    // Cut at a random byte after the header (a kill mid-write): resumes.
    const auto size = fs::file_size(path);
    std::ifstream head(path);
    std::string header;
    std::getline(head, header);
    head.close();
    const std::size_t record = 8 * (c.names.size() + 1 + 3);
    const std::size_t cut = header.size() + 1 + rng() % (size - header.size() - 1);
    fs::resize_file(path, cut);
    counted.calls = 0;
    {
      ProbeLog log(counted, path.string(), "trial", seed);
      const std::size_t kept = (cut - header.size() - 1) / record;
      EXPECT_EQ(log.loaded(), kept);
      EXPECT_EQ(log.dropped_bytes(), (cut - header.size() - 1) % record);
      const auto r = reconstruct(log, seeded(seed));
      EXPECT_TRUE(hepex::test::same_function(r.functions[0], c.truth));
      EXPECT_EQ(r.probes, probes);
      EXPECT_GE(log.replayed(), kept);
      EXPECT_LE(counted.calls, probes - kept + 4);
      EXPECT_EQ(counted.calls - std::min<std::size_t>(kept, 4), probes - log.replayed());
    }
    // A damaged byte: the records from its record on are evaluated again.
    {
      std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
      const auto total = fs::file_size(path);
      const std::size_t at = header.size() + 1 + rng() % (total - header.size() - 1);
      file.seekg(static_cast<std::streamoff>(at));
      char byte = 0;
      file.read(&byte, 1);
      byte = static_cast<char>(byte ^ 0x5a);
      file.seekp(static_cast<std::streamoff>(at));
      file.write(&byte, 1);
      file.close();
      ProbeLog log(counted, path.string(), "trial", seed);
      EXPECT_EQ(log.loaded(), (at - header.size() - 1) / record);
      const auto r = reconstruct(log, seeded(seed));
      EXPECT_TRUE(hepex::test::same_function(r.functions[0], c.truth));
    }
    // Another seed: other points, the same answer.
    {
      ProbeLog log(counted, path.string(), "trial", seed);
      const auto r = reconstruct(log, seeded(seed ^ 0x1234567));
      EXPECT_TRUE(hepex::test::same_function(r.functions[0], c.truth));
    }
    fs::remove(path);
  }
}

TEST(ProbeLog, RefusesAnotherJobsLog) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 1);
  Case c = random_case(rng);
  const fs::path path = scratch("refuse");
  fs::remove(path);
  {
    ProbeLog log(*c.box, path.string(), "job A", 7);
    reconstruct(log, seeded(7));
  }
  // Another identity.
  EXPECT_THROW(ProbeLog(*c.box, path.string(), "job B", 7), hepex::Error);
  // Another shape (one more variable).
  std::vector<std::string> more = c.names;
  more.push_back("y");
  auto wider = expression_black_box({Expression::parse("y", more)}, more.size());
  EXPECT_THROW(ProbeLog(*wider, path.string(), "job A", 7), hepex::Error);
  // Another function under the same identity: the verification refuses it.
  std::vector<std::string> names = c.names;
  auto other = expression_black_box({Expression::parse("(" + to_string(c.truth.num, names) + ")/(" +
                                                           to_string(c.truth.den, names) + ") + 1",
                                                       names)},
                                    names.size());
  {
    ProbeLog log(*other, path.string(), "job A", 7);
    try {
      reconstruct(log, seeded(7));
      ADD_FAILURE() << "a log of another function was replayed";
    } catch (const hepex::Error& e) {
      EXPECT_NE(std::string(e.what()).find("differs from the log's"), std::string::npos)
          << e.what();
    }
  }
  // An empty file (killed before its header): started afresh.
  { std::ofstream empty(path); }
  {
    ProbeLog log(*c.box, path.string(), "job A", 7);
    EXPECT_EQ(log.loaded(), 0u);
    EXPECT_TRUE(hepex::test::same_function(reconstruct(log, seeded(7)).functions[0], c.truth));
  }
  // Not a probe log at all.
  { std::ofstream(path) << "something else\n"; }
  EXPECT_THROW(ProbeLog(*c.box, path.string(), "job A", 7), hepex::Error);
  // A file that cannot be written.
  EXPECT_THROW(ProbeLog(*c.box, (path / "no" / "such").string(), "job A", 7), hepex::Error);
  fs::remove(path);
}

TEST(ProbeLog, SeveralThreadsShareOneLog) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 2);
  Case c = random_case(rng);
  const fs::path path = scratch("threads");
  fs::remove(path);
  ProbeLog log(*c.box, path.string(), "threads", 1);
  const hepex::field::Zp64 f(9223372036854775783ull);
  const std::size_t n = c.names.size();
  std::vector<std::uint64_t> points(64 * n);
  for (auto& x : points) x = rng() % f.modulus();
  std::vector<std::uint64_t> expected;
  std::vector<std::uint8_t> expected_ok;
  c.box->evaluate(f, 64, points, expected, expected_ok);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int k = 0; k < 20; ++k) {
        std::vector<std::uint64_t> values;
        std::vector<std::uint8_t> ok;
        log.evaluate(f, 64, points, values, ok);
        for (std::size_t i = 0; i < 64; ++i)
          if (ok[i] != expected_ok[i] || (ok[i] && values[i] != expected[i])) ++wrong;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  // Each point was stored once (the first batch), the rest replayed.
  EXPECT_EQ(log.replayed(), 4u * 20u * 64u - 64u);
  fs::remove(path);
}

}  // namespace
