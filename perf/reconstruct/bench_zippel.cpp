// `hepex_bench zippel`: the transposed Vandermonde solves of one Zippel step
// shaped like the seed paper's benchmark (§3: a skeleton of T terms in the
// first five variables, the sixth of degree 16, so 17 values of it: 17 solves
// of one T x T system sharing its nodes), on the device and optionally on the
// host execution space, next to the measured rate of 64-bit integer products.
#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "bench_output.hpp"
#include "benches.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/progress.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/detail/vandermonde.hpp"
#include "multiply_rate.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "progress_lines.hpp"
#include "table.hpp"

namespace hepex::bench {

namespace {

struct ZippelBenchOptions {
  std::vector<std::size_t> sizes{125000, 300000, 750000};
  std::vector<std::size_t> host_sizes;
  std::size_t solves = 17;
  std::size_t variables = 5;
  std::string prime;
  std::uint64_t seed = 1;
  std::string json_path;
  bool verbose = false;
  std::string method = "auto";
};

reconstruct::detail::VandermondeMethod parse_method(const std::string& name) {
  if (name == "quadratic") return reconstruct::detail::VandermondeMethod::quadratic;
  if (name == "fast") return reconstruct::detail::VandermondeMethod::fast;
  return reconstruct::detail::VandermondeMethod::automatic;
}

// Nodes m_t = prod_l y_l^{e_tl} of T distinct random monomials in
// `variables` variables, each exponent below the smallest bound with
// bound^variables >= 8T.
reconstruct::detail::VandermondeSystems skeleton_nodes(const field::Zp64& f, std::size_t T,
                                                       std::size_t variables, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uint64_t bound = 2;
  auto capacity = [&] {
    double c = 1;
    for (std::size_t l = 0; l < variables; ++l) c *= static_cast<double>(bound);
    return c;
  };
  while (capacity() < 8.0 * static_cast<double>(T)) ++bound;
  std::vector<std::uint64_t> y(variables);
  for (auto& g : y) g = 2 + f.from_uint(rng()) % (f.modulus() - 2);
  std::unordered_set<std::uint64_t> seen;  // monomials packed in base `bound`
  reconstruct::detail::VandermondeSystems s;
  while (s.nodes.size() < T) {
    std::uint64_t key = 0, m = 1;
    for (std::size_t l = 0; l < variables; ++l) {
      const std::uint64_t e = rng() % bound;
      key = key * bound + e;
      m = f.mul(m, f.pow(y[l], e));
    }
    if (seen.insert(key).second) s.nodes.push_back(m);
  }
  std::vector<std::uint64_t> sorted = s.nodes;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    throw Error("zippel: two monomials took the same value; try another --seed");
  }
  s.offsets.push_back(T);
  return s;
}

// sum_j a_j m_j^(k+1) == b_{k+1} for one random equation k, every solve.
bool solutions_check(const field::Zp64& f, const reconstruct::detail::VandermondeSystems& s,
                     std::size_t S, const std::vector<std::uint64_t>& rhs,
                     const std::vector<std::uint64_t>& a, std::uint64_t seed) {
  const std::size_t T = s.nodes.size(), k = std::mt19937_64(seed)() % T;
  std::vector<std::uint64_t> power(T);
  for (std::size_t j = 0; j < T; ++j) power[j] = f.pow(s.nodes[j], k + 1);
  for (std::size_t r = 0; r < S; ++r) {
    std::uint64_t sum = 0;
    for (std::size_t j = 0; j < T; ++j) sum = f.fma(a[r * T + j], power[j], sum);
    if (sum != rhs[r * T + k]) return false;
  }
  return true;
}

template <class ExecSpace>
void bench_size(const field::Zp64& f, std::size_t T, const char* where, double multiply_rate,
                const ZippelBenchOptions& o, Table& table, nlohmann::json& rows) {
  const auto systems = skeleton_nodes(f, T, o.variables, o.seed + T);
  std::mt19937_64 rng(o.seed);
  std::vector<std::uint64_t> rhs(o.solves * T);
  for (auto& b : rhs) b = f.from_uint(rng());
  Kokkos::fence();
  Kokkos::Timer timer;
  const auto method = parse_method(o.method);
  const bool fast = reconstruct::detail::use_fast<ExecSpace>(method, T);
  const reconstruct::detail::TransposedVandermonde<ExecSpace> solver(f, systems, method);
  Kokkos::fence();
  const double setup = timer.seconds();
  timer.reset();
  const auto a = solver.solve(o.solves, rhs);  // ends with a device->host copy
  const double solve = timer.seconds();
  const bool ok = solutions_check(f, systems, o.solves, rhs, a, o.seed + 1);
  const double products = static_cast<double>(o.solves) * T * T;
  const double rate = products / solve;
  // The rate is the quadratic kernel's (T^2 multiply-adds per solve); for the
  // fast solve it is only an equivalent.
  table.add_row({std::to_string(T), where, fast ? "fast" : "quadratic", std::to_string(o.solves),
                 fixed(setup, 3), fixed(solve, 3), fixed(solve / o.solves, 4),
                 fixed(setup + solve, 3), fixed(rate / 1e9, 1), fixed(rate / multiply_rate, 3),
                 ok ? "yes" : "NO"});
  rows.push_back({{"terms", T},
                  {"space", where},
                  {"method", fast ? "fast" : "quadratic"},
                  {"solves", o.solves},
                  {"setup_seconds", setup},
                  {"solve_seconds", solve},
                  {"seconds_per_solve", solve / o.solves},
                  {"overall_seconds", setup + solve},
                  {"modular_multiply_adds", products},
                  {"multiply_adds_per_s", rate},
                  {"wide_multiplies_per_s", multiply_rate},
                  {"check_passed", ok}});
  if (!ok) throw Error("zippel: a solution failed its check");
}

void run_bench_zippel(const ZippelBenchOptions& o) {
  OutputFile json("--json", o.json_path);
  const std::uint64_t p =
      o.prime.empty() ? field::large_primes(1).front() : parse_prime_option(o.prime);
  const field::Zp64 f(p);
  for (const auto* list : {&o.sizes, &o.host_sizes}) {
    for (std::size_t T : *list) {
      if (T == 0) throw Error("zippel: --sizes must be positive");
    }
  }
  const double device_rate = device_wide_multiply_rate();
  const double host_rate = host_wide_multiply_rate();
  std::cout << "hepex_bench zippel on " << DeviceSpace::name() << " (" << devices().front().name
            << "), p = " << p << "\n"
            << o.solves << " transposed Vandermonde solves of T x T sharing the nodes of T random"
            << " monomials in " << o.variables << " variables\n"
            << "64x64->128-bit integer products, measured: device " << fixed(device_rate / 1e9, 1)
            << " G/s, host " << HostSpace::name() << " " << fixed(host_rate / 1e9, 2) << " G/s\n"
            << "setup: master polynomial + denominators (quadratic) or subproduct tree +"
               " denominators (fast);\nrate: solves * T^2 modular multiply-adds / solve time"
               " (for the fast method an equivalent)\n\n";
  Table table({"T", "space", "method", "solves", "setup s", "solve s", "s/solve", "overall s",
               "G mul-add/s", "of int64 mul", "check"});
  nlohmann::json rows = nlohmann::json::array();
  // A line every 30 s of a long run (main's watch): sizes done.
  ProgressTask task("bench zippel", "sizes",
                    static_cast<double>(o.sizes.size() + o.host_sizes.size()));
  std::size_t done = 0;
  for (std::size_t T : o.sizes) {
    task.set_stage("T = " + std::to_string(T) + ", device");
    bench_size<DeviceSpace>(f, T, "device", device_rate, o, table, rows);
    task.update(static_cast<double>(++done));
  }
  for (std::size_t T : o.host_sizes) {
    task.set_stage("T = " + std::to_string(T) + ", host");
    bench_size<HostSpace>(f, T, "host", host_rate, o, table, rows);
    task.update(static_cast<double>(++done));
  }
  table.print(std::cout);
  emit_json(json, {{"benchmark", "zippel"},
                   {"device", devices().front().name},
                   {"version", version_line()},
                   {"prime", p},
                   {"device_wide_multiplies_per_s", device_rate},
                   {"host_wide_multiplies_per_s", host_rate},
                   {"rows", rows}});
}

}  // namespace

