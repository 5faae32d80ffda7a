// RREF on one CPU core: hepex's blocked and unblocked algorithms beside
// FFLAS-FFPACK's ReducedRowEchelonForm, same prime, same random n x n input.
//   hepex_bench_rref_fflas PRIME N1,N2,... [JSON_FILE [UNBLOCKED_MAX_N]]
// Best of 2 runs each; the unblocked algorithm only up to UNBLOCKED_MAX_N
// (default 2000: it is cubic in memory passes). The blocked RREF must equal
// the unblocked one entry for entry and every rank must agree (exit status 2
// otherwise). FFLAS-FFPACK gets ModularBalanced<double> for p <= 189812531
// and ModularBalanced<int64_t> for p <= 6074000999; larger p is not run
// (its Modular<Integer> is a multimodular fallback, no fair anchor). One
// core: OpenBLAS set to one thread, hepex's host space Serial; pin the
// process with `taskset -c 0`.
#include <fflas-ffpack/ffpack/ffpack.h>
#include <givaro/modular-balanced.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "best_seconds.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/random.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/rref.hpp"

extern "C" void openblas_set_num_threads(int threads);

namespace {

constexpr int repeats = 2;

// FFLAS-FFPACK's RREF of `a` (residues) over the field F: best time, rank.
template <class Field>
double time_fflas(std::uint64_t p, std::size_t n, const std::vector<std::uint64_t>& a,
                  std::size_t& rank) {
  const Field F(static_cast<typename Field::Element>(p));
  auto* A = FFLAS::fflas_new(F, n, n);
  std::vector<std::size_t> P(n), Q(n);
  return hepex::perf::best_seconds(repeats, [&] {
    for (std::size_t i = 0; i < n * n; ++i) F.init(A[i], a[i]);
    rank = FFPACK::ReducedRowEchelonForm(F, n, n, A, n, P.data(), Q.data());
  });
}

template <class Word>
int run(std::uint64_t p, const std::vector<long>& sizes, long unblocked_max,
        std::ostringstream& json) {
  using hepex::HostSpace;
  const hepex::field::Zp<Word> f(static_cast<Word>(p));
  bool first = true;
  for (const long size : sizes) {
    const auto n = static_cast<std::size_t>(size);
    std::vector<std::uint64_t> a(n * n);
    for (std::size_t i = 0; i < n * n; ++i) a[i] = hepex::random::counter_u64(1, i) % p;
    hepex::DeviceMatrix<Word, HostSpace::memory_space> m("a", n, n), blocked_result("b", n, n);
    auto fill = [&] {
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) m(i, j) = static_cast<Word>(a[i * n + j]);
    };
    auto time_hepex = [&](int block, std::size_t& rank, bool sample_panels = true) {
      hepex::linalg::RrefOptions options;
      options.block_columns = block;
      options.sample_panels = sample_panels;
      double best = 1e300;
      for (int r = 0; r < repeats; ++r) {
        fill();
        const auto start = std::chrono::steady_clock::now();
        rank = hepex::linalg::rref(HostSpace(), f, m, options).rank;
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      return best;
    };
    std::size_t rank_blocked = 0, rank_unblocked = 0, rank_fflas = 0;
    // The blocked algorithm with the automatic choice's panels, at every size.
    const double t_blocked =
        time_hepex(hepex::linalg::automatic_blocking<HostSpace>().block, rank_blocked);
    Kokkos::deep_copy(blocked_result, m);
    // Whether m holds the blocked result; else says where it differs.
    auto same_as_blocked = [&](const char* what) {
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
          if (m(i, j) != blocked_result(i, j)) {
            std::cerr << what << " differ at (" << i << ", " << j << ")\n";
            return false;
          }
      return true;
    };
    // The same with every panel reduced in all its free rows (no sample).
    std::size_t rank_whole = 0;
    const double t_whole =
        time_hepex(hepex::linalg::automatic_blocking<HostSpace>().block, rank_whole, false);
    if (!same_as_blocked("the RREFs with sampled and whole panels")) return 2;
    double t_unblocked = -1;
    if (size <= unblocked_max) {
      t_unblocked = time_hepex(-1, rank_unblocked);
      if (!same_as_blocked("the blocked and unblocked RREFs")) return 2;
    }
    double t_fflas = -1;
    std::string fflas_field = "none";
    if (p <= 189812531) {
      t_fflas = time_fflas<Givaro::ModularBalanced<double>>(p, n, a, rank_fflas);
      fflas_field = "ModularBalanced<double>";
    } else if (p <= 6074000999ull) {
      t_fflas = time_fflas<Givaro::ModularBalanced<std::int64_t>>(p, n, a, rank_fflas);
      fflas_field = "ModularBalanced<int64_t>";
    }
    if ((t_unblocked >= 0 && rank_unblocked != rank_blocked) ||
        (t_fflas >= 0 && rank_fflas != rank_blocked)) {
      std::cerr << "ranks differ: blocked " << rank_blocked << " unblocked " << rank_unblocked
                << " fflas " << rank_fflas << "\n";
      return 2;
    }
    std::cout << "n=" << n << " p=" << p << " rank=" << rank_blocked << " blocked=" << t_blocked
              << " whole_panels=" << t_whole << " unblocked=" << t_unblocked << " fflas("
              << fflas_field << ")=" << t_fflas << std::endl;
    json << (first ? "" : ",\n  ") << "{\"n\": " << n << ", \"prime\": " << p
         << ", \"rank\": " << rank_blocked << ", \"hepex_blocked_s\": " << t_blocked
         << ", \"hepex_whole_panels_s\": " << t_whole << ", \"hepex_unblocked_s\": " << t_unblocked
         << ", \"fflas_field\": \"" << fflas_field << "\", \"fflas_s\": " << t_fflas << "}";
    first = false;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: hepex_bench_rref_fflas PRIME N1,N2,... [JSON_FILE [UNBLOCKED_MAX_N]]\n";
    return 1;
  }
  openblas_set_num_threads(1);
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::uint64_t p = std::strtoull(argv[1], nullptr, 10);
  std::vector<long> sizes;
  std::stringstream list(argv[2]);
  for (std::string item; std::getline(list, item, ',');) sizes.push_back(std::stol(item));
  const long unblocked_max = argc > 4 ? std::stol(argv[4]) : 2000;
  std::ostringstream json;
  json << "{\"benchmark\": \"rref_cpu\", \"host_space\": \"" << hepex::HostSpace::name()
       << "\", \"rows\": [\n  ";
  const int status = p < (1ull << 32) ? run<std::uint32_t>(p, sizes, unblocked_max, json)
                                      : run<std::uint64_t>(p, sizes, unblocked_max, json);
  json << "]}\n";
  if (argc > 3 && status == 0) std::ofstream(argv[3]) << json.str();
  return status;
}
