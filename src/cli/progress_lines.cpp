#include "progress_lines.hpp"

#include <cstdlib>
#include <iostream>
#include <string>

namespace hepex::cli {

namespace {

double quiet_seconds() {
  if (const char* text = std::getenv("HEPEX_PROGRESS_SECONDS")) {
    char* end = nullptr;
    const double s = std::strtod(text, &end);
    if (end != text && *end == '\0' && s > 0) return s;
  }
  return 30;
}

std::unique_ptr<ProgressWatch> lines(double every, const char* suffix) {
  ProgressWatch::Hooks hooks;
  hooks.report_every = every;
  hooks.report = [suffix](const Progress& p) {
    std::cerr << "hepex: " << p.describe() << suffix << std::endl;
  };
  return std::make_unique<ProgressWatch>(std::move(hooks));
}

}  // namespace

std::unique_ptr<ProgressWatch> quiet_progress(int rank) {
  if (rank != 0) return nullptr;
  return lines(quiet_seconds(), " (-v: every 2 s)");
}

std::unique_ptr<ProgressWatch> verbose_progress(bool verbose, int rank) {
  if (!verbose || rank != 0) return nullptr;
  return lines(2, "");
}

}  // namespace hepex::cli
