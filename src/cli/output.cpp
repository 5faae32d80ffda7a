#include "output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "hepex/core/error.hpp"

namespace hepex::cli {

OutputFile::OutputFile(std::string option, std::string path)
    : option_(std::move(option)), path_(std::move(path)) {
  if (path_.empty()) return;
  struct stat info {};
  const bool exists = ::stat(path_.c_str(), &info) == 0;
  if (exists && S_ISDIR(info.st_mode)) fail("is a directory");
  if (exists && !S_ISREG(info.st_mode)) {
    file_ = std::fopen(path_.c_str(), "wb");
  } else {
    temporary_ = path_ + ".tmp-" + std::to_string(::getpid());
    file_ = std::fopen(temporary_.c_str(), "wb");
  }
  if (file_ == nullptr) {
    const std::string reason = std::strerror(errno);
    temporary_.clear();
    fail(reason);
  }
}

OutputFile::OutputFile(OutputFile&& other) noexcept { *this = std::move(other); }

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  discard();
  option_ = std::move(other.option_);
  path_ = std::move(other.path_);
  temporary_ = std::move(other.temporary_);
  text_ = std::move(other.text_);
  file_ = other.file_;
  other.file_ = nullptr;
  return *this;
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::discard() {
  if (file_ == nullptr) return;
  std::fclose(file_);
  file_ = nullptr;
  if (!temporary_.empty()) std::remove(temporary_.c_str());
}

std::ostream& OutputFile::stream() { return file_ != nullptr ? text_ : std::cout; }

void OutputFile::commit() {
  if (file_ == nullptr) return;
  const std::string text = text_.str();
  errno = 0;
  bool ok = std::fwrite(text.data(), 1, text.size(), file_) == text.size() &&
            std::fflush(file_) == 0;
  if (ok && !temporary_.empty()) ok = ::fsync(::fileno(file_)) == 0;
  const std::string reason = std::strerror(errno != 0 ? errno : EIO);
  ok = std::fclose(file_) == 0 && ok;
  file_ = nullptr;
  if (ok && !temporary_.empty()) ok = std::rename(temporary_.c_str(), path_.c_str()) == 0;
  if (!ok) {
    if (!temporary_.empty()) std::remove(temporary_.c_str());
    temporary_.clear();
    fail(reason);
  }
  temporary_.clear();
}

void OutputFile::fail(const std::string& what) {
  throw Error(option_ + ": cannot write '" + path_ + "': " + what);
}

Outputs open_outputs(const std::string& out_path, const std::string& json_path) {
  return {OutputFile("--out", out_path), OutputFile("--json", json_path)};
}

Outputs open_outputs(const std::string& out_path, const std::string& json_path,
                     const distributed::Communicator& comm) {
  Outputs outputs;
  std::string error;
  if (comm.rank() == 0) {
    try {
      outputs = open_outputs(out_path, json_path);
    } catch (const Error& e) {
      error = e.what();
    }
  }
  comm.broadcast(error);
  if (!error.empty()) throw Error(error);
  return outputs;
}

void emit(OutputFile& out, const std::string& text) {
  out.stream() << text;
  out.commit();
}

void emit_json(OutputFile& json, const nlohmann::json& summary) {
  if (!json.is_file()) return;
  json.stream() << summary.dump(2) << '\n';
  json.commit();
}

void check_stdout() {
  errno = 0;
  std::cout.flush();
  const bool lost = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (lost) {
    const std::string reason = std::strerror(errno != 0 ? errno : EIO);
    std::cout.clear();
    std::clearerr(stdout);
    throw Error("cannot write to standard output: " + reason);
  }
}

}  // namespace hepex::cli
