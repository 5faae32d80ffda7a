#pragma once
// Finished jobs on disk, so that a killed run can be restarted without losing
// or repeating work (CLI.md "Many jobs, many ranks", --checkpoint DIR).
//
// Layout of DIR: `jobs` names the job list (how many jobs, and a hash of
// everything that determines their results); `job-<index>` holds one
// finished job's result. Each file is written under a temporary name, synced
// and renamed: a rename is atomic, so a process killed at any moment leaves
// either a whole result or none. A directory made for another job list is
// refused rather than mixed in.

#include <cstddef>
#include <map>
#include <string>

namespace hepex::distributed {

class Checkpoint {
 public:
  // DIR for a list of `jobs` jobs whose results depend on `identity` (the
  // command's options and inputs). Touches nothing on disk.
  Checkpoint(std::string directory, const std::string& identity, std::size_t jobs);

  // Creates DIR (and its `jobs` file) if needed, else checks that it belongs
  // to this job list; hepex::Error (usage) if not. Once, on one rank, before
  // any store.
  void prepare() const;
  // Results stored so far: job index -> result.
  std::map<std::size_t, std::string> finished() const;
  // Stores one job's result (safe from several processes for distinct jobs).
  void store(std::size_t job, const std::string& result) const;

  const std::string& directory() const { return directory_; }

 private:
  std::string directory_;
  std::string header_;  // the `jobs` file's content
  std::size_t jobs_;
};

}  // namespace hepex::distributed
