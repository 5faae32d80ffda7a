// One large RREF spread over MPI ranks, one device each
// (linalg::distributed_rref, issue 42's n = 100,000 / 200,000 items), with
// the whole result checked. Each rank builds its block of rows of the matrix
// M of check_matrix.hpp in device memory (no file, no host copy), the ranks
// reduce it in place, and each rank compares every entry of its rows of the
// result with RREF(M) = [[I, C], [0, 0]]: a row whose pivot is column t must
// be row t of that, any other row zero; the pivots must be 0 .. n - d - 1,
// each held by exactly one row. Run under mpiexec with one device per rank
// (the launcher sets CUDA_VISIBLE_DEVICES, perf/linalg/run_spread_rref.sh),
// or alone as one rank. Rank 0 prints one JSON object per prime, with each
// rank's seconds by step (DistributedRrefSeconds):
//   hepex_bench spread-rref N D SEED W MESSAGES P [P ...]
// W: panel columns (0: the default); MESSAGES: auto, host or nccl
// (DistributedRrefOptions::messages).
// Exit 0 when every check held, 2 otherwise.
#include <iomanip>
#include <iostream>
#include <sstream>

#include "bench_args.hpp"
#include "benches.hpp"
#include "check_matrix.hpp"
#include "hepex/config.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/distributed/communicator.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/distributed_rref.hpp"

namespace bench_spread_rref {

using hepex::distributed::Communicator;

// MPI for the run's length: initialised here unless it already was.
class MpiSession {
 public:
  MpiSession() {
#if HEPEX_HAS_MPI
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) {
      int provided = 0;
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
      owned_ = true;
    }
    comm_ = Communicator(MPI_COMM_WORLD);
#endif
  }
  ~MpiSession() {
#if HEPEX_HAS_MPI
    if (owned_) MPI_Finalize();
#endif
  }
  const Communicator& comm() const { return comm_; }

 private:
  Communicator comm_;
  bool owned_ = false;
};

std::string seconds_json(const hepex::linalg::DistributedRrefSeconds& s) {
  std::ostringstream out;
  out << std::setprecision(5) << "{\"candidates\": " << s.candidates << ", \"choose\": " << s.choose
      << ", \"rows\": " << s.rows << ", \"messages\": " << s.messages
      << ", \"update\": " << s.update << ", \"back\": " << s.back << ", \"total\": " << s.total
      << "}";
  return out.str();
}

using Messages = hepex::linalg::DistributedRrefOptions::Messages;

Messages messages_argument(const std::string& text) {
  if (text == "auto") return Messages::automatic;
  if (text == "host") return Messages::host;
  if (text == "nccl") return Messages::nccl;
  throw hepex::Error("MESSAGES must be auto, host or nccl, not '" + text + "'");
}

