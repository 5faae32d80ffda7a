// `hepex bench rref`: RREF timings on the device for a list of sizes, with the
// device's copy bandwidth measured in the same run (Linac's kernel is
// bandwidth bound, so every time is also reported as a fraction of it).
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench_output.hpp"
#include "commands.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/random_matrix.hpp"
#include "hepex/linalg/rref.hpp"
#include "table.hpp"

namespace hepex::cli {

namespace {

struct BenchOptions {
  std::vector<std::size_t> sizes{1024, 2048, 4096};
  std::string prime;
  std::string field;
  int repeats = 3;
  std::uint64_t seed = 1;
  std::string json_path;
};

// Device-to-device copy bandwidth (bytes read + written per second), 2 GiB.
double copy_bandwidth() {
  const std::size_t n = std::size_t{1} << 28;
  Kokkos::View<double*, DeviceMemory> a("a", n), b("b", n);
  Kokkos::deep_copy(a, 1.0);
  double best = 0;
  for (int r = 0; r < 5; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    Kokkos::deep_copy(b, a);
    Kokkos::fence();
    best = std::max(best, 2.0 * n * sizeof(double) / timer.seconds());
  }
  return best;
}

template <class F>
void bench_field(const F& f, const std::string& label, const BenchOptions& o, double bandwidth,
                 Table& table, nlohmann::json& rows) {
  using T = typename F::value_type;
  for (std::size_t n : o.sizes) {
    DeviceMatrix<T, DeviceMemory> a(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("bench")), n, n);
    double best = 1e300;
    std::size_t rank = 0;
    for (int r = 0; r < o.repeats; ++r) {
      linalg::fill_random(DeviceSpace(), f, a, o.seed + static_cast<std::uint64_t>(r));
      Kokkos::fence();
      Kokkos::Timer timer;
      rank = linalg::rref(DeviceSpace(), f, a).rank;  // ends with a device->host copy
      best = std::min(best, timer.seconds());
    }
    // Gauss-Jordan with two columns per pass reads and writes columns k..n of
    // every row once per pair of steps: about n^3 * sizeof(T) / 2 bytes.
    const double bytes = static_cast<double>(n) * n * n * sizeof(T) / 2;
    table.add_row({std::to_string(n), label, fixed(best, 4), std::to_string(rank),
                   fixed(bytes / best / 1e9, 1), fixed(bytes / best / bandwidth, 3)});
    rows.push_back({{"n", n},
                    {"field", label},
                    {"seconds", best},
                    {"rank", rank},
                    {"bytes_model", bytes},
                    {"fraction_of_copy_bandwidth", bytes / best / bandwidth}});
  }
}

void run_bench_rref(const BenchOptions& o) {
  if (o.prime.empty() == o.field.empty()) {
    throw Error("bench rref: give --prime P or --field real");
  }
  check_writable(o.json_path);
  if (!o.prime.empty()) {
    field::check_prime_modulus(parse_prime_option(o.prime), 63, "--prime");
  }
  const double bandwidth = copy_bandwidth();
  std::cout << "hepex bench rref on " << DeviceSpace::name() << " (" << devices().front().name
            << "), copy bandwidth " << fixed(bandwidth / 1e9, 0) << " GB/s (read + write), best of "
            << o.repeats << "\n\n";
  Table table({"n", "field", "seconds", "rank", "GB/s (model)", "of copy BW"});
  nlohmann::json rows = nlohmann::json::array();
  if (!o.prime.empty()) {
    const std::uint64_t p = parse_prime_option(o.prime);
    if (p < (std::uint64_t{1} << 31)) {
      bench_field(field::Zp32(p), "Zp32 p=" + o.prime, o, bandwidth, table, rows);
    } else {
      bench_field(field::Zp64(p), "Zp64 p=" + o.prime, o, bandwidth, table, rows);
    }
  } else if (o.field == "real") {
    bench_field(field::Real64(), "Real64", o, bandwidth, table, rows);
  } else {
    throw Error("bench rref: --field must be 'real'");
  }
  table.print(std::cout);
  write_json(o.json_path, {{"benchmark", "rref"},
                           {"device", devices().front().name},
                           {"copy_bandwidth", bandwidth},
                           {"rows", rows}});
}

}  // namespace

void add_bench_commands(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "benchmarks: hepex bench rref|gemm|zippel|me [...]");
  bench->require_subcommand(1);
  auto o = std::make_shared<BenchOptions>();
  auto* rref = bench->add_subcommand("rref", "RREF of random n x n matrices on the device");
  rref->add_option("--sizes", o->sizes, "matrix orders")->delimiter(',');
  rref->add_option("--prime", o->prime, "Z/p with this prime");
  rref->add_option("--field", o->field, "real (float64)");
  rref->add_option("--repeats", o->repeats, "runs per size (best is reported)")
      ->check(CLI::Range(1, 100));
  rref->add_option("--seed", o->seed, "random seed");
  rref->add_option("--json", o->json_path, "write the results to FILE");
  rref->callback([o] { run_bench_rref(*o); });

  add_bench_gemm_command(*bench);
  add_bench_zippel_command(*bench);
  add_bench_me_command(*bench);
}

}  // namespace hepex::cli
