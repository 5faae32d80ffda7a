// The CPU anchor for modgemm: FFLAS-FFPACK's fgemm beside
// hepex::linalg::modgemm on the host, on one core, for the same prime and the
// same inputs. Prints one line per (size, implementation) and, with a JSON
// file, the same rows as JSON.
//   hepex_bench_gemm_fflas PRIME N1,N2,... [JSON_FILE]
//
// For each n: random residues A, B (n x n), C = A B mod p, best of 3 runs, by
// FFLAS-FFPACK and by every hepex method exact for p (fp64, multiword, int64; the host int8 GEMM is
// plain loops, not a CPU method). Each hepex product must equal FFLAS-FFPACK's entry for entry
// (exit status 2 otherwise). FFLAS-FFPACK gets the fastest Givaro field that holds p:
//   ModularBalanced<double>   p <= 189812531 (2^27.5): BLAS DGEMM, with
//                             Strassen-Winograd levels from n = 1000 on;
//   ModularBalanced<int64_t>  p <= 6074000999 (2^32.5): its SIMD int64 GEMM;
//   Modular<Integer>          larger p: multimodular (RNS) DGEMMs.
// One core: OpenBLAS is set to one thread, fgemm is called with
// ParSeqHelper::Sequential, and hepex's host execution space must run one
// thread (Serial, or OpenMP with --kokkos-num-threads=1); pin the process
// with `taskset -c 0`.
#include <fflas-ffpack/fflas/fflas.h>
#include <givaro/modular-balanced.h>
#include <givaro/modular-integer.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "best_seconds.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/random.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/modgemm.hpp"

// OpenBLAS's own entry points (not in the CBLAS header FFLAS-FFPACK uses).
extern "C" {
void openblas_set_num_threads(int threads);
char* openblas_get_config(void);
char* openblas_get_corename(void);
}

namespace {

constexpr int repeats = 3;

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

template <class Field>
const char* field_name() {
  if (std::is_same<Field, Givaro::ModularBalanced<double>>::value) return "ModularBalanced<double>";
  if (std::is_same<Field, Givaro::ModularBalanced<std::int64_t>>::value)
    return "ModularBalanced<int64_t>";
  return "Modular<Integer>";
}

// An FFLAS-FFPACK element as a residue in [0, p): the balanced fields hold
// (-p/2, p/2], Modular<Integer> already [0, p).
template <class Element>
std::uint64_t to_residue(const Element& x, std::uint64_t p) {
  const auto v = static_cast<std::int64_t>(x);
  return v < 0 ? static_cast<std::uint64_t>(v) + p : static_cast<std::uint64_t>(v);
}
std::uint64_t to_residue(const Givaro::Integer& x, std::uint64_t) {
  return static_cast<std::uint64_t>(x);
}

// C = A B mod p by FFLAS-FFPACK: best time; the product, as residues, in `c`.
template <class Field>
double time_fflas(const Field& F, std::uint64_t p, std::size_t n,
                  const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
                  std::vector<std::uint64_t>& c) {
  auto* A = FFLAS::fflas_new(F, n, n);
  auto* B = FFLAS::fflas_new(F, n, n);
  auto* C = FFLAS::fflas_new(F, n, n);
  for (std::size_t i = 0; i < n * n; ++i) {
    F.init(A[i], a[i]);
    F.init(B[i], b[i]);
  }
  const double seconds = hepex::perf::best_seconds(repeats, [&] {
    FFLAS::fgemm(F, FFLAS::FflasNoTrans, FFLAS::FflasNoTrans, n, n, n, F.one, A, n, B, n, F.zero, C,
                 n, FFLAS::ParSeqHelper::Sequential());
  });
  c.resize(n * n);
  for (std::size_t i = 0; i < n * n; ++i) c[i] = to_residue(C[i], p);
  FFLAS::fflas_delete(A, B, C);
  return seconds;
}

template <class Field, class Word>
int run(const Field& F, const hepex::field::Zp<Word>& f, const std::vector<long>& sizes,
        std::ostringstream& json) {
  using hepex::linalg::GemmMethod;
  const std::uint64_t p = f.modulus();
  bool first_row = true;
  for (const long size : sizes) {
    const auto n = static_cast<std::size_t>(size);
    std::vector<std::uint64_t> a(n * n), b(n * n), c_fflas;
    hepex::Matrix<Word> ha(n, n), hb(n, n);
    for (std::size_t i = 0; i < n * n; ++i) {
      a[i] = hepex::random::counter_u64(1, i) % p;
      b[i] = hepex::random::counter_u64(2, i) % p;
      ha.data[i] = static_cast<Word>(a[i]);
      hb.data[i] = static_cast<Word>(b[i]);
    }
    const double flops = 2.0 * n * n * n;

    const double t_fflas = time_fflas(F, p, n, a, b, c_fflas);
    // fgemm's own choice of Strassen-Winograd recursion levels for this n.
    const int levels = FFLAS::Protected::WinogradSteps(F, n);
    std::cout << "n=" << n << " p=" << p << " fflas " << field_name<Field>()
              << " seconds=" << t_fflas << " GFLOP/s=" << flops / t_fflas / 1e9
              << " winograd_levels=" << levels << std::endl;
    json << (first_row ? "" : ", ") << "{\"n\": " << n
         << ", \"implementation\": \"fflas-ffpack\", \"method\": "
         << json_string(field_name<Field>()) << ", \"seconds\": " << t_fflas
         << ", \"gflops\": " << flops / t_fflas / 1e9 << ", \"winograd_levels\": " << levels << "}";
    first_row = false;

    for (const GemmMethod requested :
         {GemmMethod::fp64, GemmMethod::multiword, GemmMethod::int64}) {
      try {
        hepex::linalg::resolve_gemm_method(requested, p, hepex::Place::host);
      } catch (const hepex::Error& e) {
        std::cout << "n=" << n << " p=" << p << " hepex "
                  << hepex::linalg::gemm_method_name(requested) << " skipped: " << e.what()
                  << std::endl;
        continue;
      }
      // The View API on the host, in place, with one workspace for the
      // repeats (as in a loop of products).
      using Memory = hepex::HostSpace::memory_space;
      hepex::Matrix<Word> c(n, n);
      hepex::linalg::GemmWorkspace<Memory> workspace;
      const double t = hepex::perf::best_seconds(repeats, [&] {
        hepex::linalg::modgemm(
            hepex::HostSpace(), f, hepex::ConstDeviceMatrix<Word, Memory>(ha.data.data(), n, n),
            hepex::ConstDeviceMatrix<Word, Memory>(hb.data.data(), n, n),
            hepex::DeviceMatrix<Word, Memory>(c.data.data(), n, n), requested, false, &workspace);
      });
      for (std::size_t i = 0; i < n * n; ++i) {
        if (c.data[i] != c_fflas[i]) {
          std::cerr << "MISMATCH n=" << n << " p=" << p << " method "
                    << hepex::linalg::gemm_method_name(requested) << " at (" << i / n << ", "
                    << i % n << "): hepex " << c.data[i] << ", FFLAS-FFPACK " << c_fflas[i] << "\n";
          return 2;
        }
      }
      const char* name = hepex::linalg::gemm_method_name(requested);
      std::cout << "n=" << n << " p=" << p << " hepex " << name << " seconds=" << t
                << " GFLOP/s=" << flops / t / 1e9 << " rate_of_fflas=" << t_fflas / t << " (agrees)"
                << std::endl;
      json << ", {\"n\": " << n << ", \"implementation\": \"hepex\", \"method\": \"" << name
           << "\", \"seconds\": " << t << ", \"gflops\": " << flops / t / 1e9
           << ", \"rate_of_fflas\": " << t_fflas / t << "}";
    }
  }
  return 0;
}

// hepex's field for p: Zp32 below 2^31, else Zp64.
template <class Field>
int run_with_hepex_field(const Field& F, std::uint64_t p, const std::vector<long>& sizes,
                         std::ostringstream& json) {
  if (p < (std::uint64_t{1} << 31)) return run(F, hepex::field::Zp32(p), sizes, json);
  return run(F, hepex::field::Zp64(p), sizes, json);
}

}  // namespace

