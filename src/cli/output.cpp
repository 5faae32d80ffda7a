#include "output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <iostream>
#include <vector>

#include "hepex/core/error.hpp"
#include "signal_cleanup.hpp"

namespace hepex::cli {

namespace {

// The file a path names: a symbolic link (or a chain of them, even one that
// ends at a file yet to be made) followed to its end, so that the output
// replaces that file and not the link.
std::string resolved_link(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return path;
    std::vector<char> target(static_cast<std::size_t>(info.st_size > 0 ? info.st_size : PATH_MAX) +
                             1);
    const ssize_t n = ::readlink(path.c_str(), target.data(), target.size() - 1);
    if (n < 0) return path;
    std::string next(target.data(), static_cast<std::size_t>(n));
    if (next.empty()) return path;
    if (next[0] != '/') {
      const auto slash = path.rfind('/');
      if (slash != std::string::npos) next = path.substr(0, slash + 1) + next;
    }
    path = next;
  }
  return path;  // a loop: opening it fails with the system's message
}

}  // namespace

// Writes to a FILE through a buffer of its own (the FILE is unbuffered); the
// first failure's errno is kept for OutputFile::commit().
class OutputFile::FileBuffer : public std::streambuf {
 public:
  explicit FileBuffer(std::FILE* file) : file_(file), buffer_(std::size_t{1} << 16) { reset(); }
  // Writes what is buffered; the errno of the first failed write (0: none).
  int drain() {
    put(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    reset();
    return error_;
  }

 protected:
  int_type overflow(int_type c) override {
    drain();
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const auto bytes = static_cast<std::size_t>(n);
    if (bytes <= static_cast<std::size_t>(epptr() - pptr())) {
      std::memcpy(pptr(), s, bytes);
      pbump(static_cast<int>(bytes));
    } else {  // straight to the file
      drain();
      put(s, bytes);
    }
    return n;
  }
  int sync() override {
    drain();
    return 0;
  }

 private:
  void reset() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  void put(const char* s, std::size_t n) {
    if (error_ != 0 || n == 0) return;
    errno = 0;
    if (std::fwrite(s, 1, n, file_) != n) error_ = errno != 0 ? errno : EIO;
  }

  std::FILE* file_;
  std::vector<char> buffer_;
  int error_ = 0;
};

struct OutputFile::Direct {
  explicit Direct(std::FILE* file) : buffer(file), stream(&buffer) {}
  FileBuffer buffer;
  std::ostream stream;
};

OutputFile OutputFile::held_standard_output() {
  OutputFile out;
  out.option_ = "standard output";
  out.buffer_ = std::make_unique<TextStream>();
  out.held_stdout_ = true;
  return out;
}

OutputFile::OutputFile(std::string option, std::string path)
    : option_(std::move(option)), path_(std::move(path)) {
  if (path_.empty()) return;
  // A symbolic link: the file it points to is written (the link stays).
  path_ = resolved_link(path_);
  struct stat info {};
  const bool exists = ::stat(path_.c_str(), &info) == 0;
  if (exists && S_ISDIR(info.st_mode)) fail("is a directory");
  if (exists && !S_ISREG(info.st_mode)) {
    file_ = std::fopen(path_.c_str(), "wb");
  } else {
    temporary_ = path_ + ".tmp-" + std::to_string(::getpid());
    file_ = std::fopen(temporary_.c_str(), "wb");
    if (file_ != nullptr) remove_on_signal(temporary_);
  }
  if (file_ == nullptr) {
    const std::string reason = std::strerror(errno);
    temporary_.clear();
    fail(reason);
  }
  if (!temporary_.empty()) {
    std::setvbuf(file_, nullptr, _IONBF, 0);  // Direct's buffer is the only one
    direct_ = std::make_unique<Direct>(file_);
  } else {
    buffer_ = std::make_unique<TextStream>();
  }
}

OutputFile::OutputFile(OutputFile&& other) noexcept { *this = std::move(other); }

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  discard();
  option_ = std::move(other.option_);
  path_ = std::move(other.path_);
  temporary_ = std::move(other.temporary_);
  direct_ = std::move(other.direct_);
  buffer_ = std::move(other.buffer_);
  held_stdout_ = other.held_stdout_;
  other.held_stdout_ = false;
  file_ = other.file_;
  other.file_ = nullptr;
  return *this;
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::discard() {
  direct_.reset();  // its buffer is dropped, not written
  buffer_.reset();
  held_stdout_ = false;
  if (file_ == nullptr) return;
  std::fclose(file_);
  file_ = nullptr;
  if (!temporary_.empty()) {
    std::remove(temporary_.c_str());
    keep_on_signal(temporary_);
  }
}

std::ostream& OutputFile::stream() {
  if (held_stdout_) return *buffer_;
  if (file_ == nullptr) return std::cout;
  if (direct_) return direct_->stream;
  return *buffer_;
}

void OutputFile::write(std::string_view text) {
  stream().write(text.data(), static_cast<std::streamsize>(text.size()));
}

void OutputFile::commit() {
  if (held_stdout_) {
    const std::string text = buffer_->take();
    buffer_.reset();
    held_stdout_ = false;
    std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
    check_stdout();
    return;
  }
  if (file_ == nullptr) return;
  errno = 0;
  bool ok = true;
  if (direct_) {
    const int error = direct_->buffer.drain();
    direct_.reset();
    errno = error;
    ok = error == 0;
  } else {
    const std::string text = buffer_->take();
    buffer_.reset();
    ok = std::fwrite(text.data(), 1, text.size(), file_) == text.size();
  }
  ok = ok && std::fflush(file_) == 0;
  if (ok && !temporary_.empty()) ok = ::fsync(::fileno(file_)) == 0;
  const std::string reason = std::strerror(errno != 0 ? errno : EIO);
  ok = std::fclose(file_) == 0 && ok;
  file_ = nullptr;
  if (ok && !temporary_.empty()) ok = std::rename(temporary_.c_str(), path_.c_str()) == 0;
  if (!temporary_.empty()) keep_on_signal(temporary_);
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
  Outputs outputs{OutputFile("--out", out_path), OutputFile("--json", json_path)};
  if (out_path.empty() && !json_path.empty()) outputs.out = OutputFile::held_standard_output();
  return outputs;
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

void emit(OutputFile& out, std::string_view text) {
  out.write(text);
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
