// The C++ side of perf/python/run_rref_python_bench.sh: the time of hepex's host
// API rref(field, Matrix&, backend) on an n x n matrix of uniform residues mod
// p (the copies to and from the device included, as a C++ caller has them).
// Prints "cpp_api N P BACKEND SECONDS..." (each repeat).
#include <cstdlib>
#include <iostream>

#include "bench_args.hpp"
#include "benches.hpp"
#include "best_seconds.hpp"
#include "hepex/core/random.hpp"
#include "hepex/linalg/rref.hpp"

int hepex::bench::rref_api_main(int argc, char* argv[]) {
  if (argc != 5) {
    std::cerr << "usage: hepex_bench rref-api N P host|device REPEATS\n";
    return 1;
  }
  return hepex::perf::guarded_main("hepex_bench rref-api", [&] {
    using hepex::perf::whole_argument;
    const std::size_t n = whole_argument(argv[1], "N", 1, 1u << 17);
    const std::uint64_t p = hepex::perf::prime_argument(argv[2], 31);
    const hepex::Place backend = hepex::parse_place(argv[3]);
    const int repeats = static_cast<int>(whole_argument(argv[4], "REPEATS", 1, 1000));
    const hepex::field::Zp32 f(p);
    hepex::Matrix<std::uint32_t> a(n, n);
    for (std::size_t k = 0; k < a.data.size(); ++k) {
      a.data[k] = static_cast<std::uint32_t>(hepex::random::counter_u64(7, k) % p);
    }
    std::cout << "cpp_api " << n << ' ' << p << ' ' << argv[3];
    for (int r = 0; r < repeats; ++r) {
      hepex::Matrix<std::uint32_t> work = a;  // rref works in place: not timed
      const double seconds =
          hepex::perf::best_seconds(1, [&] { hepex::linalg::rref(f, work, backend); });
      std::cout << ' ' << seconds;
    }
    std::cout << '\n';
    return 0;
  });
}
