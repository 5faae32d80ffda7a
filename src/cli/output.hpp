#pragma once
// A command's output files (--out FILE, --json FILE) and standard output,
// never silently lost (docs/CLI.md "Outputs"):
//  * an output file is opened before any work: its temporary FILE.tmp-<pid>
//    is created beside it, so an unwritable path is an error (exit 1) at
//    once;
//  * the text is kept until commit(), which writes it to the temporary,
//    flushes, syncs and renames it over FILE: a failure at any point is an
//    error naming the option, and leaves an existing FILE as it was (so
//    `--out` may name an input of the same command);
//  * a FILE that is not a regular file (/dev/full, /dev/stdout, a pipe) is
//    written directly, and every write is checked;
//  * check_stdout() at exit: anything lost on standard output is an error.

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "hepex/distributed/communicator.hpp"

namespace hepex::cli {

class OutputFile {
 public:
  // No file: stream() is standard output and commit() does nothing.
  OutputFile() = default;
  // `option` names the file in errors ("--out", "--json"); an empty path is
  // no file.
  OutputFile(std::string option, std::string path);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  ~OutputFile();  // an uncommitted temporary is removed

  bool is_file() const { return file_ != nullptr; }
  std::ostream& stream();
  // Writes everything to the file (see above); hepex::Error on failure.
  void commit();

 private:
  [[noreturn]] void fail(const std::string& what);
  void discard();

  std::string option_, path_, temporary_;  // temporary_ empty: written directly
  std::FILE* file_ = nullptr;
  std::ostringstream text_;
};

// --out and --json of one command.
struct Outputs {
  OutputFile out, json;
};

// Opens both (empty paths: none) here; hepex::Error if one is not writable.
Outputs open_outputs(const std::string& out_path, const std::string& json_path);
// The same on rank 0 of comm, for the job commands that all ranks run (the
// other ranks get none); an error is thrown on every rank.
Outputs open_outputs(const std::string& out_path, const std::string& json_path,
                     const distributed::Communicator& comm);

// Writes text to out (standard output when out is no file) and commits.
void emit(OutputFile& out, const std::string& text);
// Writes the summary, indented, to json and commits, if json is a file.
void emit_json(OutputFile& json, const nlohmann::json& summary);

// Flushes standard output; hepex::Error if any of it could not be written.
void check_stdout();

}  // namespace hepex::cli
