// `hepex_bench rref`: RREF timings on the device for a list of sizes and
// algorithms, with the device's copy bandwidth measured in the same run
// (Linac's unblocked kernel is bandwidth bound, so every time is also
// reported as a fraction of it) and, for the blocked algorithm, the modular
// product rate of its trailing-update shape (the rate its time should follow).
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench_output.hpp"
#include "benches.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "hepex/linalg/random_matrix.hpp"
#include "hepex/linalg/rref.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "progress_lines.hpp"
#include "table.hpp"

namespace hepex::bench {

namespace {

struct BenchOptions {
  std::vector<std::size_t> sizes{1024, 2048, 4096};
  std::vector<int> blocks{0};  // RrefOptions::block_columns: 0 automatic, -1 unblocked
  int leaf = linalg::RrefOptions().leaf_columns;
  bool whole_panels = false;  // RrefOptions::sample_panels = false
  std::string prime;
  std::string field;
  int repeats = 3;
  std::uint64_t seed = 1;
  std::string json_path;
  bool verbose = false;
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

std::string algorithm_name(int block) {
  if (block < 0) return "unblocked";
  return block == 0 ? "automatic" : "blocked " + std::to_string(block);
}

// The blocked algorithm's products on a full-rank n x n matrix with panels of
// b columns (detail/rref_blocked.hpp, step 2): for the panel at column c,
// right of it (r = n - c - b columns) R = M^-1 X_I (b x b x r) and the update
// of the r rows still free (r x b x r); the back substitution has no
// non-pivot column to work on.
double blocked_product_ops(double n, double b) {
  double ops = 0;
  for (double c = 0; c < n; c += b) {
    const double w = std::min(b, n - c), right = n - c - w;
    ops += 2 * (w + right) * w * right;
  }
  return ops;
}

// Modular products per second (2MKN / time) of the trailing update's shape,
// n x b x (n, or the columns of one product where rref splits it:
// detail::product_columns) accumulated, best of 3: the rate the blocked
// algorithm's time should follow.
template <class Word>
double trailing_product_rate(const field::Zp<Word>& f, std::size_t n, std::size_t b,
                             std::uint64_t seed) {
  const auto columns = static_cast<std::size_t>(
      linalg::detail::product_columns(0, static_cast<std::int64_t>(n), static_cast<int>(n)));
  DeviceMatrix<Word, DeviceMemory> a("bench::factors", n, b), r("bench::rows", b, columns),
      c("bench::trailing", n, columns);
  linalg::fill_random(DeviceSpace(), f, a, seed);
  linalg::fill_random(DeviceSpace(), f, r, seed + 1);
  linalg::fill_random(DeviceSpace(), f, c, seed + 2);
  linalg::GemmWorkspace<DeviceMemory> workspace;
  double best = 1e300;
  for (int rep = 0; rep < 4; ++rep) {
    Kokkos::fence();
    Kokkos::Timer timer;
    linalg::modgemm(DeviceSpace(), f, ConstDeviceMatrix<Word, DeviceMemory>(a),
                    ConstDeviceMatrix<Word, DeviceMemory>(r), c, linalg::GemmMethod::automatic,
                    true, &workspace);
    Kokkos::fence();
    if (rep > 0) best = std::min(best, timer.seconds());  // the first call converts and allocates
  }
  return 2.0 * static_cast<double>(n) * static_cast<double>(b) * static_cast<double>(columns) /
         best;
}

template <class F>
void bench_field(const F& f, const std::string& label, const BenchOptions& o, double bandwidth,
                 Table& table, nlohmann::json& rows) {
  using T = typename F::value_type;
  ProgressTask task("bench rref", "measurements",
                    static_cast<double>(o.sizes.size() * o.blocks.size()));
  std::size_t measured = 0;
  for (std::size_t n : o.sizes) {
    for (const int block : o.blocks) {
      task.set_stage("n = " + std::to_string(n) + ", " + algorithm_name(block));
      DeviceMatrix<T, DeviceMemory> a(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("bench")), n, n);
      linalg::RrefOptions options;
      options.block_columns = block;
      options.leaf_columns = o.leaf;
      options.sample_panels = !o.whole_panels;
      double best = 1e300;
      linalg::RrefResult result;
      for (int r = 0; r < o.repeats; ++r) {
        linalg::fill_random(DeviceSpace(), f, a, o.seed + static_cast<std::uint64_t>(r));
        Kokkos::fence();
        Kokkos::Timer timer;
        result = linalg::rref(DeviceSpace(), f, a, options);  // ends with a device->host copy
        best = std::min(best, timer.seconds());
      }
      // Gauss-Jordan with two columns per pass reads and writes columns k..n
      // of every row once per pair of steps: about n^3 * sizeof(T) / 2 bytes.
      const double bytes = static_cast<double>(n) * n * n * sizeof(T) / 2;
      nlohmann::json row{{"n", n},
                         {"field", label},
                         {"algorithm", result.blocked ? "blocked" : "unblocked"},
                         {"block_columns", block},
                         {"leaf_columns", o.leaf},
                         {"sample_panels", !o.whole_panels},
                         {"seconds", best},
                         {"rank", result.rank},
                         {"bytes_model", bytes},
                         {"fraction_of_copy_bandwidth", bytes / best / bandwidth}};
      std::string of_rate = "-";
      if constexpr (F::is_exact) {  // Z/p: modgemm
        if (result.blocked) {
          const int b = block > 0 ? block : linalg::automatic_blocking<DeviceSpace>().block;
          const double rate = trailing_product_rate(f, n, static_cast<std::size_t>(b), o.seed);
          const double fraction = blocked_product_ops(n, b) / rate / best;
          row["trailing_product_rate"] = rate;
          row["fraction_of_product_rate"] = fraction;
          of_rate = fixed(fraction, 2) + " of " + fixed(rate / 1e12, 1) + "T";
        }
      }
      table.add_row({std::to_string(n), label, algorithm_name(block), fixed(best, 4),
                     std::to_string(result.rank), fixed(bytes / best / bandwidth, 3), of_rate});
      rows.push_back(row);
      task.update(static_cast<double>(++measured));
    }
  }
}

void run_bench_rref(const BenchOptions& o) {
  if (o.prime.empty() == o.field.empty()) {
    throw Error("rref: give --prime P or --field real");
  }
  OutputFile json("--json", o.json_path);
  if (!o.prime.empty()) {
    field::check_prime_modulus(parse_prime_option(o.prime), 63, "--prime");
  }
  const double bandwidth = copy_bandwidth();
  std::cout << "hepex_bench rref on " << DeviceSpace::name() << " (" << devices().front().name
            << "), copy bandwidth " << fixed(bandwidth / 1e9, 0) << " GB/s (read + write), best of "
            << o.repeats << "\n\n";
  Table table({"n", "field", "algorithm", "seconds", "rank", "of copy BW (unblocked model)",
               "of modgemm rate"});
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
    throw Error("rref: --field must be 'real'");
  }
  table.print(std::cout);
  emit_json(json, {{"benchmark", "rref"},
                   {"device", devices().front().name},
                   {"copy_bandwidth", bandwidth},
                   {"rows", rows}});
}

}  // namespace

