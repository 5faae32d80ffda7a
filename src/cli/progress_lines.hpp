#pragma once
// Progress on stderr for the commands (core/progress.hpp): every command
// prints a line about every 30 s of a long run, so that it is never silent
// for minutes; -v makes it every 2 s. Only rank 0 of an MPI run prints.
// HEPEX_PROGRESS_SECONDS sets the quiet interval (tests use a short one).

#include <memory>

#include "hepex/core/progress.hpp"

namespace hepex::cli {

// The quiet watch of main(), for the whole command.
std::unique_ptr<ProgressWatch> quiet_progress(int rank);
// A command's -v: a watch with lines every 2 s (none when !verbose).
std::unique_ptr<ProgressWatch> verbose_progress(bool verbose, int rank);

}  // namespace hepex::cli
