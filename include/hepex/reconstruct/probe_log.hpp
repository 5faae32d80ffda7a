#pragma once
// A black box whose values are kept in a file, so that a long reconstruction
// killed halfway resumes without probing again (`hepex reconstruct
// --checkpoint DIR`, docs/reconstruct.md "Checkpoints").
//
// Every point the reconstruction asks for is looked up first; the points not
// in the log go to the wrapped black box in one batch and are appended to the
// file (flushed after every batch, so a killed process loses at most the
// batch it was evaluating). Reconstruction is deterministic for a given seed,
// so a rerun with the seed of the killed run asks for the same points in the
// same order: the log answers them until the run is past where it stopped.
// A value depends only on (prime, point), so a log is correct for any seed;
// with another seed it just answers fewer points.
//
// File: a header line "hepex probe log 1 VARIABLES FUNCTIONS IDENTITY SEED"
// (IDENTITY: a fingerprint of what the values depend on, e.g. the
// expressions' text), then fixed-size records of little-endian 64-bit words
//   prime, x_1..x_n, ok, y_1..y_F, checksum
// (checksum: FNV-1a of the record's other words). A record cut short by a
// kill, or one whose checksum fails, ends the log: it and everything after it
// are dropped (and the file truncated there) and those points are evaluated
// again (an empty file, killed before its header, is started afresh). A
// header of another identity or shape is an error, never mixed in;
// so is a log whose stored values the black box no longer gives (up to four
// stored points are evaluated again before the first replay).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "hepex/reconstruct/black_box.hpp"

namespace hepex::reconstruct {

class ProbeLog : public BlackBox {
 public:
  // Opens PATH (creating it if absent) for the values of `box`. hepex::Error
  // (usage) if PATH holds another identity's or shape's log, (runtime) if it
  // cannot be read or written.
  ProbeLog(const BlackBox& box, std::string path, const std::string& identity, std::uint64_t seed);
  ~ProbeLog() override;
  ProbeLog(const ProbeLog&) = delete;
  ProbeLog& operator=(const ProbeLog&) = delete;

  std::size_t variables() const override { return box_.variables(); }
  std::size_t functions() const override { return box_.functions(); }
  // Thread-safe (one evaluation at a time). A failed write is hepex::Error.
  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& points,
                std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) const override;

  // The seed of the run that started the log (the header's).
  std::uint64_t seed() const { return seed_; }
  // The seed in PATH's header, before the black box exists (a caller whose
  // black box depends on the seed, as reduce's learning does); nullopt if
  // PATH is absent, empty or has no readable header.
  static std::optional<std::uint64_t> stored_seed(const std::string& path);
  // Records read from the file when it was opened, and those dropped then
  // (an incomplete or damaged end).
  std::size_t loaded() const { return loaded_; }
  std::size_t dropped_bytes() const { return dropped_bytes_; }
  // Points answered from the log so far.
  std::size_t replayed() const;
  // Closes and deletes the file (once the result is kept elsewhere).
  void remove();
  const std::string& path() const { return path_; }

 private:
  std::size_t record_words() const { return variables() + functions() + 3; }
  std::uint64_t key(std::uint64_t prime, const std::uint64_t* x) const;
  // Index of the record for (prime, x), or npos.
  std::size_t find(std::uint64_t prime, const std::uint64_t* x) const;
  void load(const std::string& expected_header);
  // Re-evaluates up to 4 stored points (first evaluation after opening).
  void verify() const;

  const BlackBox& box_;
  std::string path_;
  std::uint64_t seed_ = 0;
  std::FILE* file_ = nullptr;
  mutable std::vector<std::uint64_t> records_;  // record_words() words each (checksum included)
  mutable std::unordered_multimap<std::uint64_t, std::size_t> index_;
  std::size_t loaded_ = 0, dropped_bytes_ = 0;
  mutable std::size_t replayed_ = 0;
  mutable bool verified_ = false;
  mutable std::mutex mutex_;
};

}  // namespace hepex::reconstruct
