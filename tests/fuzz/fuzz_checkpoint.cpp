// libFuzzer target for checkpoint job files: any bytes are either refused
// (with a reason) or are exactly a file written for that job and list; a
// file written by job_file() always reads back.
#include <cstddef>
#include <cstdint>
#include <string>

#include "hepex/distributed/detail/job_file.hpp"

using namespace hepex::distributed::detail;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::string list = hepex::fingerprint("the job list");
  std::string result, why;
  for (const std::size_t job : {std::size_t{0}, std::size_t{3}}) {
    if (read_job_file(bytes, job, list, result, why)) {
      if (job_file(job, list, result) != bytes) __builtin_trap();  // accepted: must be ours
    } else if (why.empty()) {
      __builtin_trap();
    }
    // The input as a result round-trips.
    if (!read_job_file(job_file(job, list, bytes), job, list, result, why) || result != bytes)
      __builtin_trap();
  }
  return 0;
}
