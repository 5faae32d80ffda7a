// Reading matrices from the page cache: a .npy file of N x N uint32 (values
// below 2^31 - 1) through hepex::io::read_npy into a Zp32 matrix, once with
// p = 2^31 - 1 (no value needs reducing) and once with p = 65521 (nearly
// every value is reduced), beside a Matrix Market array file of M x M through
// read_matrix_market. Each file is written to a new directory under TMPDIR
// (or /tmp), read once to be in the page cache, then timed (best of R); the
// rate is the file's bytes per second (GB = 1e9 bytes).
//   hepex_bench npy-read [N=16384] [M=3000] [R=3]
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "benches.hpp"
#include "best_seconds.hpp"
#include "hepex/io/matrix_market.hpp"
#include "hepex/io/npy.hpp"

namespace {

using hepex::Matrix;

Matrix<std::uint32_t> random_matrix(std::size_t n, std::uint32_t below) {
  Matrix<std::uint32_t> a(n, n);
  std::mt19937 rng(20261127);
  for (auto& x : a.data) x = static_cast<std::uint32_t>(rng() % below);
  return a;
}

// Times read(), which returns the matrix read, and prints one line.
template <class Read>
Matrix<std::uint32_t> time_read(const char* what, const std::string& path, int repeats, Read read) {
  Matrix<std::uint32_t> a = read();  // into the page cache
  const double seconds = hepex::perf::best_seconds(repeats, [&] { a = read(); });
  const double bytes = static_cast<double>(std::filesystem::file_size(path));
  std::printf("%-40s %7zu x %-7zu %10.3f MB %9.4f s %8.3f GB/s %8.1f M entries/s\n", what, a.rows,
              a.cols, bytes / 1e6, seconds, bytes / seconds / 1e9,
              static_cast<double>(a.rows * a.cols) / seconds / 1e6);
  return a;
}

}  // namespace

namespace {
int run(int argc, char** argv);
}

int hepex::bench::npy_read_main(int argc, char** argv) {
  return hepex::perf::guarded_main("hepex_bench npy-read", [&] { return run(argc, argv); });
}

namespace {
int run(int argc, char** argv) {
  using hepex::perf::whole_argument;
  const std::size_t n = argc > 1 ? whole_argument(argv[1], "N", 1, 1u << 17) : 16384;
  const std::size_t m = argc > 2 ? whole_argument(argv[2], "M", 1, 1u << 17) : 3000;
  const int repeats = argc > 3 ? static_cast<int>(whole_argument(argv[3], "REPEATS", 1, 1000)) : 3;
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr ? tmp : "/tmp") + "/hepex-npy-bench-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    std::perror("mkdtemp");
    return 2;
  }
  const std::filesystem::path dir = pattern;
  const hepex::field::Zp32 p31(2147483647), p16(65521);
  int status = 0;
  try {
    const std::string npy = (dir / "A.npy").string(), mtx = (dir / "A.mtx").string();
    {
      const auto a = random_matrix(n, 2147483647u);
      hepex::io::write_npy(npy, a, p31);
      const auto read = time_read("npy <u4 -> Zp32, p = 2^31 - 1", npy, repeats,
                                  [&] { return hepex::io::read_npy(npy, p31); });
      if (!(read == a)) throw hepex::Error("the .npy file read back differs");
    }
    time_read("npy <u4 -> Zp32, p = 65521 (reduced)", npy, repeats,
              [&] { return hepex::io::read_npy(npy, p16); });
    std::filesystem::remove(npy);
    const auto b = random_matrix(m, 2147483647u);
    {
      std::ofstream out(mtx);
      hepex::io::write_matrix_market(out, b, p31);
    }
    time_read("Matrix Market array -> Zp32", mtx, repeats, [&] {
      std::ifstream in(mtx);
      return hepex::io::read_matrix_market(in, mtx, p31);
    });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hepex_bench npy-read: %s\n", e.what());
    status = 2;
  }
  std::filesystem::remove_all(dir);
  return status;
}
}  // namespace
