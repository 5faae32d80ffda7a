#pragma once
// Scratch directories of the tests: made by mkdtemp under TMPDIR (or /tmp),
// so that no two processes share one, whatever runs at the same time (the
// plain and the sanitizer test binaries under ctest -j, CI jobs in containers
// whose pids repeat over a shared /tmp); removed with their contents when the
// owner goes out of scope, also after a failed assertion.

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace hepex::test {

class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& tag) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("hepex-" + tag + "-XXXXXX")).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) {
      throw std::runtime_error("mkdtemp failed for " + pattern);
    }
    path_ = buffer.data();
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  // The directory itself (exists, empty when made).
  const std::filesystem::path& path() const { return path_; }
  // A name inside it that does not exist yet: for code that must create its
  // own directory (a checkpoint's prepare()).
  std::filesystem::path fresh(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace hepex::test
