// Checkpoint directories: results survive byte for byte, half-written and
// damaged files are never used, and a directory of another job list (or not
// ours) is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>

#include "hepex/core/error.hpp"
#include "hepex/distributed/checkpoint.hpp"
#include "scratch_directory.hpp"
#include "test_seed.hpp"

namespace {

namespace fs = std::filesystem;
using hepex::distributed::Checkpoint;

// Each test's directories lie in a scratch directory of its own (mkdtemp:
// the plain and the sanitizer binaries run at the same time under ctest -j),
// removed at the end of the test whatever its outcome.

TEST(Checkpoint, StoredResultsComeBackExactly) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const hepex::test::ScratchDirectory scratch("checkpoint");
  const auto dir = scratch.fresh("roundtrip");
  const std::size_t jobs = 50;
  Checkpoint checkpoint(dir.string(), "inputs and options", jobs);
  checkpoint.prepare();
  std::map<std::size_t, std::string> stored;
  for (int k = 0; k < 30; ++k) {
    const std::size_t job = rng() % jobs;
    std::string bytes(rng() % 300, '\0');
    for (auto& c : bytes) c = static_cast<char>(rng());
    checkpoint.store(job, bytes);  // a job stored twice keeps its last result
    stored[job] = bytes;
  }
  // A run killed mid-write leaves a temporary file: not a result.
  std::ofstream(dir / "job-7.tmp-12345") << "half";
  EXPECT_EQ(checkpoint.finished().results, stored);
  // Reopening with the same identity keeps everything.
  Checkpoint again(dir.string(), "inputs and options", jobs);
  again.prepare();
  EXPECT_EQ(again.finished().results, stored);
  fs::remove_all(dir);
}

TEST(Checkpoint, AnotherJobListOrAForeignDirectoryIsRefused) {
  const hepex::test::ScratchDirectory scratch("checkpoint");
  const auto dir = scratch.fresh("refuse");
  Checkpoint(dir.string(), "list A", 4).prepare();
  EXPECT_THROW(Checkpoint(dir.string(), "list B", 4).prepare(), hepex::Error);
  EXPECT_THROW(Checkpoint(dir.string(), "list A", 5).prepare(), hepex::Error);

  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "job-0") << "someone else's";
  EXPECT_THROW(Checkpoint(dir.string(), "list A", 4).prepare(), hepex::Error);

  fs::remove_all(dir);
  std::ofstream(dir.string()) << "a file";
  EXPECT_THROW(Checkpoint(dir.string(), "list A", 4).prepare(), hepex::Error);
  fs::remove(dir);

  Checkpoint checkpoint(dir.string(), "list A", 4);
  checkpoint.prepare();
  std::ofstream(dir / "job-9") << "beyond the list";
  EXPECT_THROW(checkpoint.finished(), hepex::Error);
  fs::remove(dir / "job-9");
  std::ofstream(dir / "job-x1") << "not a number";
  EXPECT_THROW(checkpoint.finished(), hepex::Error);
  fs::remove_all(dir);
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// Each way a job file can be damaged or mixed up (truncated, one byte
// changed anywhere, a line appended, two files swapped, a file of another
// job list): the job is reported and left out, the intact ones come back.
TEST(Checkpoint, DamagedOrForeignJobFilesAreNeverUsed) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 1);
  const hepex::test::ScratchDirectory scratch("checkpoint");
  const auto dir = scratch.fresh("damage"), other = scratch.fresh("other");
  const std::size_t jobs = 8;
  Checkpoint checkpoint(dir.string(), "list A", jobs), foreign(other.string(), "list B", jobs);
  checkpoint.prepare();
  foreign.prepare();
  for (int trial = 0; trial < hepex::test::cases(200); ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    std::map<std::size_t, std::string> intact;
    for (std::size_t job = 0; job < jobs; ++job) {
      std::string bytes(1 + rng() % 100, '\0');
      for (auto& c : bytes) c = static_cast<char>(rng());
      checkpoint.store(job, bytes);
      intact[job] = bytes;
    }
    const std::size_t a = rng() % jobs, b = (a + 1 + rng() % (jobs - 1)) % jobs;
    const auto file = [&](std::size_t job) { return dir / ("job-" + std::to_string(job)); };
    std::string bytes = read(file(a));
    std::set<std::size_t> damaged{a};
    switch (trial % 5) {
      case 0:  // truncated
        write(file(a), bytes.substr(0, rng() % bytes.size()));
        break;
      case 1:  // one byte changed
        bytes[rng() % bytes.size()] ^= static_cast<char>(1 + rng() % 255);
        write(file(a), bytes);
        break;
      case 2:  // a line appended
        write(file(a), bytes + "1 2 3\n");
        break;
      case 3:  // swapped with another job's file
        write(file(a), read(file(b)));
        write(file(b), bytes);
        damaged.insert(b);
        break;
      case 4:  // the same job of another job list
        foreign.store(a, intact[a]);
        write(file(a), read(other / ("job-" + std::to_string(a))));
        break;
    }
    const auto stored = checkpoint.finished();
    EXPECT_EQ(stored.damaged.size(), damaged.size());
    for (const std::size_t job : damaged) intact.erase(job);
    EXPECT_EQ(stored.results, intact);
  }
  fs::remove_all(dir);
  fs::remove_all(other);
}

}  // namespace
