#pragma once
// Finished jobs on disk, so that a killed run can be restarted without losing
// or repeating work (docs/cli.md "Many jobs, many ranks", --checkpoint DIR).
//
// Layout of DIR: `jobs` names the job list (how many jobs, and a fingerprint
// of everything that determines their results: the options and the inputs'
// content); `job-<index>` holds one finished job's result after a header line
// "hepex job <index> <list fingerprint> <result fingerprint> <bytes>". Each
// file is written under a temporary name, synced and renamed: a rename is
// atomic, so a process killed at any moment leaves either a whole result or
// none. A directory made for another job list is refused rather than mixed
// in; a job file whose header or content does not check out (truncated,
// edited, appended to, another job's, another list's) is never used: its
// job is run again.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace hepex::distributed {

// A fingerprint of a file's content (for an identity: a file rewritten with
// other content of the same size and time is another input);
// hepex::Error if it cannot be read.
std::string file_fingerprint(const std::string& path);

class Checkpoint {
 public:
  // DIR for a list of `jobs` jobs whose results depend on `identity` (the
  // command's options and inputs). Touches nothing on disk.
  Checkpoint(std::string directory, const std::string& identity, std::size_t jobs);

  // Creates DIR (and its `jobs` file) if needed, else checks that it belongs
  // to this job list; hepex::Error (usage) if not. Once, on one rank, before
  // any store.
  void prepare() const;
  struct Stored {
    std::map<std::size_t, std::string> results;  // job index -> result
    std::vector<std::string> damaged;            // "FILE: why", for a message
  };
  // The results stored so far whose files check out.
  Stored finished() const;
  // Stores one job's result (safe from several processes for distinct jobs).
  void store(std::size_t job, const std::string& result) const;

  const std::string& directory() const { return directory_; }

 private:
  std::string directory_;
  std::string header_;       // the `jobs` file's content
  std::string fingerprint_;  // of the identity, hexadecimal
  std::size_t jobs_;
};

}  // namespace hepex::distributed
