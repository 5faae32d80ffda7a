#include "signal_cleanup.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <iostream>

namespace hepex::cli {

namespace {

// A fixed table, so that the handler touches no allocator: slot i is in use
// while used[i] is set, and its path is complete before that.
constexpr int slots = 64;
constexpr std::size_t path_bytes = 4096;
char paths[slots][path_bytes];
std::atomic<bool> used[slots];

extern "C" void remove_and_reraise(int sig) {
  for (int i = 0; i < slots; ++i) {
    if (used[i].load()) ::unlink(paths[i]);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void install_handlers() {
  static const bool installed = [] {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction action {};
      action.sa_handler = remove_and_reraise;
      sigemptyset(&action.sa_mask);
      // Keep an ignored signal ignored (nohup, a background job's SIGINT).
      struct sigaction old {};
      sigaction(sig, nullptr, &old);
      if (old.sa_handler == SIG_IGN) continue;
      sigaction(sig, &action, nullptr);
    }
    return true;
  }();
  (void)installed;
}

}  // namespace

void remove_on_signal(const std::string& path) {
  install_handlers();
  if (path.size() >= path_bytes) return;
  for (int i = 0; i < slots; ++i) {
    if (used[i].load()) continue;
    std::memcpy(paths[i], path.c_str(), path.size() + 1);
    used[i].store(true);
    return;
  }
  std::cerr << "hepex: " << path << " would be left behind if the run is interrupted\n";
}

void keep_on_signal(const std::string& path) {
  for (int i = 0; i < slots; ++i) {
    if (used[i].load() && path == paths[i]) {
      used[i].store(false);
      return;
    }
  }
}

}  // namespace hepex::cli
