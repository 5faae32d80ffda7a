// hepex side of the sparse rational-function reconstruction benchmark
// (bench_reconstruct.sh runs it beside FireFly's firefly_driver.cpp on the
// same files). Reads one function written by reconstruct_family.py,
// reconstructs it with hepex::reconstruct::reconstruct from a compiled black
// box and prints one JSON line:
//   {"function", "seconds", "probes", "primes", "exact", "probes_per_prime",
//    "black_box_seconds"}
// Black box: per point, x_i^e for e = 0..16 is tabulated once, then N and D
// are sum_k c_k prod_i x_i^{e_ki}: the scheme of the FireFly driver, so the
// two compare algorithms, not black boxes. --box device evaluates it in a
// Kokkos kernel of the default execution space (the GPU in a CUDA build):
// one team per point, its threads over the terms, the coefficients mod p
// uploaded once per prime. --box expression and --box interpreter evaluate
// instead the function written as one expression "(N)/(D)" (what
// `hepex reconstruct` reads), by expression_black_box() (compiled into
// monomial tables) and by the stack program alone, in the default execution
// space.
// exact: the answer equals the input, both made primitive, term by term.
// usage: hepex_bench reconstruct FILE [--name NAME] [--seed S]
//          [--box host|device|expression|interpreter]
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "benches.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/rational.hpp"

namespace {

using namespace hepex::reconstruct;
constexpr std::size_t powers = 17;  // exponents 0..16

// Terms of N then D: coefficients and exponents, one table for the kernel.
struct Input {
  std::size_t n = 0, num_terms = 0;
  std::vector<long long> coefficients;
  std::vector<std::uint8_t> exponents;  // terms x n
  RationalFunction truth;
};

Input read_input(const std::string& path) {
  std::ifstream in(path);
  Input f;
  std::string word;
  if (!(in >> word >> f.n) || word != "vars" || f.n == 0) {
    throw std::invalid_argument(path + ": expected 'vars N' on the first line");
  }
  f.truth.num.variables = f.truth.den.variables = f.n;
  std::vector<long long> den_c;
  std::vector<std::uint8_t> den_e;
  long long c;
  std::size_t line = 1;
  while (in >> word >> c) {
    ++line;
    std::vector<std::uint32_t> e(f.n);
    for (auto& v : e) {
      if (!(in >> v) || v >= powers) {
        throw std::invalid_argument(path + ":" + std::to_string(line) +
                                    ": exponents 0..16 expected");
      }
    }
    if (word != "num" && word != "den") {
      throw std::invalid_argument(path + ":" + std::to_string(line) + ": 'num' or 'den' expected");
    }
    const bool num = word == "num";
    (num ? f.truth.num : f.truth.den).add_term(e.data(), mpq_class(static_cast<long>(c)));
    (num ? f.coefficients : den_c).push_back(c);
    for (const auto v : e) (num ? f.exponents : den_e).push_back(static_cast<std::uint8_t>(v));
  }
  if (f.truth.den.terms() == 0) f.truth.den.add_term(std::vector<std::uint32_t>(f.n).data(), 1);
  f.num_terms = f.coefficients.size();
  f.coefficients.insert(f.coefficients.end(), den_c.begin(), den_c.end());
  f.exponents.insert(f.exponents.end(), den_e.begin(), den_e.end());
  if (den_c.empty()) {  // D = 1
    f.coefficients.push_back(1);
    f.exponents.insert(f.exponents.end(), f.n, 0);
  }
  return f;
}

// N/D at one point with power tables; false where D vanishes.
template <class Memory>
struct SparseRational {
  hepex::field::Zp64 f;
  std::size_t n, num_terms, terms;
  Kokkos::View<const std::uint64_t*, Memory> coefficients;  // mod p
  Kokkos::View<const std::uint8_t*, Memory> exponents;

