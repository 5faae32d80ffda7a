// Growing an echelon form (linalg::RowEchelon, issue 42) beside recomputing
// it: ROWS + ADD random rows of COLS residues mod P are made on the chosen
// space; per repeat, the form of the first ROWS rows is built (one
// elimination through the growing form: "base"), then the next ADD rows are
// added ("add"), and the RREF of all ROWS + ADD rows is computed afresh
// ("fresh", rref in place on a copy). The grown form must equal the fresh
// RREF's non-zero rows (checked on the space, every repeat). Prints one JSON
// object per repeat and the best times:
//   hepex_bench row-space ROWS ADD COLS P host|device REPEATS
#include <cstdlib>
#include <iomanip>
#include <iostream>

#include "bench_args.hpp"
#include "benches.hpp"
#include "best_seconds.hpp"
#include "hepex/linalg/random_matrix.hpp"
#include "hepex/linalg/row_echelon.hpp"

namespace bench_row_space {

template <class Space>
int run(std::size_t rows, std::size_t add, std::size_t cols, std::uint64_t p, int repeats) {
  using F = hepex::field::Zp32;
  using Memory = typename Space::memory_space;
  using Mat = hepex::DeviceMatrix<std::uint32_t, Memory>;
  using ConstMat = hepex::ConstDeviceMatrix<std::uint32_t, Memory>;
  const F f(p);
  const Space space;
  Mat all("bench::rows", rows + add, cols), work("bench::fresh", rows + add, cols);
  hepex::linalg::fill_random(space, f, all, 42);
  double best_base = 1e300, best_add = 1e300, best_fresh = 1e300;
  int failures = 0;
  for (int r = 0; r < repeats; ++r) {
    hepex::linalg::RowEchelon<Space, F> form(space, f, cols);
    const double base = hepex::perf::best_seconds(1, [&] {
      form.add_rows(ConstMat(all.data(), rows, cols));
      space.fence();
    });
    std::size_t grew = 0;
    const double added = hepex::perf::best_seconds(1, [&] {
      grew = form.add_rows(ConstMat(all.data() + rows * cols, add, cols));
      space.fence();
    });
    Kokkos::deep_copy(work, all);
    space.fence();
    hepex::linalg::RrefResult fresh_result;
    const double fresh = hepex::perf::best_seconds(1, [&] {
      fresh_result = hepex::linalg::rref(space, f, work);
      space.fence();
    });
    // The grown form against the fresh RREF's first rank rows.
    const Mat grown = form.rref();
    const int rank = static_cast<int>(form.rank());
    std::size_t differ = fresh_result.rank == form.rank() ? 0 : 1;
    Kokkos::parallel_reduce(
        "bench::compare",
        Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(
            space, 0, static_cast<std::int64_t>(rank) * static_cast<std::int64_t>(cols)),
        KOKKOS_LAMBDA(const std::int64_t k, std::size_t& count) {
          count += grown.data()[k] != work.data()[k] ? 1 : 0;
        },
        differ);
    if (differ != 0) ++failures;
    best_base = std::min(best_base, base);
    best_add = std::min(best_add, added);
    best_fresh = std::min(best_fresh, fresh);
    std::cout << std::setprecision(6) << "{\"space\": \"" << Space::name()
              << "\", \"rows\": " << rows << ", \"add\": " << add << ", \"cols\": " << cols
              << ", \"p\": " << p << ", \"repeat\": " << r << ", \"base_seconds\": " << base
              << ", \"add_seconds\": " << added << ", \"fresh_seconds\": " << fresh
              << ", \"rank\": " << rank << ", \"rank_grew\": " << grew
              << ", \"equal_to_fresh\": " << (differ == 0 ? "true" : "false") << "}\n";
  }
  std::cout << "best: base " << best_base << " s, add " << best_add << " s, fresh " << best_fresh
            << " s, fresh / add " << best_fresh / best_add << (failures ? ", MISMATCH" : "")
            << "\n";
  return failures == 0 ? 0 : 2;
}

}  // namespace bench_row_space

int hepex::bench::row_space_main(int argc, char* argv[]) {
  if (argc != 7) {
    std::cerr << "usage: hepex_bench row-space ROWS ADD COLS P host|device REPEATS\n";
    return 1;
  }
  return hepex::perf::guarded_main("hepex_bench row-space", [&] {
    using hepex::perf::whole_argument;
    const std::size_t rows = whole_argument(argv[1], "ROWS", 1, 1u << 20),
                      add = whole_argument(argv[2], "ADD", 1, 1u << 20),
                      cols = whole_argument(argv[3], "COLS", 1, 1u << 20);
    const std::uint64_t p = hepex::perf::prime_argument(argv[4], 31);
    const int repeats = static_cast<int>(whole_argument(argv[6], "REPEATS", 1, 1000));
    if (hepex::parse_place(argv[5]) == hepex::Place::device) {
      return bench_row_space::run<hepex::DeviceSpace>(rows, add, cols, p, repeats);
    }
    return bench_row_space::run<hepex::HostSpace>(rows, add, cols, p, repeats);
  });
}
