// RREF of one large matrix on the device, in place, with the whole result
// checked (issue 42's n = 100,000 item). The matrix is the integer matrix
// M = [B | B C] reduced mod each prime P given: B (n x (n-d)) has uniform
// 32-bit entries from the counter-based generator, and column s of C is
// e_a + c e_b (a, b < n - d and 1 <= c <= 1000 drawn from s), so that
// RREF(M) = [[I, C], [0, 0]] over Z and mod every prime for which B keeps
// full column rank. The program compares every entry of the RREF with that
// (the RREF is unique), and the rank and pivots; a second prime is the same
// integer matrix mod another p. Only the matrix and rref's own workspace are
// on the device. Prints one JSON object per prime:
//   hepex_bench rref-check N D SEED P [P ...]
// Exit 0 when every check held, 2 otherwise.
#include <cstdlib>
#include <iomanip>
#include <iostream>

#include "bench_args.hpp"
#include "benches.hpp"
#include "best_seconds.hpp"
#include "hepex/core/random.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/rref.hpp"

namespace bench_rref_check {

// Column s of the dependent block: M(:, n-d+s) = M(:, a) + c M(:, b).
struct Dependent {
  std::uint64_t seed;
  std::int64_t independent;  // n - d
  KOKKOS_INLINE_FUNCTION std::int64_t a(std::int64_t s) const {
    return static_cast<std::int64_t>(hepex::random::counter_u64(seed + 1, 3 * s) %
                                     static_cast<std::uint64_t>(independent));
  }
  KOKKOS_INLINE_FUNCTION std::int64_t b(std::int64_t s) const {
    return static_cast<std::int64_t>(hepex::random::counter_u64(seed + 1, 3 * s + 1) %
                                     static_cast<std::uint64_t>(independent));
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t c(std::int64_t s) const {
    return 1 + hepex::random::counter_u64(seed + 1, 3 * s + 2) % 1000;
  }
  // B(i, j): a uniform 32-bit integer.
  KOKKOS_INLINE_FUNCTION std::uint64_t entry(std::int64_t n, std::int64_t i, std::int64_t j) const {
    return hepex::random::counter_u64(seed, static_cast<std::uint64_t>(i * n + j)) >> 32;
  }
};

template <class Word>
int check_prime(std::int64_t n, std::int64_t d, std::uint64_t seed, std::uint64_t p) {
  using F = hepex::field::Zp<Word>;
  using Space = hepex::DeviceSpace;
  const F f(static_cast<Word>(p));
  const Dependent dep{seed, n - d};
  hepex::DeviceMatrix<Word, Space::memory_space> m(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("check::m")), n, n);
  Kokkos::parallel_for(
      "check::fill", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n * n),
      KOKKOS_LAMBDA(const std::int64_t k) {
        const std::int64_t i = k / n, j = k % n;
        if (j < n - d) {
          m(i, j) = f.from_uint(dep.entry(n, i, j));
        } else {
          const std::int64_t s = j - (n - d);
          m(i, j) = f.add(f.from_uint(dep.entry(n, i, dep.a(s))),
                          f.mul(f.from_uint(dep.c(s)), f.from_uint(dep.entry(n, i, dep.b(s)))));
        }
      });
  Kokkos::fence();
  hepex::linalg::RrefResult r;
  const double seconds =
      hepex::perf::best_seconds(1, [&] { r = hepex::linalg::rref(Space(), f, m); });
  std::size_t wrong = 0;
  Kokkos::parallel_reduce(
      "check::compare", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n * n),
      KOKKOS_LAMBDA(const std::int64_t k, std::size_t& count) {
        const std::int64_t i = k / n, j = k % n;
        Word want = f.zero();
        if (i < n - d) {
          if (j < n - d) {
            want = i == j ? f.one() : f.zero();
          } else {
            const std::int64_t s = j - (n - d);
            if (i == dep.a(s)) want = f.add(want, f.one());
            if (i == dep.b(s)) want = f.add(want, f.from_uint(dep.c(s)));
          }
        }
        count += m(i, j) == want ? 0 : 1;
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