  KOKKOS_INLINE_FUNCTION bool operator()(const std::uint64_t* x, std::uint64_t* out) const {
    constexpr std::size_t max_variables = 16;
    std::uint64_t table[max_variables][powers];
    for (std::size_t i = 0; i < n; ++i) {
      table[i][0] = 1;
      for (std::size_t e = 1; e < powers; ++e) table[i][e] = f.mul(table[i][e - 1], x[i]);
    }
    std::uint64_t num = 0, den = 0;
    for (std::size_t t = 0; t < terms; ++t) {
      std::uint64_t m = coefficients(t);
      for (std::size_t i = 0; i < n; ++i) m = f.mul(m, table[i][exponents(t * n + i)]);
      if (t < num_terms) {
        num = f.add(num, m);
      } else {
        den = f.add(den, m);
      }
    }
    if (den == 0) return false;
    out[0] = f.mul(num, f.inv(den));
    return true;
  }
};

// The same evaluation with one team per point: the team tabulates the powers
// in scratch, each thread sums its share of the terms, one thread adds the
// partial sums.
class TeamBox : public BlackBox {
 public:
  using Space = Kokkos::DefaultExecutionSpace;
  using Memory = Space::memory_space;
  explicit TeamBox(const Input& in)
      : in_(in), exponents_(hepex::to_view<Memory>(in.exponents, "bench::exponents")) {}
  std::size_t variables() const override { return in_.n; }
  std::size_t functions() const override { return 1; }
  void evaluate(const hepex::field::Zp64& f, std::size_t count,
                const std::vector<std::uint64_t>& points, std::vector<std::uint64_t>& values,
                std::vector<std::uint8_t>& ok) const override {
    if (f.modulus() != prime_) {
      std::vector<std::uint64_t> c;
      for (const long long v : in_.coefficients) c.push_back(f.from_int(v));
      coefficients_ = hepex::to_view<Memory>(c, "bench::coefficients");
      prime_ = f.modulus();
    }
    const auto x = hepex::to_view<Memory>(points, "bench::points");
    Kokkos::View<std::uint64_t*, Memory> out("bench::values", count);
    Kokkos::View<std::uint8_t*, Memory> good("bench::ok", count);
    using Policy = Kokkos::TeamPolicy<Space>;
    using Scratch = Kokkos::View<std::uint64_t*, Space::scratch_memory_space,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const int team = std::is_same_v<Space, Kokkos::DefaultHostExecutionSpace> ? 1 : 128;
    const std::size_t n = in_.n, num_terms = in_.num_terms, terms = in_.coefficients.size();
    const std::size_t scratch = Scratch::shmem_size(n * powers + 2 * team);
    const auto c = coefficients_;
    const auto e = exponents_;
    Kokkos::parallel_for(
        "bench::team_box",
        Policy(static_cast<int>(count), team).set_scratch_size(0, Kokkos::PerTeam(scratch)),
        KOKKOS_LAMBDA(const typename Policy::member_type& member) {
          const std::size_t i = member.league_rank();
          const int size = member.team_size(), rank = member.team_rank();
          Scratch table(member.team_scratch(0), n * powers + 2 * size);
          for (std::size_t v = rank; v < n; v += size) {
            table(v * powers) = 1;
            for (std::size_t k = 1; k < powers; ++k)
              table(v * powers + k) = f.mul(table(v * powers + k - 1), x(i * n + v));
          }
          member.team_barrier();
          std::uint64_t num = 0, den = 0;
          for (std::size_t t = rank; t < terms; t += size) {
            std::uint64_t m = c(t);
            for (std::size_t v = 0; v < n; ++v) m = f.mul(m, table(v * powers + e(t * n + v)));
            if (t < num_terms)
              num = f.add(num, m);
            else
              den = f.add(den, m);
          }
          table(n * powers + 2 * rank) = num;
          table(n * powers + 2 * rank + 1) = den;
          member.team_barrier();
          Kokkos::single(Kokkos::PerTeam(member), [&]() {
            std::uint64_t N = 0, D = 0;
            for (int r = 0; r < size; ++r) {
              N = f.add(N, table(n * powers + 2 * r));
              D = f.add(D, table(n * powers + 2 * r + 1));
            }
            good(i) = D != 0 ? 1 : 0;
            out(i) = D != 0 ? f.mul(N, f.inv(D)) : 0;
          });
        });
    values = hepex::to_vector(out);
    ok = hepex::to_vector(good);
  }