template <class Word>
int check_prime(const Communicator& comm, std::int64_t n, std::int64_t d, std::uint64_t seed,
                int width, Messages messages, std::uint64_t p) {
  using Space = hepex::DeviceSpace;
  const hepex::field::Zp<Word> f(static_cast<Word>(p));
  const hepex::perf::CheckMatrix matrix{seed, n, n - d};
  const auto [first_row, count] =
      hepex::linalg::rank_rows(static_cast<std::size_t>(n), comm.rank(), comm.size());
  const auto first = static_cast<std::int64_t>(first_row);
  const auto rows = static_cast<std::int64_t>(count);
  hepex::DeviceMatrix<Word, hepex::DeviceMemory> m(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("spread::m")), count, n);
  Kokkos::parallel_for(
      "spread::fill", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, rows * n),
      KOKKOS_LAMBDA(const std::int64_t k) {
        m(k / n, k % n) = matrix.entry(f, first + k / n, k % n);
      });
  Kokkos::fence();
  hepex::linalg::DistributedRrefOptions options;
  options.panel_columns = width;
  options.messages = messages;
  comm.barrier();
  const Kokkos::Timer timer;
  const auto r = hepex::linalg::distributed_rref(comm, f, m, options);
  const double mine = timer.seconds();
  const double seconds = static_cast<double>(comm.max(static_cast<long long>(mine * 1e6))) / 1e6;

  const auto row_pivots = hepex::to_view<hepex::DeviceMemory>(r.row_pivots, "spread::row_pivots");
  std::size_t wrong = 0;
  Kokkos::parallel_reduce(
      "spread::compare", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, rows * n),
      KOKKOS_LAMBDA(const std::int64_t k, std::size_t& bad) {
        const std::int64_t i = k / n, j = k % n, t = row_pivots(i);
        const Word want = t >= 0 ? matrix.rref_entry(f, t, j) : f.zero();
        bad += m(i, j) == want ? 0 : 1;
      },
      wrong);
  std::size_t pivot_rows = 0;
  for (const int t : r.row_pivots) pivot_rows += t >= 0 ? 1 : 0;
  const std::vector<std::string> reports = comm.all_gather(
      std::to_string(wrong) + " " + std::to_string(pivot_rows) + " " + seconds_json(r.seconds));
  std::size_t all_wrong = 0, all_pivot_rows = 0;
  std::string by_rank;
  for (const std::string& report : reports) {
    std::istringstream in(report);
    std::size_t w = 0, k = 0;
    in >> w >> k;
    all_wrong += w;
    all_pivot_rows += k;
    std::string json;
    std::getline(in >> std::ws, json);
    by_rank += (by_rank.empty() ? "" : ", ") + json;
  }
  bool pivots_ok = r.pivots.size() == static_cast<std::size_t>(n - d);
  for (std::size_t t = 0; pivots_ok && t < r.pivots.size(); ++t) {
    pivots_ok = r.pivots[t] == static_cast<int>(t);
  }
  const bool ok = all_wrong == 0 && pivots_ok && all_pivot_rows == r.rank &&
                  r.rank == static_cast<std::size_t>(n - d);
  if (comm.rank() == 0) {
    std::cout << std::setprecision(6) << "{\"n\": " << n << ", \"d\": " << d << ", \"p\": " << p
              << ", \"ranks\": " << comm.size() << ", \"space\": \"" << Space::name()
              << "\", \"matrix_gib\": "
              << static_cast<double>(n) * static_cast<double>(n) * sizeof(Word) / (1u << 30)
              << ", \"panels\": " << r.panels << ", \"nccl\": " << (r.nccl ? "true" : "false")
              << ", \"seconds\": " << seconds << ", \"rank\": " << r.rank
              << ", \"expected_rank\": " << n - d << ", \"wrong_entries\": " << all_wrong
              << ", \"pivot_rows\": " << all_pivot_rows
              << ", \"pivots_ok\": " << (pivots_ok ? "true" : "false")
              << ", \"exact\": " << (ok ? "true" : "false") << ", \"seconds_by_rank\": [" << by_rank
              << "]}" << std::endl;
  }
  return ok ? 0 : 2;
}

}  // namespace bench_spread_rref

int hepex::bench::spread_rref_main(int argc, char* argv[]) {
  if (argc < 7) {
    std::cerr << "usage: hepex_bench spread-rref N D SEED W auto|host|nccl P [P ...]\n";
    return 1;
  }
  return hepex::perf::guarded_main("hepex_bench spread-rref", [&] {
    using hepex::perf::whole_argument;
    const auto n = static_cast<std::int64_t>(whole_argument(argv[1], "N", 2, 1u << 20));
    const auto d = static_cast<std::int64_t>(whole_argument(argv[2], "D", 0, n - 1));
    const std::uint64_t seed = whole_argument(argv[3], "SEED", 0, UINT64_MAX);
    const auto width = static_cast<int>(whole_argument(argv[4], "W", 0, 1u << 16));
    const auto messages = bench_spread_rref::messages_argument(argv[5]);
    std::vector<std::uint64_t> primes;
    for (int k = 6; k < argc; ++k) primes.push_back(hepex::perf::prime_argument(argv[k], 63));
    const bench_spread_rref::MpiSession mpi;
    int status = 0;
    for (const std::uint64_t p : primes) {
      status |= p < (std::uint64_t{1} << 31) ? bench_spread_rref::check_prime<std::uint32_t>(
                                                   mpi.comm(), n, d, seed, width, messages, p)
                                             : bench_spread_rref::check_prime<std::uint64_t>(
                                                   mpi.comm(), n, d, seed, width, messages, p);
    }
    return status;
  });
}
