#pragma once
// The format of one finished job's file in a checkpoint directory
// (checkpoint.hpp): a header line
//   "hepex job <index> <list fingerprint> <result fingerprint> <bytes>"
// then the result's bytes.

#include <cstddef>
#include <string>

#include "hepex/core/fingerprint.hpp"  // fingerprint()

namespace hepex::distributed::detail {

// The header line (with its newline) of job `job`'s file, for its result.
std::string job_header(std::size_t job, const std::string& list, const std::string& result);

// The whole file for job `job` of the list with fingerprint `list`:
// job_header() then the result.
std::string job_file(std::size_t job, const std::string& list, const std::string& result);

// The result held by a file's bytes if they are job `job`'s of list `list`,
// whole and unchanged; else false and why (for a message).
bool read_job_file(const std::string& bytes, std::size_t job, const std::string& list,
                   std::string& result, std::string& why);

// The same for a file read as its first line (without the newline) and the
// bytes after it (the result, if true).
bool check_job_file(const std::string& header_line, const std::string& result, std::size_t job,
                    const std::string& list, std::string& why);

}  // namespace hepex::distributed::detail
