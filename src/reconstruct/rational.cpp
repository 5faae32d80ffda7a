#include "hepex/reconstruct/rational.hpp"

#include <chrono>
#include <optional>

#include "hepex/core/error.hpp"
#include "hepex/core/random.hpp"
#include "hepex/field/crt.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/balanced_zippel.hpp"
#include "hepex/reconstruct/known_support.hpp"

namespace hepex::reconstruct {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The user's black box, counting probes and the time spent in it; with -v a
// progress line at most every two seconds.
class CountingBox : public BlackBox {
 public:
  CountingBox(const BlackBox& box, std::ostream* progress) : box_(box), progress_(progress) {}
  std::size_t variables() const override { return box_.variables(); }
  std::size_t functions() const override { return box_.functions(); }
  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& points,
                std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) const override {
    const auto start = Clock::now();
    box_.evaluate(f, count, points, values, ok);
    seconds_ += seconds_since(start);
    probes_ += count;
    if (progress_ != nullptr && seconds_ > 0 && seconds_since(last_report_) > 2) {
      last_report_ = Clock::now();
      *progress_ << "reconstruct: prime " << f.modulus() << ": " << probes_ - prime_start_
                 << " probes, " << static_cast<std::size_t>(probes_ / seconds_)
                 << " probes/s in the black box\n";
    }
  }
  std::size_t probes() const { return probes_; }
  double seconds() const { return seconds_; }
  void start_prime() { prime_start_ = probes_; }

 private:
  const BlackBox& box_;
  std::ostream* progress_;
  mutable std::size_t probes_ = 0, prime_start_ = 0;
  mutable double seconds_ = 0;
  mutable Clock::time_point last_report_ = Clock::now();
};

// Random points (nonzero coordinates) of the black box.
std::vector<std::uint64_t> random_points(const field::Zp64& f, std::size_t count, std::size_t n,
                                         RandomElements& random) {
  std::vector<std::uint64_t> x(count * n);
  for (auto& c : x) c = random.next(f);
  return x;
}

// `check(g, x)` is the value of function g at x, or nothing where it has none.
// True when every function agrees with the black box at every random point
// where the black box is defined.
template <class Check>
bool agrees(const BlackBox& box, const field::Zp64& f, std::size_t count, RandomElements& random,
            Check&& check) {
  const std::size_t n = box.variables(), F = box.functions();
  const auto x = random_points(f, count, n, random);
  std::vector<std::uint64_t> out;
  std::vector<std::uint8_t> ok;
  box.evaluate(f, count, x, out, ok);
  for (std::size_t i = 0; i < count; ++i) {
    if (ok[i] == 0) continue;
    for (std::size_t g = 0; g < F; ++g) {
      const std::optional<std::uint64_t> v = check(g, x.data() + i * n);
      if (!v || *v != out[i * F + g]) return false;
    }
  }
  return true;
}

// One function's images so far: the monomials every prime agreed on and the
// CRT of their coefficients (numerator's, then denominator's).
struct Lift {
  RationalModP support;  // coefficients of the first image
  std::optional<field::CrtLift> crt;

  // Adds one prime's image; an image with fewer monomials than the reference
  // comes from an unlucky prime and is ignored, one with more replaces it.
  void add(std::uint64_t p, const RationalModP& r) {
    const std::size_t terms = r.num.terms() + r.den.terms();
    if (crt) {
      if (r.num.same_support(support.num) && r.den.same_support(support.den)) {
        std::vector<std::uint64_t> c(r.num.coefficients);
        c.insert(c.end(), r.den.coefficients.begin(), r.den.coefficients.end());
        crt->add(p, c);
        return;
      }
      if (terms <= support.num.terms() + support.den.terms()) return;
    }
    support = r;
    crt.emplace(terms);
    add(p, r);
  }

  // The rationals that the primes so far give, if every coefficient has one
  // (Wang's reconstruction from all primes; confirmed by the caller on a
  // prime that took no part).
  std::optional<RationalFunction> candidate() const {
    if (!crt) return std::nullopt;
    RationalFunction q;
    q.num = {support.num.variables, support.num.exponents, {}};
    q.den = {support.den.variables, support.den.exponents, {}};
    const std::size_t k = support.num.terms();
    for (std::size_t i = 0; i < crt->size(); ++i) {
      const auto value = field::rational_reconstruct(crt->residue(i), crt->modulus());
      if (!value) return std::nullopt;
      (i < k ? q.num : q.den).coefficients.push_back(*value);
    }
    return q;
  }
};

class Reconstructor {
 public:
  Reconstructor(const BlackBox& box, const ReconstructOptions& options)
      : box_(box, options.progress),
        options_(options),
        primes_(field::large_primes(options.max_primes + 1)),
        random_(random::splitmix64(options.seed)),
        lifts_(box.functions()) {
    zippel_options_.max_degree = options.max_degree;
    zippel_options_.progress = options.progress;
  }

