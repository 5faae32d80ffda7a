#include "hepex/reconstruct/rational.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/progress.hpp"
#include "hepex/core/random.hpp"
#include "hepex/field/crt.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/balanced_zippel.hpp"
#include "hepex/reconstruct/detail/factor_scan.hpp"
#include "hepex/reconstruct/known_support.hpp"

namespace hepex::reconstruct {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The user's black box, counting probes and the time spent in it. After each
// batch its progress task polls for an interruption and reports the probes
// and their rate (with an ETA on primes whose probes are known ahead).
class CountingBox : public BlackBox {
 public:
  explicit CountingBox(const BlackBox& box) : box_(box), task_("reconstruct", "probes") {}
  std::size_t variables() const override { return box_.variables(); }
  std::size_t functions() const override { return box_.functions(); }
  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& points,
                std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) const override {
    task_.poll();
    const auto start = Clock::now();
    box_.evaluate(f, count, points, values, ok);
    seconds_ += seconds_since(start);
    probes_ += count;
    task_.update(static_cast<double>(probes_));
  }
  std::size_t probes() const { return probes_; }
  double seconds() const { return seconds_; }
  // A new prime, the images so far and the probes it should need (0: unknown).
  void start_prime(std::size_t number, std::size_t expected_probes) {
    task_.set_stage("prime " + std::to_string(number));
    task_.set_total(expected_probes > 0 ? static_cast<double>(probes_ + expected_probes) : 0);
  }

 private:
  const BlackBox& box_;
  mutable ProgressTask task_;
  mutable std::size_t probes_ = 0;
  mutable double seconds_ = 0;
};

// Random points (nonzero coordinates) of the black box.
std::vector<std::uint64_t> random_points(const field::Zp64& f, std::size_t count, std::size_t n,
                                         RandomElements& random) {
  std::vector<std::uint64_t> x(count * n);
  for (auto& c : x) c = random.next(f);
  return x;
}

// What a check at random points found.
enum class Verdict { agrees, disagrees, undefined };

// Checks functions against the black box at `wanted` random points where it
// is defined, drawn in rounds from at most `most` points (a check never
// passes on points where the black box says nothing: with none defined the
// verdict is `undefined`). `check(g, x)` is the value of function g at x, or
// nothing where it has none.
template <class Check>
Verdict check_at_random_points(const BlackBox& box, const field::Zp64& f, std::size_t wanted,
                               RandomElements& random, Check&& check, std::size_t most = 64) {
  const std::size_t n = box.variables(), F = box.functions();
  std::size_t defined = 0, tried = 0;
  std::vector<std::uint64_t> out;
  std::vector<std::uint8_t> ok;
  while (defined < wanted && tried < most) {
    const std::size_t count = std::min(std::max<std::size_t>(wanted - defined, 1), most - tried);
    const auto x = random_points(f, count, n, random);
    box.evaluate(f, count, x, out, ok);
    tried += count;
    for (std::size_t i = 0; i < count; ++i) {
      if (ok[i] == 0) continue;
      ++defined;
      for (std::size_t g = 0; g < F; ++g) {
        const std::optional<std::uint64_t> v = check(g, x.data() + i * n);
        if (!v || *v != out[i * F + g]) return Verdict::disagrees;
      }
    }
  }
  return defined == 0 ? Verdict::undefined : Verdict::agrees;
}

// One function's images so far: the monomials every prime agreed on and the
// CRT of their coefficients (numerator's, then denominator's).
struct Lift {
  RationalModP support;  // coefficients of the first image
  std::optional<field::CrtLift> crt;
  // Per coefficient, its rational once accepted: Wang's reconstruction from
  // the primes so far, far below the bound (|a| b 2^32 <= M), which a random
  // residue gives with probability about 2^-27. A later prime then solves
  // only for the others (known_support.hpp); its image is checked at random
  // points, and the answer on a further prime, as every image is.
  std::vector<std::optional<mpq_class>> accepted;
  // Per coefficient not accepted, Wang's reconstruction from the primes so
  // far (none if it fails): computed once per prime, by accept().
  std::vector<std::optional<mpq_class>> latest;

