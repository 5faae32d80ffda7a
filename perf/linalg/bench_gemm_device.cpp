// `hepex_bench gemm`: modular products C = A B mod p for a list of shapes and
// methods, each next to the ceilings measured in the same run: the vendor's
// DGEMM (fp64, multiword) and int8 GEMM (int8) on the same shape.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_output.hpp"
#include "benches.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/real.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "hepex/linalg/random_matrix.hpp"
#include "output.hpp"
#include "progress_lines.hpp"
#include "table.hpp"

namespace hepex::bench {

namespace {

struct Shape {
  std::size_t m, k, n;
  std::string text() const {
    return std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
  }
  double products() const { return 2.0 * m * k * n; }
};

// "N" (square) or "MxKxN".
Shape parse_shape(const std::string& text) {
  std::vector<std::size_t> sizes;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('x', start), text.size());
    const std::string part = text.substr(start, end - start);
    if (part.empty() || part.size() > 9 ||
        part.find_first_not_of("0123456789") != std::string::npos || std::stoull(part) == 0) {
      throw Error("--sizes: '" + text + "' is not N or MxKxN with positive sizes below 10^9");
    }
    sizes.push_back(std::stoull(part));
    start = end + 1;
  }
  if (sizes.size() == 1) return {sizes[0], sizes[0], sizes[0]};
  if (sizes.size() == 3) return {sizes[0], sizes[1], sizes[2]};
  throw Error("--sizes: '" + text + "' is not N or MxKxN");
}

struct GemmBenchOptions {
  std::vector<std::string> shapes{"1024", "2048", "4096"};
  std::string prime = "2147483647";
  std::vector<std::string> methods{"auto"};
  int repeats = 3;
  bool keep_a = false;
  std::string json_path;
  bool verbose = false;
};

template <class Body>
double best_seconds(int repeats, const Body& body) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    body();
    Kokkos::fence();
    best = std::min(best, timer.seconds());
  }
  return best;
}

const Place vendor = runs_on(Place::device);

// The vendor DGEMM's rate on the shape (FLOP/s).
double dgemm_rate(const Shape& s, int repeats) {
  DeviceMatrix<double, DeviceMemory> a("a", s.m, s.k), b("b", s.k, s.n), c("c", s.m, s.n);
  linalg::fill_random(DeviceSpace(), field::Real64(), a, 1);
  linalg::fill_random(DeviceSpace(), field::Real64(), b, 2);
  return s.products() / best_seconds(repeats, [&] {
           backend::dgemm(DeviceSpace(), static_cast<int>(s.m), static_cast<int>(s.n),
                          static_cast<int>(s.k), a.data(), static_cast<int>(s.k), b.data(),
                          static_cast<int>(s.n), 0.0, c.data(), static_cast<int>(s.n));
         });
}

// The vendor int8 GEMM's rate on the shape padded to multiples of 16 (op/s).
double int8_gemm_rate(const Shape& s, int repeats) {
  auto round16 = [](std::size_t x) { return static_cast<int>((x + 15) / 16 * 16); };
  const int m = round16(s.m), k = round16(s.k), n = round16(s.n);
  Kokkos::View<std::int8_t*, DeviceMemory> a("a", std::size_t(m) * k), bt("bt", std::size_t(n) * k);
  Kokkos::View<std::int32_t*, DeviceMemory> c("c", std::size_t(m) * n);
  Kokkos::deep_copy(a, std::int8_t(-77));
  Kokkos::deep_copy(bt, std::int8_t(101));
  return s.products() / best_seconds(repeats, [&] {
           backend::int8_gemm(DeviceSpace(), 1, m, n, k, a.data(), k, 0, bt.data(), k, 0, c.data(),
                              n, 0);
         });
}

// GEMMs the method runs on the shape (for the table).
template <class Word>
std::string products_of(linalg::GemmMethod method, const field::Zp<Word>& f, const Shape& s) {
  switch (method) {
    case linalg::GemmMethod::fp64: return "1 DGEMM";
    case linalg::GemmMethod::multiword:
      switch (linalg::multiword_split(f.modulus()).form(s.k, vendor)) {
        case linalg::MultiwordForm::split_b: return "2 DGEMM";
        case linalg::MultiwordForm::karatsuba: return "3 DGEMM";
        default: return "4 DGEMM";
      }
    case linalg::GemmMethod::int8:
      return std::to_string(linalg::int8_crt_basis(
                                f.modulus(), std::min<std::uint64_t>(s.k, linalg::int8_max_depth))
                                .count) +
             " int8";
    default: return "kernel";
  }
}