int main(int argc, char** argv) {
  // OpenBLAS reads OPENBLAS_NUM_THREADS only when it is loaded: set the
  // count directly, before any BLAS call.
  openblas_set_num_threads(1);
  Kokkos::ScopeGuard kokkos(argc, argv);  // takes the --kokkos-* arguments out
  if (argc < 3) {
    std::cerr << "usage: hepex_bench_gemm_fflas PRIME N1,N2,... [JSON_FILE]\n";
    return 1;
  }
  if (hepex::compat::concurrency<hepex::HostSpace>() != 1) {
    std::cerr << "hepex's host space " << hepex::HostSpace::name() << " runs "
              << hepex::compat::concurrency<hepex::HostSpace>()
              << " threads: run with --kokkos-num-threads=1\n";
    return 1;
  }

  const std::uint64_t p = std::strtoull(argv[1], nullptr, 10);
  try {
    hepex::field::check_prime_modulus(p, 63, "PRIME");
  } catch (const hepex::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  std::vector<long> sizes;
  std::stringstream list(argv[2]);
  for (std::string item; std::getline(list, item, ',');) sizes.push_back(std::stol(item));

  const std::string config = openblas_get_config(), corename = openblas_get_corename();
  const char* coretype = std::getenv("OPENBLAS_CORETYPE");
  std::cout << "FFLAS-FFPACK " << __FFLASFFPACK_VERSION << ", Givaro " << GIVARO_VERSION
            << "; BLAS: " << config << " (core " << corename << ")"
            << (coretype ? std::string(", OPENBLAS_CORETYPE=") + coretype : std::string())
            << "; hepex host space " << hepex::HostSpace::name() << "; best of " << repeats
            << ", one core" << std::endl;

  std::ostringstream json;
  json << "{\"benchmark\": \"gemm\", \"anchor\": \"FFLAS-FFPACK fgemm, 1 core\", \"prime\": " << p
       << ", \"repeats\": " << repeats << ", \"fflas_ffpack_version\": \"" << __FFLASFFPACK_VERSION
       << "\", \"givaro_version\": " << GIVARO_VERSION
       << ", \"blas_config\": " << json_string(config)
       << ", \"blas_corename\": " << json_string(corename)
       << ", \"openblas_coretype\": " << (coretype ? json_string(coretype) : "null")
       << ", \"hepex_host_space\": \"" << hepex::HostSpace::name() << "\", \"rows\": [";
  int status;
  if (p <= Givaro::ModularBalanced<double>::maxCardinality()) {
    status = run_with_hepex_field(Givaro::ModularBalanced<double>(p), p, sizes, json);
  } else if (p <= Givaro::ModularBalanced<std::int64_t>::maxCardinality()) {
    status = run_with_hepex_field(Givaro::ModularBalanced<std::int64_t>(p), p, sizes, json);
  } else {
    status =
        run_with_hepex_field(Givaro::Modular<Givaro::Integer>(Givaro::Integer(p)), p, sizes, json);
  }
  json << "]}\n";
  if (status == 0 && argc > 3) std::ofstream(argv[3]) << json.str();
  return status;
}
