// RREF of one large matrix on the device, in place, with the whole result
// checked (issue 42's n = 100,000 item). The matrix is the integer matrix
// M = [B | B C] of check_matrix.hpp reduced mod each prime P given, whose
// RREF is [[I, C], [0, 0]]. The program compares every entry of the RREF
// with that (the RREF is unique), and the rank and pivots; a second prime is
// the same integer matrix mod another p. Only the matrix and rref's own workspace are
// on the device. Prints one JSON object per prime:
//   hepex_bench rref-check N D SEED P [P ...]
// Exit 0 when every check held, 2 otherwise.
#include <cstdlib>
#include <iomanip>
#include <iostream>

#include "bench_args.hpp"
#include "benches.hpp"
#include "best_seconds.hpp"
#include "check_matrix.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/rref.hpp"

namespace bench_rref_check {

template <class Word>
int check_prime(std::int64_t n, std::int64_t d, std::uint64_t seed, std::uint64_t p) {
  using F = hepex::field::Zp<Word>;
  using Space = hepex::DeviceSpace;
  const F f(static_cast<Word>(p));
  const hepex::perf::CheckMatrix matrix{seed, n, n - d};
  hepex::DeviceMatrix<Word, Space::memory_space> m(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("check::m")), n, n);
  Kokkos::parallel_for(
      "check::fill", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n * n),
      KOKKOS_LAMBDA(const std::int64_t k) { m(k / n, k % n) = matrix.entry(f, k / n, k % n); });
  Kokkos::fence();
  hepex::linalg::RrefResult r;
  const double seconds =
      hepex::perf::best_seconds(1, [&] { r = hepex::linalg::rref(Space(), f, m); });
  std::size_t wrong = 0;
  Kokkos::parallel_reduce(
      "check::compare", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n * n),
      KOKKOS_LAMBDA(const std::int64_t k, std::size_t& count) {
        count += m(k / n, k % n) == matrix.rref_entry(f, k / n, k % n) ? 0 : 1;
      },
      wrong);
  bool pivots_ok = r.pivots.size() == static_cast<std::size_t>(n - d);
  for (std::size_t t = 0; pivots_ok && t < r.pivots.size(); ++t) {
    pivots_ok = r.pivots[t] == static_cast<int>(t);
  }
  const bool ok = wrong == 0 && pivots_ok && r.rank == static_cast<std::size_t>(n - d);
  std::cout << std::setprecision(6) << "{\"n\": " << n << ", \"d\": " << d << ", \"p\": " << p
            << ", \"space\": \"" << Space::name() << "\", \"matrix_gib\": "
            << static_cast<double>(n) * static_cast<double>(n) * sizeof(Word) / (1u << 30)
            << ", \"seconds\": " << seconds << ", \"rank\": " << r.rank
            << ", \"expected_rank\": " << n - d
            << ", \"blocked\": " << (r.blocked ? "true" : "false")
            << ", \"wrong_entries\": " << wrong
            << ", \"pivots_ok\": " << (pivots_ok ? "true" : "false")
            << ", \"exact\": " << (ok ? "true" : "false") << "}" << std::endl;
  return ok ? 0 : 2;
}

}  // namespace bench_rref_check

int hepex::bench::rref_check_main(int argc, char* argv[]) {
  if (argc < 5) {
    std::cerr << "usage: hepex_bench rref-check N D SEED P [P ...]\n";
    return 1;
  }
  return hepex::perf::guarded_main("hepex_bench rref-check", [&] {
    using hepex::perf::whole_argument;
    const auto n = static_cast<std::int64_t>(whole_argument(argv[1], "N", 2, 1u << 20));
    const auto d = static_cast<std::int64_t>(whole_argument(argv[2], "D", 0, n - 1));
    const std::uint64_t seed = whole_argument(argv[3], "SEED", 0, UINT64_MAX);
    std::vector<std::uint64_t> primes;
    for (int k = 4; k < argc; ++k) primes.push_back(hepex::perf::prime_argument(argv[k], 63));
    int status = 0;
    for (const std::uint64_t p : primes) {
      status |= p < (std::uint64_t{1} << 31)
                    ? bench_rref_check::check_prime<std::uint32_t>(n, d, seed, p)
                    : bench_rref_check::check_prime<std::uint64_t>(n, d, seed, p);
    }
    return status;
  });
}