template <class Word>
void bench_shapes(const field::Zp<Word>& f, const GemmBenchOptions& o, Table& table,
                  nlohmann::json& rows) {
  ProgressTask task("bench gemm", "measurements",
                    static_cast<double>(o.shapes.size() * o.methods.size()));
  std::size_t measured = 0;
  for (const std::string& text : o.shapes) {
    const Shape s = parse_shape(text);
    task.set_stage(s.text() + ", vendor ceilings");
    const double dgemm = dgemm_rate(s, o.repeats), int8 = int8_gemm_rate(s, o.repeats);
    DeviceMatrix<Word, DeviceMemory> a("a", s.m, s.k), b("b", s.k, s.n), c("c", s.m, s.n);
    linalg::fill_random(DeviceSpace(), f, a, 3);
    linalg::fill_random(DeviceSpace(), f, b, 4);
    for (const auto& name : o.methods) {
      const auto method =
          linalg::resolve_gemm_method(linalg::parse_gemm_method(name), f.modulus(), vendor);
      task.set_stage(s.text() + ", " + linalg::gemm_method_name(method));
      // One workspace for the repeats, as in a loop of products: the best
      // time excludes allocating the scratch matrices (and, with --keep-a,
      // converting A).
      linalg::GemmWorkspace<DeviceMemory> workspace;
      workspace.keep_left_operand(o.keep_a);
      const double seconds = best_seconds(o.repeats, [&] {
        linalg::modgemm(DeviceSpace(), f, ConstDeviceMatrix<Word, DeviceMemory>(a),
                        ConstDeviceMatrix<Word, DeviceMemory>(b), c, method, false, &workspace);
      });
      const double rate = s.products() / seconds;
      const std::string label =
          std::string(linalg::gemm_method_name(method)) + (o.keep_a ? ", A kept" : "");
      table.add_row({s.text(), label, products_of(method, f, s), fixed(seconds, 4),
                     fixed(rate / 1e12, 3), fixed(dgemm / 1e12, 3), fixed(int8 / 1e12, 3),
                     fixed(rate / dgemm, 3), fixed(rate / int8, 3)});
      rows.push_back({{"m", s.m},
                      {"k", s.k},
                      {"n", s.n},
                      {"method", linalg::gemm_method_name(method)},
                      {"a_kept", o.keep_a},
                      {"products", products_of(method, f, s)},
                      {"seconds", seconds},
                      {"modular_ops_per_s", rate},
                      {"dgemm_flops_per_s", dgemm},
                      {"int8_gemm_ops_per_s", int8}});
      task.update(static_cast<double>(++measured));
    }
  }
}

void run_bench_gemm(const GemmBenchOptions& o) {
  OutputFile json("--json", o.json_path);
  const std::uint64_t p = parse_prime_option(o.prime);
  field::check_prime_modulus(p, 63, "--prime");
  for (const auto& text : o.shapes) parse_shape(text);  // every error before any work
  for (const auto& name : o.methods) {
    linalg::resolve_gemm_method(linalg::parse_gemm_method(name), p, vendor);
  }
  std::cout << "hepex_bench gemm on " << DeviceSpace::name() << " (" << devices().front().name
            << "), p = " << p << ", C = A B mod p for M x K x N, best of " << o.repeats
            << "\nrates are 2MKN / time; the ceilings are the vendor's DGEMM and int8 GEMM on the"
               " same shape, measured in this run\n\n";
  Table table({"shape", "method", "products", "seconds", "T(mod-op)/s", "DGEMM T/s",
               "int8 GEMM T/s", "of DGEMM", "of int8"});
  nlohmann::json rows = nlohmann::json::array();
  if (p < (std::uint64_t{1} << 31)) {
    bench_shapes(field::Zp32(p), o, table, rows);
  } else {
    bench_shapes(field::Zp64(p), o, table, rows);
  }
  table.print(std::cout);
  emit_json(json, {{"benchmark", "gemm"},
                   {"device", devices().front().name},
                   {"version", version_line()},
                   {"prime", p},
                   {"rows", rows}});
}

}  // namespace

void add_gemm_bench(CLI::App& app) {
  auto g = std::make_shared<GemmBenchOptions>();
  auto* gemm = app.add_subcommand("gemm", "C = A B mod P for random matrices on the device");
  gemm->add_option("--sizes", g->shapes, "N (square) or MxKxN, comma-separated")->delimiter(',');
  gemm->add_option("--prime", g->prime, "the prime P");
  gemm->add_option("--methods", g->methods, "auto, fp64, multiword, int64, int8")->delimiter(',');
  gemm->add_option("--repeats", g->repeats, "runs per shape (best is reported)")
      ->check(CLI::Range(1, 100));
  gemm->add_flag("--keep-a", g->keep_a,
                 "A converted once for all repeats, as T in a Sparse-FGLM loop "
                 "(GemmWorkspace::keep_left_operand; default: off)");
  gemm->add_option("--json", g->json_path, "write the results to FILE (default: none)");
  gemm->add_flag("-v,--verbose", g->verbose,
                 "progress on stderr every 2 s: measurements done, ETA (default: a line every "
                 "30 s)");
  gemm->callback([g] {
    const auto watch = verbose_progress(g->verbose, 0);
    run_bench_gemm(*g);
  });
}

}  // namespace hepex::bench
