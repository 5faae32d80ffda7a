#include "hepex/distributed/checkpoint.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/fingerprint.hpp"
#include "hepex/distributed/detail/job_file.hpp"
#include "hepex/io/read_stream.hpp"

namespace hepex::distributed {

namespace fs = std::filesystem;

namespace {

constexpr const char* job_prefix = "job-";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot read the checkpoint file", ErrorKind::runtime);
  return io::read_stream(in);
}

// A job file's header line (without its newline) and the bytes after it,
// read straight into `rest` (the result, if the file checks out); false if
// the file has no newline.
bool read_job_file_parts(const fs::path& path, std::string& header, std::string& rest) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot read the checkpoint file", ErrorKind::runtime);
  if (!std::getline(in, header) || in.eof()) return false;  // no newline
  const auto start = in.tellg();
  in.seekg(0, std::ios::end);
  const auto end = in.tellg();
  in.seekg(start);
  if (start < 0 || end < start || !in) {
    throw Error(path.string() + ": cannot read the checkpoint file", ErrorKind::runtime);
  }
  rest.resize(static_cast<std::size_t>(end - start));
  in.read(rest.data(), static_cast<std::streamsize>(rest.size()));
  rest.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad())
    throw Error(path.string() + ": cannot read the checkpoint file", ErrorKind::runtime);
  return true;
}

// Writes the pieces, one after the other, to path.tmp-<pid>, syncs, renames
// over path.
void write_atomically(const fs::path& path, std::initializer_list<std::string_view> pieces) {
  const fs::path temporary = path.string() + ".tmp-" + std::to_string(::getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  bool ok = file != nullptr;
  for (const auto piece : pieces) {
    if (ok) ok = std::fwrite(piece.data(), 1, piece.size(), file) == piece.size();
  }
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

namespace detail {

std::string job_header(std::size_t job, const std::string& list, const std::string& result) {
  return "hepex job " + std::to_string(job) + ' ' + list + ' ' + fingerprint(result) + ' ' +
         std::to_string(result.size()) + '\n';
}

std::string job_file(std::size_t job, const std::string& list, const std::string& result) {
  return job_header(job, list, result) + result;
}

bool read_job_file(const std::string& bytes, std::size_t job, const std::string& list,
                   std::string& result, std::string& why) {
  const auto newline = bytes.find('\n');
  if (newline == std::string::npos) {
    why = "no header line";
    return false;
  }
  result = bytes.substr(newline + 1);
  return check_job_file(bytes.substr(0, newline), result, job, list, why);
}

bool check_job_file(const std::string& header_line, const std::string& result, std::size_t job,
                    const std::string& list, std::string& why) {
  std::istringstream header(header_line);
  std::string hepex, word, list_print, result_print;
  std::size_t index = 0, size = 0;
  if (!(header >> hepex >> word >> index >> list_print >> result_print >> size) ||
      hepex != "hepex" || word != "job") {
    why = "not a hepex job file";
    return false;
  }
  if (index != job) {
    why = "holds job " + std::to_string(index);
  } else if (list_print != list) {
    why = "belongs to another job list";
  } else if (size != result.size()) {
    why = "has " + std::to_string(result.size()) + " bytes of result, its header says " +
          std::to_string(size);
  } else if (result_print != fingerprint(result)) {
    why = "its content does not match its checksum";
  } else if (job_header(job, list, result) != header_line + '\n') {
    why = "its header is not in the form hepex writes";
  } else {
    return true;
  }
  return false;
}

}  // namespace detail

std::string file_fingerprint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open the file");
  Fnv1a hash;
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    hash.add(buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw Error(path + ": cannot read the file");
  return hash.hexadecimal();
}

Checkpoint::Checkpoint(std::string directory, const std::string& identity, std::size_t jobs)
    : directory_(std::move(directory)), jobs_(jobs) {
  fingerprint_ = fingerprint(identity);
  header_ =
      "hepex checkpoint\njobs " + std::to_string(jobs) + "\nfingerprint " + fingerprint_ + '\n';
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
  write_atomically(list, {header_});
}

Checkpoint::Stored Checkpoint::finished() const {
  Stored stored;
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
    std::string header, result, why = "no header line";
    if (read_job_file_parts(entry.path(), header, result) &&
        detail::check_job_file(header, result, job, fingerprint_, why)) {
      stored.results.emplace(job, std::move(result));
    } else {
      stored.damaged.push_back(entry.path().string() + ": " + why);
    }
  }
  return stored;
}

void Checkpoint::store(std::size_t job, const std::string& result) const {
  // The header, then the result as the job left it (not copied into one file image).
  write_atomically(fs::path(directory_) / (job_prefix + std::to_string(job)),
                   {detail::job_header(job, fingerprint_, result), result});
}

}  // namespace hepex::distributed