  // Adds one prime's image; an image with fewer monomials than the reference
  // comes from an unlucky prime and is ignored, one with more replaces it.
  void add(std::uint64_t p, const RationalModP& r) {
    const std::size_t terms = r.num.terms() + r.den.terms();
    if (crt) {
      if (r.num.same_support(support.num) && r.den.same_support(support.den)) {
        std::vector<std::uint64_t> c(r.num.coefficients);
        c.insert(c.end(), r.den.coefficients.begin(), r.den.coefficients.end());
        crt->add(p, c);
        accept();
        return;
      }
      if (terms <= support.num.terms() + support.den.terms()) return;
    }
    support = r;
    crt.emplace(terms);
    accepted.assign(terms, std::nullopt);
    latest.assign(terms, std::nullopt);
    add(p, r);
  }

  void accept() {
    for (std::size_t i = 0; i < crt->size(); ++i) {
      if (accepted[i]) continue;
      latest[i] = field::rational_reconstruct(crt->residue(i), crt->modulus());
      if (!latest[i]) continue;
      mpz_class height = abs(latest[i]->get_num()) * latest[i]->get_den();
      height <<= 32;
      if (height <= crt->modulus()) accepted[i] = latest[i];
    }
  }

  // The accepted coefficients mod p (in the support's order, numerator then
  // denominator): false where none is accepted or p divides its denominator.
  void known_mod(std::uint64_t p, std::vector<std::uint8_t>& num, std::vector<std::uint8_t>& den,
                 std::vector<std::uint64_t>& num_value,
                 std::vector<std::uint64_t>& den_value) const {
    const std::size_t k = support.num.terms();
    num.assign(k, 0);
    den.assign(support.den.terms(), 0);
    num_value.assign(k, 0);
    den_value.assign(support.den.terms(), 0);
    const mpz_class pz(std::to_string(p));
    for (std::size_t i = 0; i < accepted.size(); ++i) {
      if (!accepted[i]) continue;
      mpz_class d = accepted[i]->get_den() % pz;
      if (d == 0) continue;
      mpz_class a = accepted[i]->get_num() % pz;
      if (a < 0) a += pz;
      mpz_invert(d.get_mpz_t(), d.get_mpz_t(), pz.get_mpz_t());
      mpz_class v = a * d % pz;
      const std::uint64_t value = std::stoull(v.get_str());
      if (i < k) {
        num[i] = 1;
        num_value[i] = value;
      } else {
        den[i - k] = 1;
        den_value[i - k] = value;
      }
    }
  }

  // The rationals that the primes so far give, if every coefficient has one
  // (Wang's reconstruction from all primes; confirmed by the caller on a
  // prime that took no part). An accepted coefficient is the reconstruction
  // from any later modulus too (it is far below the bound: unique), so
  // accept()'s values are the answer, not computed again.
  std::optional<RationalFunction> candidate() const {
    if (!crt) return std::nullopt;
    RationalFunction q;
    q.num = {support.num.variables, support.num.exponents, {}};
    q.den = {support.den.variables, support.den.exponents, {}};
    const std::size_t k = support.num.terms();
    for (std::size_t i = 0; i < crt->size(); ++i) {
      const auto& value = accepted[i] ? accepted[i] : latest[i];
      if (!value) return std::nullopt;
      (i < k ? q.num : q.den).coefficients.push_back(*value);
    }
    return q;
  }
};

// Primes in a row where the black box is undefined everywhere before the
// reconstruction says so.
constexpr std::size_t undefined_primes_limit = 3;

class Reconstructor {
 public:
  Reconstructor(const BlackBox& box, const ReconstructOptions& options)
      : box_(box),
        options_(options),
        random_(random::splitmix64(options.seed)),
        lifts_(box.functions()) {
    zippel_options_.max_degree = options.max_degree;
    zippel_options_.max_degree_name = options.max_degree_name;
    zippel_options_.progress = options.progress;
    if (options.pool != nullptr) {
      pool_ = options.pool;
    } else if (resolve_host_threads(options.threads) > 1) {
      threads_ = std::make_unique<HostThreads>(options.threads);
      pool_ = threads_.get();
    }
    zippel_options_.threads = pool_;
    result_.seed = options.seed;
  }

