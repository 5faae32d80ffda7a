// Checkpoint directories: results survive byte for byte, half-written files
// are ignored, and a directory of another job list (or not ours) is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "hepex/core/error.hpp"
#include "hepex/distributed/checkpoint.hpp"
#include "test_seed.hpp"

namespace {

namespace fs = std::filesystem;
using hepex::distributed::Checkpoint;

fs::path fresh_directory(const std::string& tag) {
  const auto dir = fs::temp_directory_path() / ("hepex-checkpoint-" + tag);
  fs::remove_all(dir);
  return dir;
}

TEST(Checkpoint, StoredResultsComeBackExactly) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const auto dir = fresh_directory("roundtrip");
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
  EXPECT_EQ(checkpoint.finished(), stored);
  // Reopening with the same identity keeps everything.
  Checkpoint again(dir.string(), "inputs and options", jobs);
  again.prepare();
  EXPECT_EQ(again.finished(), stored);
  fs::remove_all(dir);
}

TEST(Checkpoint, AnotherJobListOrAForeignDirectoryIsRefused) {
  const auto dir = fresh_directory("refuse");
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

}  // namespace
