// The CPU anchor for `hepex_bench rref`: FLINT's nmod_mat_rref on one core,
// for the same sizes and prime. Prints one line per size and, with --json,
// the same fields as hepex's benchmark.
//   hepex_bench rref-flint PRIME N1,N2,... [JSON_FILE]
#include <flint/nmod_mat.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "benches.hpp"
#include "hepex/core/random.hpp"

namespace {
int run(int argc, char** argv);
}

int hepex::bench::rref_flint_main(int argc, char** argv) {
  return hepex::perf::guarded_main("hepex_bench rref-flint", [&] { return run(argc, argv); });
}

namespace {
int run(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: hepex_bench rref-flint PRIME N1,N2,... [JSON_FILE]\n";
    return 1;
  }
  const std::uint64_t p = hepex::perf::prime_argument(argv[1], 63);
  std::vector<long> sizes;
  for (const auto n : hepex::perf::whole_list_argument(argv[2], "N", 1, 1u << 17))
    sizes.push_back(static_cast<long>(n));

  std::ostringstream json;
  json << "{\"benchmark\": \"rref\", \"implementation\": \"FLINT nmod_mat_rref, 1 core\", "
          "\"prime\": "
       << p << ", \"rows\": [";
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const long n = sizes[s];
    nmod_mat_t a;
    nmod_mat_init(a, n, n, p);
    for (long i = 0; i < n; ++i)
      for (long j = 0; j < n; ++j)
        nmod_mat_entry(a, i, j) =
            hepex::random::counter_u64(1, static_cast<std::uint64_t>(i * n + j)) % p;
    const auto start = std::chrono::steady_clock::now();
    const long rank = nmod_mat_rref(a);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    nmod_mat_clear(a);
    std::cout << "flint n=" << n << " p=" << p << " seconds=" << seconds << " rank=" << rank
              << std::endl;
    json << (s ? ", " : "") << "{\"n\": " << n << ", \"seconds\": " << seconds
         << ", \"rank\": " << rank << "}";
  }
  json << "]}\n";
  if (argc > 3) {
    std::ofstream out(argv[3]);
    out << json.str();
    if (!out.flush()) throw std::runtime_error(std::string("cannot write ") + argv[3]);
  }
  return 0;
}
}  // namespace
