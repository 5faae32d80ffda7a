// FireFly side of the sparse rational-function reconstruction benchmark (see bench_reconstruct.sh).
// Reads one function written by reconstruct_family.py, reconstructs it with FireFly's Reconstructor
// (1 thread, bunch size 1, shift scan on, FireFly's default prime handling) from a compiled black
// box, and prints one JSON line:
//   {"function":..., "seconds":..., "probes":..., "primes":..., "exact":...,  + a few extras}
// seconds: wall time of Reconstructor::reconstruct(); probes: points evaluated by the black box
// (counted in operator(), one per lane of a bunch); primes: distinct prime fields the black box was
// evaluated in; exact: FireFly's N/D equals the input N/D term by term up to one common rational
// factor (FireFly normalises differently).  Black box: per point, x_i^e for e = 0..16 is tabulated
// once, then N and D are sum_k c_k prod_i x_i^{e_ki} -- the same scheme as `hepex_bench
// reconstruct`. Links against FireFly (GPL, built outside this repository); no FireFly code lives
// here. usage: firefly_driver FILE [--name NAME] [--seed S] [--no-shift-scan]
#include "firefly/Reconstructor.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

using namespace firefly;

namespace {
constexpr int kPowers = 17;  // exponents 0..16

struct Part {                  // one of N, D
  std::vector<int64_t> coef;   // integer coefficients
  std::vector<uint8_t> exps;   // terms x nvars, row major
  std::vector<FFInt> coef_ff;  // coef mod the current prime
};

struct Input {
  uint32_t n = 0;
  Part num, den;
};

Input read_input(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "cannot open " << path << "\n";
    std::exit(2);
  }
  Input f;
  std::string word;
  in >> word >> f.n;
  if (word != "vars" || f.n == 0) {
    std::cerr << "bad header in " << path << "\n";
    std::exit(2);
  }
  int64_t c;
  while (in >> word >> c) {
    Part& p = word == "num" ? f.num : f.den;
    p.coef.push_back(c);
    for (uint32_t i = 0; i < f.n; ++i) {
      int e;
      in >> e;
      if (e < 0 || e >= kPowers) {
        std::cerr << "exponent out of range\n";
        std::exit(2);
      }
      p.exps.push_back(static_cast<uint8_t>(e));
    }
  }
  return f;
}

class BlackBox : public BlackBoxBase<BlackBox> {
 public:
  explicit BlackBox(Input& f) : f_(f) {}

  std::vector<FFInt> operator()(const std::vector<FFInt>& x) {
    count_point();
    return {eval_point(x)};
  }

  template <int N>  // bunches: evaluate every lane as its own point
  std::vector<FFIntVec<N>> operator()(const std::vector<FFIntVec<N>>& x) {
    FFIntVec<N> out;
    std::vector<FFInt> lane(x.size());
    for (int l = 0; l < N; ++l) {
      for (size_t i = 0; i < x.size(); ++i) lane[i] = x[i][l];
      count_point();
      out[l] = eval_point(lane);
    }
    return {out};
  }

  void prime_changed() {  // coefficients mod the new prime
    for (Part* p : {&f_.num, &f_.den}) {
      p->coef_ff.clear();
      for (int64_t c : p->coef) p->coef_ff.emplace_back(c);
    }
  }

  std::atomic<uint64_t> probes{0};
  std::set<uint64_t> primes;

 private:
  void count_point() {
    ++probes;
    std::lock_guard<std::mutex> lock(mutex_);
    primes.insert(FFInt::p);
  }

  FFInt eval_part(const Part& p, const std::vector<FFInt>& pw) const {
    const uint32_t n = f_.n;
    FFInt sum(0);
    for (size_t k = 0; k < p.coef_ff.size(); ++k) {
      FFInt t = p.coef_ff[k];
      const uint8_t* e = &p.exps[k * n];
      for (uint32_t i = 0; i < n; ++i) t *= pw[i * kPowers + e[i]];
      sum += t;
    }
    return sum;
  }

  FFInt eval_point(const std::vector<FFInt>& x) const {
    std::vector<FFInt> pw(f_.n * kPowers);
    for (uint32_t i = 0; i < f_.n; ++i) {
      pw[i * kPowers] = FFInt(1);
      for (int e = 1; e < kPowers; ++e) pw[i * kPowers + e] = pw[i * kPowers + e - 1] * x[i];
    }
    return eval_part(f_.num, pw) / eval_part(f_.den, pw);
  }