  // A negative answer from inside (the degree limit) ends the run as a
  // ReconstructionFailure with the work done until then.
  Reconstruction run() {
    try {
      return run_primes();
    } catch (const ReconstructionFailure&) {
      throw;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::negative_answer) throw;
      account();
      throw ReconstructionFailure(e.what(), std::move(result_));
    }
  }

 private:
  Reconstruction run_primes() {
    // Primes drawn as needed: the images, the check, and those dropped.
    std::size_t drawn = 0, undefined_in_a_row = 0, undefined_points = 0;
    std::vector<std::uint64_t> primes;
    while (true) {
      if (drawn == primes.size()) {  // drawn lazily: most functions need two (image, check)
        primes =
            field::random_large_primes(std::max<std::size_t>(2, 2 * primes.size()), options_.seed);
      }
      const field::Zp64 f(primes[drawn++]);
      box_.start_prime(drawn, support_ ? terms() + 2 * options_.verify_points : 0);
      const std::size_t before = box_.probes();
      PrimeUse use{f.modulus(), PrimeUse::Role::image, 0};
      auto dropped = [&](PrimeUse::Role role) {
        use.role = role;
        use.probes = box_.probes() - before;
        result_.prime_uses.push_back(use);
      };
      // Every prime after the first: do the images so far determine the
      // functions? Checked on this prime's random points.
      if (result_.primes > 0) {
        const Verdict v = confirmed(f);
        if (v == Verdict::agrees) {
          dropped(PrimeUse::Role::check);
          return finish();
        }
        if (v == Verdict::undefined) {
          dropped(PrimeUse::Role::undefined);
          if (++undefined_in_a_row == undefined_primes_limit) fail_undefined(64);
          continue;
        }
        if (result_.primes == options_.max_primes) {  // this prime was only a check
          if (box_.probes() > before) dropped(PrimeUse::Role::rejected);
          fail_not_determined();
        }
      }
      std::optional<std::vector<RationalModP>> images;
      try {
        if (result_.primes == 0 && !factored_) scan_factors(f);
        images = image(f, drawn - 1);
      } catch (const BoxUndefined& e) {
        dropped(PrimeUse::Role::undefined);
        undefined_points = e.points();
        if (++undefined_in_a_row == undefined_primes_limit) fail_undefined(undefined_points);
        continue;
      }
      undefined_in_a_row = 0;
      if (!images) {  // this prime keeps failing: try the next one
        dropped(PrimeUse::Role::failed);
        if (drawn > 4 * options_.max_primes + 8) fail_not_determined();
        continue;
      }
      dropped(PrimeUse::Role::image);
      ++result_.primes;
      // Each function's CRT and rational reconstructions (GMP) on the threads.
      for_each_on(pool_, lifts_.size(), [&](std::size_t begin, std::size_t end) {
        for (std::size_t g = begin; g < end; ++g) lifts_[g].add(f.modulus(), (*images)[g]);
      });
      report(result_.primes, f.modulus());
    }
  }

  // The functions mod f: the whole balanced Zippel on the first prime (and
  // whenever the supports cannot be reused), else from the known supports.
  // Throws BoxUndefined when the black box is undefined everywhere mod f.
  std::optional<std::vector<RationalModP>> image(const field::Zp64& f, std::size_t i) {
    for (std::size_t attempt = 0; attempt < options_.retries; ++attempt) {
      try {
        std::vector<RationalModP> r;
        LinePlan plan;
        const bool reuse = support_.has_value();
        std::optional<std::vector<RationalModP>> knowing;
        if (reuse && attempt == 0) knowing = image_knowing(f);
        if (knowing) {
          r = std::move(*knowing);
        } else if (reuse) {
          r = from_support(box(), f, random_.next(f), *support_, plan_ ? &*plan_ : nullptr);
        } else {
          r = balanced_zippel(box(), f, random_.next(f), zippel_options_, &plan);
          for (auto& g : r)
            if (!normalise(g, f)) throw UnluckyChoice("zero denominator");
        }
        const Verdict v = check_at_random_points(
            box(), f, options_.verify_points, random_,
            [&](std::size_t g, const std::uint64_t* x) -> std::optional<std::uint64_t> {
              const std::uint64_t den = evaluate(r[g].den, f, x);
              if (den == 0) return std::nullopt;
              return f.mul(evaluate(r[g].num, f, x), f.inv(den));
            });
        if (v == Verdict::agrees) {
          if (!reuse) {
            support_ = r;
            if (!plan.shapes.empty()) plan_ = std::move(plan);
          }
          return r;
        }
        if (options_.progress)
          *options_.progress << "reconstruct: prime " << f.modulus()
                             << ": the image fails its check\n";
      } catch (const UnluckyChoice& e) {
        if (options_.progress)
          *options_.progress << "reconstruct: prime " << f.modulus() << ": " << e.what() << "\n";
      }
      if (support_ && i > 0) {  // a later prime: try the whole method
        support_.reset();
        plan_.reset();
      }
    }
    return std::nullopt;
  }

  // The image mod f from the lifts' supports when coefficients are accepted
  // already (Lift::accepted): only the others are solved for.
  std::optional<std::vector<RationalModP>> image_knowing(const field::Zp64& f) {
    KnownCoefficients known;
    std::vector<RationalModP> supports;
    std::size_t accepted = 0;
    for (const auto& l : lifts_) {
      if (!l.crt) return std::nullopt;
      for (const auto& a : l.accepted) accepted += a ? 1 : 0;
      supports.push_back(l.support);
      known.num.emplace_back();
      known.den.emplace_back();
      known.num_value.emplace_back();
      known.den_value.emplace_back();
      l.known_mod(f.modulus(), known.num.back(), known.den.back(), known.num_value.back(),
                  known.den_value.back());
    }
    if (accepted == 0) return std::nullopt;
    return from_support_knowing(box(), f, random_.next(f), supports, known);
  }

  // The black box the algorithms see: the user's (counted), with the
  // factor scan's factors divided out.
  const BlackBox& box() const {
    if (factored_) return *factored_;
    return box_;
  }

  // The factor scan (detail/factor_scan.hpp) with the first prime: on the
  // variables whose hyperplane makes a denominator vanish (automatic), every
  // variable, or none.
  void scan_factors(const field::Zp64& f) {
    using Scan = ReconstructOptions::FactorScan;
    const std::size_t n = box_.variables();
    std::vector<std::size_t> variables;
    if (options_.factor_scan == Scan::on) {
      for (std::size_t i = 0; i < n; ++i) variables.push_back(i);
    } else if (options_.factor_scan == Scan::automatic && n > 0) {
      std::vector<std::uint64_t> origin(n, 0), out;
      std::vector<std::uint8_t> ok;
      box_.evaluate(f, 1, origin, out, ok);
      if (ok[0] == 0) variables = detail::vanishing_hyperplanes(box_, f, random_);
    }
    auto factors = variables.empty()
                       ? std::vector<detail::FunctionFactors>(box_.functions())
                       : detail::scan_factors(box_, f, random_, zippel_options_, variables);
    const bool divided = std::any_of(factors.begin(), factors.end(),
                                     [](const detail::FunctionFactors& g) { return !g.empty(); });
    factored_.emplace(box_, std::move(factors), pool_);
    if (divided) zippel_options_.probes_on_hyperplanes = false;
    if (options_.progress != nullptr) {
      std::size_t found = 0;
      for (const auto& g : factored_->factors()) found += g.num.size() + g.den.size();
      *options_.progress << "reconstruct: factor scan over " << variables.size()
                         << " variables: " << found << " univariate factors\n";
    }
  }

  Verdict confirmed(const field::Zp64& f) {
    std::vector<std::optional<RationalFunction>> candidates(lifts_.size());
    for_each_on(pool_, lifts_.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t g = begin; g < end; ++g) candidates[g] = lifts_[g].candidate();
    });
    candidates_.clear();
    for (auto& c : candidates) {
      if (!c) return Verdict::disagrees;
      candidates_.push_back(std::move(*c));
    }
    return check_at_random_points(
        box(), f, options_.verify_points, random_,
        [&](std::size_t g, const std::uint64_t* x) { return evaluate(candidates_[g], f, x); });
  }

  // Terms of every function's image so far (the unknowns of a further prime).
  std::size_t terms() const {
    std::size_t t = 0;
    for (const auto& l : lifts_) t += l.support.num.terms() + l.support.den.terms();
    return t;
  }

  void report(std::size_t images, std::uint64_t p) const {
    if (options_.progress == nullptr) return;
    const std::size_t terms = this->terms();
    *options_.progress << "reconstruct: prime " << images << " (" << p
                       << "): " << result_.prime_uses.back().probes << " probes, " << terms
                       << " terms; each further prime needs about " << terms << " probes";
    if (box_.seconds() > 0) {
      *options_.progress << " (~" << terms * box_.seconds() / box_.probes() << " s)";
    }
    *options_.progress << "\n";
  }

  void account() {
    result_.probes = box_.probes();
    result_.black_box_seconds = box_.seconds();
    result_.seconds = seconds_since(start_);
  }

  Reconstruction finish() {
    for_each_on(pool_, candidates_.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t g = begin; g < end; ++g) {
        if (factored_) detail::multiply_back(candidates_[g], factored_->factors()[g]);
        make_primitive(candidates_[g]);
      }
    });
    for (auto& c : candidates_) result_.functions.push_back(std::move(c));
    account();
    return std::move(result_);
  }

  [[noreturn]] void fail_undefined(std::size_t points) {
    account();
    throw ReconstructionFailure("the function is undefined at all " + std::to_string(points) +
                                    " random points tried mod each of " +
                                    std::to_string(undefined_primes_limit) +
                                    " random primes in a row (a division by zero everywhere?)",
                                std::move(result_));
  }

  [[noreturn]] void fail_not_determined() {
    account();
    if (result_.primes == 0) {
      throw ReconstructionFailure(
          "no image of " + std::string(lifts_.size() == 1 ? "the function" : "the functions") +
              " mod any of the " + std::to_string(result_.prime_uses.size()) +
              " primes tried: each image failed its check at random points (values that are "
              "not those of one rational function, or change from call to call?)",
          std::move(result_));
    }
    std::size_t open = 0;
    for (const auto& l : lifts_) open += l.candidate() ? 0 : 1;
    const std::size_t all = lifts_.size();
    const std::string primes = std::to_string(result_.primes) +
                               (result_.primes == 1 ? " prime" : " primes") + " did not determine ";
    const std::string raise = "; raise " + options_.max_primes_name;
    if (open > 0) {
      throw ReconstructionFailure(
          primes +
              (all == 1 ? std::string("the function")
                        : std::to_string(open) + " of the " + std::to_string(all) + " functions") +
              ": the rational reconstruction of " + (all == 1 ? "its" : "their") +
              " coefficients does not exist yet" + raise,
          std::move(result_));
    }
    throw ReconstructionFailure(
        primes + (all == 1 ? "the function" : "the functions") +
            ": the rational function from the images disagrees with the black box at a further "
            "prime (coefficients too large for these primes, or values that are not those of one "
            "rational function)" +
            raise,
        std::move(result_));
  }

  const Clock::time_point start_ = Clock::now();
  std::unique_ptr<HostThreads> threads_;  // the algebra's own pool
  HostThreads* pool_ = nullptr;           // the one used (null: one thread)
  CountingBox box_;
  std::optional<detail::FactoredBox> factored_;
  const ReconstructOptions& options_;
  ZippelOptions zippel_options_;
  RandomElements random_;
  std::vector<Lift> lifts_;
  std::optional<std::vector<RationalModP>> support_;  // the first image's monomials
  std::optional<LinePlan> plan_;                      // and its lines (rational functions)
  std::vector<RationalFunction> candidates_;
  Reconstruction result_;
};

}  // namespace

const char* to_string(PrimeUse::Role role) {
  switch (role) {
    case PrimeUse::Role::image: return "image";
    case PrimeUse::Role::check: return "check";
    case PrimeUse::Role::undefined: return "undefined";
    case PrimeUse::Role::failed: return "failed";
    case PrimeUse::Role::rejected: return "rejected";
  }
  return "?";
}

Reconstruction reconstruct(const BlackBox& box, const ReconstructOptions& options) {
  if (options.max_primes == 0) {
    throw Error(options.max_primes_name + " = 0: reconstruction needs at least one prime");
  }
  const KokkosLock lock;
  // Without a watch of the caller's, --verbose's stream gets the progress lines.
  std::optional<ProgressWatch> watch;
  if (options.progress != nullptr && ProgressWatch::current() == nullptr) {
    watch.emplace(stream_progress(*options.progress));
  }
  return Reconstructor(box, options).run();
}

}  // namespace hepex::reconstruct