void add_rref_bench(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  auto* rref = app.add_subcommand("rref", "RREF of random n x n matrices on the device");
  rref->add_option("--sizes", o->sizes, "matrix orders")->delimiter(',')->check(whole_number());
  rref->add_option("--prime", o->prime,
                   "Z/p with this prime (no default: give --prime or --field)");
  rref->add_option("--field", o->field, "real (float64), instead of --prime (default: none)");
  rref->add_option("--repeats", o->repeats, "runs per size (best is reported)")
      ->check(CLI::Range(1, 100));
  rref->add_option("--blocks", o->blocks,
                   "algorithms: panel widths of the blocked one, 0 automatic, -1 unblocked")
      ->delimiter(',')
      ->check(CLI::Range(-1, 1 << 20));
  rref->add_option("--leaf", o->leaf,
                   "panels of at most this many columns are reduced by the unblocked kernel "
                   "(0: the automatic choice's)")
      ->check(CLI::Range(0, 1 << 20));
  rref->add_flag("--whole-panels", o->whole_panels,
                 "reduce every panel in all its free rows, never a sample first "
                 "(RrefOptions::sample_panels = false; default: off)");
  rref->add_option("--seed", o->seed, "random seed")->check(whole_number());
  rref->add_option("--json", o->json_path, "write the results to FILE (default: none)");
  rref->add_flag("-v,--verbose", o->verbose,
                 "progress on stderr every 2 s: measurements done, ETA (default: a line every "
                 "30 s)");
  rref->callback([o] {
    const auto watch = verbose_progress(o->verbose, 0);
    run_bench_rref(*o);
  });
}

}  // namespace hepex::bench