  Input& f_;
  std::mutex mutex_;
};

using TermMap = std::unordered_map<std::vector<uint32_t>, mpq_class, UintHasher>;

TermMap to_map(const Part& p, uint32_t n) {
  TermMap m;
  for (size_t k = 0; k < p.coef.size(); ++k) {
    std::vector<uint32_t> e(p.exps.begin() + k * n, p.exps.begin() + (k + 1) * n);
    m[e] += mpq_class(mpz_class(std::to_string(p.coef[k])));
  }
  return m;
}

// FireFly's N/D == input N/D: same monomials, coefficients equal up to one common factor r.
bool exact_match(const RationalFunction& rf, const Input& f) {
  if (!rf.get_factors().empty() || !rf.get_order_map().empty()) return false;
  const TermMap num = to_map(f.num, f.n), den = to_map(f.den, f.n);
  const auto& fn = rf.numerator.coefs;
  const auto& fd = rf.denominator.coefs;
  if (fn.size() != num.size() || fd.size() != den.size() || fd.empty()) return false;
  auto it0 = den.find(fd[0].powers);
  if (it0 == den.end()) return false;
  auto q = [](const Monomial& m) {
    mpq_class v(m.coef.numerator, m.coef.denominator);
    v.canonicalize();
    return v;
  };
  const mpq_class r = it0->second / q(fd[0]);
  auto same = [&](const std::vector<Monomial>& ff, const TermMap& in) {
    for (const auto& m : ff) {
      auto it = in.find(m.powers);
      if (it == in.end() || q(m) * r != it->second) return false;
    }
    return true;  // sizes equal and all ff monomials distinct keys present -> same sets
  };
  return same(fn, num) && same(fd, den);
}

long logged_probes(const char* log) {  // FireFly's own count, "... | N probes in total"
  std::ifstream in(log);
  std::string line;
  long last = -1;
  const std::regex re("\\| ([0-9]+) probes in total");
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, re)) last = std::stol(m[1]);
  return last;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: firefly_driver FILE [--name NAME] [--seed S] [--no-shift-scan]\n";
    return 2;
  }
  std::string path = argv[1], name;
  uint64_t seed = 1;
  bool shift_scan = true;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--name" && i + 1 < argc)
      name = argv[++i];
    else if (a == "--seed" && i + 1 < argc)
      seed = std::stoull(argv[++i]);
    else if (a == "--no-shift-scan")
      shift_scan = false;
    else {
      std::cerr << "unknown argument " << a << "\n";
      return 2;
    }
  }
  if (name.empty()) {
    name = path.substr(path.find_last_of('/') + 1);
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".txt") == 0)
      name.resize(name.size() - 4);
  }

  Input f = read_input(path);
  BlackBox bb(f);
  double seconds;
  bool exact;
  {
    // n vars, 1 thread, bunch size 1; logs to stderr and ./firefly.log
    Reconstructor<BlackBox> rec(f.n, 1, 1, bb, Reconstructor<BlackBox>::IMPORTANT);
    BaseReconst().set_seed(seed);  // FireFly seeds with time(0); fix it for repeatable runs
    if (shift_scan) rec.enable_shift_scan();
    auto t0 = std::chrono::steady_clock::now();
    rec.reconstruct();
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<RationalFunction> res = rec.get_result();
    exact = res.size() == 1 && exact_match(res[0], f);
  }
  std::printf(
      "{\"function\": \"%s\", \"seconds\": %.3f, \"probes\": %llu, \"primes\": %zu, \"exact\": %s, "
      "\"tool\": \"firefly\", \"vars\": %u, \"num_terms\": %zu, \"den_terms\": %zu, "
      "\"firefly_logged_probes\": %ld, \"shift_scan\": %s, \"seed\": %llu}\n",
      name.c_str(), seconds, static_cast<unsigned long long>(bb.probes.load()), bb.primes.size(),
      exact ? "true" : "false", f.n, f.num.coef.size(), f.den.coef.size(),
      logged_probes("firefly.log"), shift_scan ? "true" : "false",
      static_cast<unsigned long long>(seed));
  return exact ? 0 : 1;
}
