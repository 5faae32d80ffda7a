#include "job_options.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "hepex/core/error.hpp"
#include "hepex/io/read_stream.hpp"
#include "number_options.hpp"

namespace hepex::cli {

void add_job_options(CLI::App& cmd, JobCliOptions& o, std::size_t chunk) {
  o.chunk = chunk;
  cmd.add_option("--checkpoint", o.checkpoint,
                 "store each finished job in DIR; a rerun with the same DIR skips them "
                 "(default: none)");
  cmd.add_option("--schedule", o.schedule,
                 "MPI ranks: static (contiguous blocks) or dynamic (next chunk on demand)")
      ->check(CLI::IsMember({"static", "dynamic"}));
  cmd.add_option("--chunk", o.chunk, "jobs run together on a rank")
      ->check(whole_number(1, std::size_t{1} << 20));
}

distributed::RunOptions run_options(const JobCliOptions& o) {
  distributed::RunOptions options;
  options.schedule = distributed::parse_schedule(o.schedule);
  options.chunk = o.chunk;
  options.checkpoint = o.checkpoint;
  options.messages = &std::cerr;
  return options;
}

std::string read_on_rank0(const std::string& path, const distributed::Communicator& comm) {
  std::string message;  // 'T' + text, or 'E' + error
  if (comm.rank() == 0) {
    std::ifstream file;
    if (path != "-") file.open(path, std::ios::binary);
    if (path != "-" && !file) {
      message = "E" + path + ": cannot open the file";
    } else {
      std::istream& in = path == "-" ? std::cin : file;
      message = "T";
      std::error_code size_error;
      const auto size = path == "-" ? 0 : std::filesystem::file_size(path, size_error);
      io::append_stream(in, message, size_error ? 0 : static_cast<std::size_t>(size));
      if (in.bad()) message = "E" + path + ": cannot read the file";
    }
  }
  comm.broadcast(message);
  if (message.empty() || message[0] == 'E') throw Error(message.empty() ? path : message.substr(1));
  message.erase(0, 1);
  return message;
}

}  // namespace hepex::cli
