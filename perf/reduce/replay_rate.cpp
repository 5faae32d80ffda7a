// Probes a second of `hepex reduce`'s replay (the traced elimination with
// its coefficients, reduce/detail/replay_program.hpp) on the host and, in a
// GPU build, on the GPU, in batches of given sizes: the probe rate the
// issue compares with Ratracer's replay (perf/results/reduce/README.md).
//   hepex_bench replay-rate SYSTEM ORDER TARGETS VARS [BATCH ...]
// (ORDER "-": the default, Laporta's order, as `hepex reduce` without --order)
// (defaults 1024 16384 131072). Each batch size: one untimed batch, then
// the best of 3; the host runs the lanes of replay_kernel.hpp over the host
// space's threads (OMP_NUM_THREADS=1 for one core). Prints JSON lines.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "benches.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reduce/reduce.hpp"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

namespace {
int run(int argc, char** argv);
}

// Bad input (a file that does not parse, a batch that is not a number): the
// message and exit 1, before any timing.
int hepex::bench::replay_rate_main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "hepex_bench replay-rate: " << e.what() << "\n";
    return 1;
  }
}

namespace {
int run(int argc, char** argv) {
  if (argc < 5) {
    std::cerr << "usage: hepex_bench replay-rate SYSTEM ORDER TARGETS VARS [BATCH ...]\n";
    return 1;
  }
  const auto names = hepex::io::parse_variable_list(argv[4]);
  const auto system = hepex::reduce::read_system(slurp(argv[1]), argv[1], names);
  hepex::reduce::ReduceOptions options;
  if (std::string(argv[2]) != "-") {
    options.order = hepex::reduce::read_integral_list(slurp(argv[2]), argv[2]).integrals;
  }
  options.targets = hepex::reduce::read_integral_list(slurp(argv[3]), argv[3]).integrals;
  std::vector<std::size_t> batches;
  for (int a = 5; a < argc; ++a) {
    const std::string batch = argv[a];
    if (batch.empty() || batch.size() > 12 ||
        batch.find_first_not_of("0123456789") != std::string::npos || std::stoull(batch) == 0) {
      throw std::invalid_argument("batch '" + batch + "': a whole number from 1 to 10^12");
    }
    batches.push_back(std::stoull(batch));
  }
  if (batches.empty()) batches = {1024, 16384, 131072};
  const hepex::field::Zp64 f(hepex::field::random_large_primes(1, 7)[0]);
  for (const bool device : {false, true}) {
    if (device && !hepex::has_accelerator) continue;
    options.device_min_points = device ? 1 : SIZE_MAX;
    const auto learned = hepex::reduce::learn_reduction(system, options);
    for (const std::size_t count : batches) {
      std::vector<std::uint64_t> points(count * names.size()), values;
      std::uint64_t x = 12345;
      for (auto& p : points)
        p = f.from_uint(x = x * 6364136223846793005ull + 1442695040888963407ull);
      std::vector<std::uint8_t> ok;
      double best = 1e300;
      for (int rep = 0; rep < 4; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        learned.box->evaluate(f, count, points, values, ok);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (rep > 0) best = std::min(best, s);
      }
      const auto good = std::count(ok.begin(), ok.end(), 1);
      std::cout << "{\"system\": \"" << argv[1] << "\", \"space\": \""
                << (device ? "device" : "host") << "\", \"instructions\": " << learned.instructions
                << ", \"registers\": " << learned.registers << ", \"points\": " << count
                << ", \"ok\": " << good << ", \"seconds\": " << best
                << ", \"probes_per_second\": " << static_cast<double>(count) / best << "}"
                << std::endl;
    }
  }
  return 0;
}
}  // namespace