 private:
  const Input& in_;
  Kokkos::View<const std::uint8_t*, Memory> exponents_;
  mutable Kokkos::View<const std::uint64_t*, Memory> coefficients_;
  mutable std::uint64_t prime_ = 0;
};

template <class Space>
std::unique_ptr<BlackBox> make_box(const Input& in) {
  using Memory = typename Space::memory_space;
  using Functor = SparseRational<Memory>;
  return std::make_unique<DeviceBlackBox<Space, Functor>>(
      in.n, 1, [&in](const hepex::field::Zp64& f) {
        std::vector<std::uint64_t> c;
        for (const long long v : in.coefficients) c.push_back(f.from_int(v));
        return Functor{f,
                       in.n,
                       in.num_terms,
                       in.coefficients.size(),
                       hepex::to_view<Memory>(c, "bench::coefficients"),
                       hepex::to_view<Memory>(in.exponents, "bench::exponents")};
      });
}

// "(N)/(D)" in the grammar of hepex/io/expression.hpp, terms C*x1^e1*...
std::string expression_text(const Input& in) {
  const auto polynomial = [&](std::size_t begin, std::size_t end) {
    std::string s;
    for (std::size_t t = begin; t < end; ++t) {
      const long long c = in.coefficients[t];
      s += (c < 0 ? (t == begin ? "-" : " - ") : (t == begin ? "" : " + ")) +
           std::to_string(c < 0 ? -c : c);
      for (std::size_t i = 0; i < in.n; ++i) {
        const unsigned e = in.exponents[t * in.n + i];
        if (e != 0) s += "*x" + std::to_string(i + 1) + "^" + std::to_string(e);
      }
    }
    return s;
  };
  return "(" + polynomial(0, in.num_terms) + ")/(" +
         polynomial(in.num_terms, in.coefficients.size()) + ")";
}

// The stack program alone (expression_black_box() without compilation).
std::unique_ptr<BlackBox> interpreter_box(hepex::io::Expression e) {
  using Memory = hepex::DeviceMemory;
  using Functor = hepex::io::ExpressionFunctor<Memory>;
  const std::size_t n = e.variables();
  return std::make_unique<DeviceBlackBox<hepex::DeviceSpace, Functor>>(
      n, 1, [e = std::vector<hepex::io::Expression>{std::move(e)}](const hepex::field::Zp64& f) {
        return Functor{f, hepex::io::make_program_table<Memory>(e, f)};
      });
}

}  // namespace

// The probes of every prime tried, in order (its checks included).
static std::vector<std::size_t> probes_per_prime(const hepex::reconstruct::Reconstruction& r) {
  std::vector<std::size_t> probes;
  for (const auto& use : r.prime_uses) probes.push_back(use.probes);
  return probes;
}

int hepex::bench::reconstruct_main(int argc, char** argv) {
  const char* usage =
      "usage: hepex_bench reconstruct FILE [--name NAME] [--seed S] "
      "[--box host|device|expression|interpreter]\n";
  std::string path, name, box_kind = "host";
  std::uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--name" && i + 1 < argc) {
      name = argv[++i];
    } else if (a == "--seed" && i + 1 < argc) {
      seed = hepex::perf::whole_argument(argv[++i], "--seed", 0, UINT64_MAX);
    } else if (a == "--box" && i + 1 < argc) {
      box_kind = argv[++i];
    } else if (path.empty() && a.rfind("--", 0) != 0) {
      path = a;
    } else {
      std::cerr << usage;
      return 1;
    }
  }
  if (path.empty() || (box_kind != "host" && box_kind != "device" && box_kind != "expression" &&
                       box_kind != "interpreter")) {
    std::cerr << usage;
    return 1;
  }
  if (name.empty()) name = path;
  const Input in = read_input(path);
  if (in.n > 16) {
    std::cerr << path << ": at most 16 variables\n";
    return 1;
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < in.n; ++i) names.push_back("x" + std::to_string(i + 1));
  std::unique_ptr<BlackBox> box;
  if (box_kind == "host") {
    box = make_box<Kokkos::DefaultHostExecutionSpace>(in);
  } else if (box_kind == "device") {
    box = std::make_unique<TeamBox>(in);
  } else {
    auto e = hepex::io::Expression::parse(expression_text(in), names);
    box = box_kind == "expression" ? expression_black_box({std::move(e)}, in.n)
                                   : interpreter_box(std::move(e));
  }
  ReconstructOptions options;
  options.seed = seed;
  const auto r = hepex::reconstruct::reconstruct(*box, options);
  RationalFunction truth = in.truth;
  truth.num.sort();
  truth.den.sort();
  make_primitive(truth);  // the sign: the denominator's first term positive
  const bool exact = to_string(r.functions.at(0), names) == to_string(truth, names);
  if (!exact) {
    std::cerr << name << ": wrong answer\n  got      " << to_string(r.functions.at(0), names)
              << "\n  expected " << to_string(truth, names) << "\n";
  }
  const nlohmann::json line{{"function", name},
                            {"seconds", r.seconds},
                            {"probes", r.probes},
                            {"primes", r.primes},
                            {"exact", exact},
                            {"probes_per_prime", probes_per_prime(r)},
                            {"black_box_seconds", r.black_box_seconds},
                            {"box", box_kind}};
  std::cout << line.dump() << std::endl;
  return exact ? 0 : 2;
}
