#pragma once
// A command's output files (--out FILE, --json FILE) and standard output,
// never silently lost (docs/cli.md "Inputs and outputs are never silently wrong"):
//  * an output file is opened before any work: its temporary FILE.tmp-<pid>
//    is created beside it, so an unwritable path is an error (exit 1) at
//    once;
//  * the text goes straight to the temporary as it is written (no copy of
//    it is kept); commit() flushes, syncs and renames the temporary over
//    FILE: a failure at any point is an error naming the option, and leaves
//    an existing FILE as it was (so `--out` may name an input of the same
//    command);
//  * a FILE that is not a regular file (/dev/full, /dev/stdout, a pipe) is
//    kept until commit(), then written directly, and every write is checked;
//  * standard output is held in memory until commit() when the command also
//    writes --json (the summary is committed first, so a --json that cannot
//    be written leaves standard output empty);
//  * a temporary is removed when the program is interrupted (SIGINT,
//    SIGTERM, SIGHUP) before commit();
//  * --out onto a symbolic link writes the file it points to (the link stays);
//  * check_stdout() at exit: anything lost on standard output is an error.

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>  // for the files that include this one
#include <string>
#include <string_view>

#include "hepex/core/text_stream.hpp"
#include "hepex/distributed/communicator.hpp"

namespace hepex::cli {

using hepex::TextStream;  // core/text_stream.hpp

class OutputFile {
 public:
  // No file: stream() is standard output and commit() does nothing.
  OutputFile() = default;
  // Standard output, held in memory until commit().
  static OutputFile held_standard_output();
  // `option` names the file in errors ("--out", "--json"); an empty path is
  // no file.
  OutputFile(std::string option, std::string path);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  ~OutputFile();  // an uncommitted temporary is removed

  bool is_file() const { return file_ != nullptr; }
  std::ostream& stream();
  // The same as stream() << text, without formatting (no copy into a
  // temporary file's or standard output's way).
  void write(std::string_view text);
  // Writes everything to the file (see above); hepex::Error on failure.
  void commit();

 private:
  class FileBuffer;  // buffered writes to file_, errors kept for commit()
  struct Direct;     // a FileBuffer and its stream
  [[noreturn]] void fail(const std::string& what);
  void discard();

  std::string option_, path_, temporary_;  // temporary_ empty: written directly
  std::FILE* file_ = nullptr;
  std::unique_ptr<Direct> direct_;      // a temporary: streamed to it
  std::unique_ptr<TextStream> buffer_;  // not a regular file (or held stdout): kept until commit()
  bool held_stdout_ = false;
};

// --out and --json of one command.
struct Outputs {
  OutputFile out, json;
};

// Opens both (empty paths: none) here; hepex::Error if one is not writable.
// With a --json file and no --out, standard output is held until committed.
Outputs open_outputs(const std::string& out_path, const std::string& json_path);
// The same on rank 0 of comm, for the job commands that all ranks run (the
// other ranks get none); an error is thrown on every rank.
Outputs open_outputs(const std::string& out_path, const std::string& json_path,
                     const distributed::Communicator& comm);

// Writes text to out (standard output when out is no file) and commits.
void emit(OutputFile& out, std::string_view text);
// Writes the summary, indented, to json and commits, if json is a file.
void emit_json(OutputFile& json, const nlohmann::json& summary);

// Flushes standard output; hepex::Error if any of it could not be written.
void check_stdout();

}  // namespace hepex::cli
