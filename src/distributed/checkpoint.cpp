#include "hepex/distributed/checkpoint.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "hepex/core/error.hpp"

namespace hepex::distributed {

namespace fs = std::filesystem;

namespace {

// 64-bit FNV-1a: a fingerprint of the job list, not a security measure.
std::uint64_t fingerprint(const std::string& bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

constexpr const char* job_prefix = "job-";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot read the checkpoint file", ErrorKind::runtime);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Writes `bytes` to path.tmp-<pid>, syncs, renames over path.
void write_atomically(const fs::path& path, const std::string& bytes) {
  const fs::path temporary = path.string() + ".tmp-" + std::to_string(::getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  bool ok = file != nullptr;
  if (ok) ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  if (ok) ok = std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
  if (file) ok = std::fclose(file) == 0 && ok;
  std::error_code error;
  if (ok) fs::rename(temporary, path, error);
  if (!ok || error) {
    fs::remove(temporary, error);
    throw Error(path.string() + ": cannot write the checkpoint file", ErrorKind::runtime);
  }
}

}  // namespace

Checkpoint::Checkpoint(std::string directory, const std::string& identity, std::size_t jobs)
    : directory_(std::move(directory)), jobs_(jobs) {
  std::ostringstream header;
  header << "hepex checkpoint\njobs " << jobs << "\nfingerprint " << std::hex
         << fingerprint(identity) << '\n';
  header_ = header.str();
}

void Checkpoint::prepare() const {
  const fs::path dir(directory_), list = dir / "jobs";
  std::error_code error;
  if (fs::exists(dir, error) && !fs::is_directory(dir, error)) {
    throw Error("--checkpoint " + directory_ + ": exists and is not a directory");
  }
  fs::create_directories(dir, error);
  if (error) throw Error("--checkpoint " + directory_ + ": cannot create it: " + error.message());
  if (fs::exists(list, error)) {
    if (read_file(list) != header_) {
      throw Error("--checkpoint " + directory_ +
                  ": holds the results of a different job list (other inputs or options); "
                  "use another directory or delete it");
    }
    return;
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind(job_prefix, 0) == 0) {
      throw Error("--checkpoint " + directory_ + ": has results but no 'jobs' file; not ours");
    }
  }
  write_atomically(list, header_);
}

std::map<std::size_t, std::string> Checkpoint::finished() const {
  std::map<std::size_t, std::string> results;
  for (const auto& entry : fs::directory_iterator(directory_)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(job_prefix, 0) != 0 || name.find(".tmp-") != std::string::npos) continue;
    const std::string digits = name.substr(std::string(job_prefix).size());
    std::size_t job = 0, used = 0;
    try {
      job = std::stoull(digits, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != digits.size() || job >= jobs_) {
      throw Error(entry.path().string() + ": not a result of this job list");
    }
    results.emplace(job, read_file(entry.path()));
  }
  return results;
}

void Checkpoint::store(std::size_t job, const std::string& result) const {
  write_atomically(fs::path(directory_) / (job_prefix + std::to_string(job)), result);
}

}  // namespace hepex::distributed
