// `hepex bench rref`: RREF timings on the device for a list of sizes, with the
// device's copy bandwidth measured in the same run (Linac's kernel is
// bandwidth bound, so every time is also reported as a fraction of it).
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/modgemm.hpp"
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

std::string fixed(double x, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << x;
  return out.str();
}

// Fails before any work when the JSON summary could not be written.
void check_writable(const std::string& path) {
  if (!path.empty() && !std::ofstream(path, std::ios::app)) {
    throw Error("--json: cannot write '" + path + "'");
  }
}

// Writes a benchmark's JSON summary when a path was given.
void write_json(const std::string& path, const nlohmann::json& summary) {
  if (path.empty()) return;
  std::ofstream out(path);
  out << summary.dump(2) << '\n';
  if (!out) throw Error("--json: cannot write '" + path + "'");
}

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
    DeviceMatrix<T, DeviceMemory> a(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                                       std::string("bench")),
                                    n, n);
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
    rows.push_back({{"n", n}, {"field", label}, {"seconds", best}, {"rank", rank},
                    {"bytes_model", bytes}, {"fraction_of_copy_bandwidth", bytes / best / bandwidth}});
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
  std::cout << "hepex bench rref on " << DeviceSpace::name() << " ("
            << devices().front().name << "), copy bandwidth " << fixed(bandwidth / 1e9, 0)
            << " GB/s (read + write), best of " << o.repeats << "\n\n";
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
  write_json(o.json_path, {{"benchmark", "rref"}, {"device", devices().front().name},
                           {"copy_bandwidth", bandwidth}, {"rows", rows}});
}

struct GemmBenchOptions {
  std::vector<std::size_t> sizes{1024, 2048, 4096};
  std::string prime = "2147483647";
  std::vector<std::string> methods{"auto"};
  int repeats = 3;
  std::string json_path;
};

// The device's own DGEMM rate on an n x n x n product (the ceiling for fp64).
double dgemm_rate(std::size_t n) {
  DeviceMatrix<double, DeviceMemory> a("a", n, n), b("b", n, n), c("c", n, n);
  linalg::fill_random(DeviceSpace(), field::Real64(), a, 1);
  linalg::fill_random(DeviceSpace(), field::Real64(), b, 2);
  const Backend where = has_accelerator ? Backend::device : Backend::host;
  double best = 1e300;
  for (int r = 0; r < 3; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    backend::dgemm(where, static_cast<int>(n), static_cast<int>(n), static_cast<int>(n),
                   a.data(), static_cast<int>(n), b.data(), static_cast<int>(n), c.data(),
                   static_cast<int>(n));
    best = std::min(best, timer.seconds());
  }
  return 2.0 * n * n * n / best;
}

template <class Word>
void bench_gemm_sizes(const field::Zp<Word>& f, const GemmBenchOptions& o, Table& table,
                      nlohmann::json& rows) {
  for (std::size_t n : o.sizes) {
    const double ceiling = dgemm_rate(n);
    DeviceMatrix<Word, DeviceMemory> a("a", n, n), b("b", n, n), c("c", n, n);
    linalg::fill_random(DeviceSpace(), f, a, 3);
    linalg::fill_random(DeviceSpace(), f, b, 4);
    for (const auto& name : o.methods) {
      const linalg::GemmMethod method =
          linalg::resolve_gemm_method(linalg::parse_gemm_method(name), f.modulus());
      double best = 1e300;
      for (int r = 0; r < o.repeats; ++r) {
        Kokkos::fence();
        Kokkos::Timer timer;
        linalg::modgemm(DeviceSpace(), f, ConstDeviceMatrix<Word, DeviceMemory>(a),
                        ConstDeviceMatrix<Word, DeviceMemory>(b), c, method);
        Kokkos::fence();
        best = std::min(best, timer.seconds());
      }
      const double rate = 2.0 * n * n * n / best;
      table.add_row({std::to_string(n), linalg::gemm_method_name(method), fixed(best, 4),
                     fixed(rate / 1e12, 2), fixed(ceiling / 1e12, 2), fixed(rate / ceiling, 3)});
      rows.push_back({{"n", n}, {"method", linalg::gemm_method_name(method)}, {"seconds", best},
                      {"modular_ops_per_s", rate}, {"dgemm_flops_per_s", ceiling}});
    }
  }
}

void run_bench_gemm(const GemmBenchOptions& o) {
  check_writable(o.json_path);
  const std::uint64_t p = parse_prime_option(o.prime);
  field::check_prime_modulus(p, 63, "--prime");
  std::cout << "hepex bench gemm on " << DeviceSpace::name() << " (" << devices().front().name
            << "), p = " << p << ", n x n x n, best of " << o.repeats << "\n\n";
  Table table({"n", "method", "seconds", "T(mod-op)/s", "DGEMM TFLOP/s", "of DGEMM"});
  nlohmann::json rows = nlohmann::json::array();
  if (p < (std::uint64_t{1} << 31)) {
    bench_gemm_sizes(field::Zp32(p), o, table, rows);
  } else {
    bench_gemm_sizes(field::Zp64(p), o, table, rows);
  }
  table.print(std::cout);
  write_json(o.json_path, {{"benchmark", "gemm"}, {"device", devices().front().name},
                           {"prime", p}, {"rows", rows}});
}

}  // namespace

void add_bench_commands(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "benchmarks: hepex bench rref|gemm [...]");
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

  auto g = std::make_shared<GemmBenchOptions>();
  auto* gemm = bench->add_subcommand("gemm", "C = A B mod P for random n x n matrices on the device");
  gemm->add_option("--sizes", g->sizes, "matrix orders")->delimiter(',');
  gemm->add_option("--prime", g->prime, "the prime P");
  gemm->add_option("--methods", g->methods, "auto, fp64, int64, int8")->delimiter(',');
  gemm->add_option("--repeats", g->repeats, "runs per size (best is reported)")
      ->check(CLI::Range(1, 100));
  gemm->add_option("--json", g->json_path, "write the results to FILE");
  gemm->callback([g] { run_bench_gemm(*g); });
}

}  // namespace hepex::cli