void add_zippel_bench(CLI::App& app) {
  auto o = std::make_shared<ZippelBenchOptions>();
  auto* zippel = app.add_subcommand("zippel", "transposed Vandermonde solves of one Zippel step");
  zippel->add_option("--sizes", o->sizes, "skeleton terms T, on the device")
      ->delimiter(',')
      ->check(whole_number());
  zippel->add_option("--host-sizes", o->host_sizes, "skeleton terms T, on the host (default: none)")
      ->delimiter(',')
      ->check(whole_number());
  zippel->add_option("--solves", o->solves, "right-hand sides (values of the last variable)")
      ->check(CLI::Range(1, 1000));
  zippel->add_option("--variables", o->variables, "variables of the skeleton")
      ->check(CLI::Range(1, 12));
  zippel->add_option("--prime", o->prime, "the prime P (default: the largest 63-bit one)");
  zippel->add_option("--seed", o->seed, "random seed")->check(whole_number());
  zippel->add_option("--json", o->json_path, "write the results to FILE (default: none)");
  zippel
      ->add_option("--method", o->method,
                   "auto (by size), quadratic (O(T^2) per solve) or fast (O(T log^2 T))")
      ->check(CLI::IsMember({"auto", "quadratic", "fast"}));
  zippel->add_flag("-v,--verbose", o->verbose,
                   "progress on stderr every 2 s: sizes done, ETA (default: a line every 30 s)");
  zippel->callback([o] {
    const auto watch = verbose_progress(o->verbose, 0);
    run_bench_zippel(*o);
  });
}

}  // namespace hepex::bench
