#pragma once
// hepex::Error: every invalid input and runtime failure reaches the user as
// one of these, with a message naming the input and the fix.

#include <stdexcept>
#include <string>

namespace hepex {

// What went wrong, which also fixes the CLI exit code (docs/cli.md "Exit codes").
enum class ErrorKind {
  invalid_input = 1,   // usage or input error: exit 1
  runtime = 2,         // backend failure, out of device memory: exit 2
  negative_answer = 3  // inconsistent system, reconstruction not converged: exit 3
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, ErrorKind kind = ErrorKind::invalid_input)
      : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }
  int exit_code() const noexcept { return static_cast<int>(kind_); }

 private:
  ErrorKind kind_;
};

}  // namespace hepex