  Reconstruction run() {
    const auto start = Clock::now();
    Reconstruction result;
    for (std::size_t i = 0; i < primes_.size(); ++i) {
      const field::Zp64 f(primes_[i]);
      box_.start_prime();
      const std::size_t before = box_.probes();
      // Every prime after the first: do the images so far determine the
      // functions? Checked on this prime's random points.
      if (result.primes > 0 && confirmed(f)) {
        result.probes_per_prime.push_back(box_.probes() - before);
        return finish(std::move(result), start);
      }
      if (result.primes == options_.max_primes) break;  // this prime was only a check
      const auto images = image(f, i);
      result.probes_per_prime.push_back(box_.probes() - before);
      if (!images) continue;  // this prime keeps failing: try the next one
      ++result.primes;
      for (std::size_t g = 0; g < lifts_.size(); ++g) lifts_[g].add(f.modulus(), (*images)[g]);
      report(i, result);
    }
    std::size_t open = 0;
    for (const auto& l : lifts_) open += l.candidate() ? 0 : 1;
    throw Error("reconstruction did not converge with " + std::to_string(options_.max_primes) +
                    " primes (" + std::to_string(open) + " of " + std::to_string(lifts_.size()) +
                    " functions undetermined); raise --primes",
                ErrorKind::negative_answer);
  }

 private:
  // The functions mod f: the whole balanced Zippel on the first prime (and
  // whenever the supports cannot be reused), else from the known supports.
  std::optional<std::vector<RationalModP>> image(const field::Zp64& f, std::size_t i) {
    for (std::size_t attempt = 0; attempt < options_.retries; ++attempt) {
      try {
        std::vector<RationalModP> r;
        if (support_ && support_reusable(*support_)) {
          r = from_support(box_, f, random_.next(f), *support_);
        } else {
          r = balanced_zippel(box_, f, random_.next(f), zippel_options_);
          for (auto& g : r)
            if (!normalise(g, f)) throw UnluckyChoice("zero denominator");
        }
        if (agrees(box_, f, options_.verify_points, random_,
                   [&](std::size_t g, const std::uint64_t* x) -> std::optional<std::uint64_t> {
                     const std::uint64_t den = evaluate(r[g].den, f, x);
                     if (den == 0) return std::nullopt;
                     return f.mul(evaluate(r[g].num, f, x), f.inv(den));
                   })) {
          if (!support_) support_ = r;
          return r;
        }
        if (options_.progress)
          *options_.progress << "prime " << f.modulus() << ": the image fails its check\n";
      } catch (const UnluckyChoice& e) {
        if (options_.progress) *options_.progress << "prime " << f.modulus() << ": " << e.what() << "\n";
      }
      if (support_ && i > 0) support_.reset();  // a later prime: try the whole method
    }
    return std::nullopt;
  }

  bool confirmed(const field::Zp64& f) {
    candidates_.clear();
    for (const auto& l : lifts_) {
      auto c = l.candidate();
      if (!c) return false;
      candidates_.push_back(std::move(*c));
    }
    return agrees(box_, f, options_.verify_points, random_,
                  [&](std::size_t g, const std::uint64_t* x) { return evaluate(candidates_[g], f, x); });
  }

  void report(std::size_t i, const Reconstruction& result) const {
    if (options_.progress == nullptr) return;
    std::size_t terms = 0;
    for (const auto& l : lifts_) terms += l.support.num.terms() + l.support.den.terms();
    *options_.progress << "reconstruct: prime " << i + 1 << " (" << primes_[i]
                       << "): " << result.probes_per_prime.back() << " probes, " << terms
                       << " terms; each further prime needs about " << terms << " probes";
    if (box_.seconds() > 0) {
      *options_.progress << " (~" << terms * box_.seconds() / box_.probes() << " s)";
    }
    *options_.progress << "\n";
  }

  Reconstruction finish(Reconstruction result, Clock::time_point start) {
    for (auto& c : candidates_) {
      make_primitive(c);
      result.functions.push_back(std::move(c));
    }
    result.probes = box_.probes();
    result.black_box_seconds = box_.seconds();
    result.seconds = seconds_since(start);
    return result;
  }

  CountingBox box_;
  const ReconstructOptions& options_;
  ZippelOptions zippel_options_;
  std::vector<std::uint64_t> primes_;
  RandomElements random_;
  std::vector<Lift> lifts_;
  std::optional<std::vector<RationalModP>> support_;
  std::vector<RationalFunction> candidates_;
};

}  // namespace

Reconstruction reconstruct(const BlackBox& box, const ReconstructOptions& options) {
  if (options.max_primes == 0) throw Error("reconstruction needs at least one prime");
  return Reconstructor(box, options).run();
}

}  // namespace hepex::reconstruct
