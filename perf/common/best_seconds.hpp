#pragma once
// Best wall time of `repeats` calls of `run`: the benchmark programs' timer.
#include <algorithm>
#include <chrono>

namespace hepex::perf {

template <class Run>
double best_seconds(int repeats, Run&& run) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace hepex::perf
