#pragma once
// Temporaries that an interrupted run must not leave behind: an output's
// FILE.tmp-<pid> is registered while it exists, and SIGINT, SIGTERM and SIGHUP
// remove every registered path before the signal ends the program as it
// would have (so Ctrl-C still stops a long run at once, and its exit status
// still says it was interrupted).

#include <string>

namespace hepex::cli {

// Registers `path` (installs the handlers on first use). At most 64 paths
// at once; more are not removed on a signal (and said so on stderr).
void remove_on_signal(const std::string& path);
// Forgets `path` (renamed over its file, or removed).
void keep_on_signal(const std::string& path);

}  // namespace hepex::cli
