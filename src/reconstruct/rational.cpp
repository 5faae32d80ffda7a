#include "hepex/reconstruct/rational.hpp"

#include <optional>

#include "hepex/core/error.hpp"
#include "hepex/core/random.hpp"
#include "hepex/field/crt.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/balanced_zippel.hpp"

namespace hepex::reconstruct {

namespace {

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
  RationalModP support;  // coefficients unused
  std::optional<field::CrtLift> crt;
  std::optional<RationalFunction> answer;  // determined and confirmed

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

  std::optional<RationalFunction> candidate() const {
    if (!crt) return std::nullopt;
    const auto lifted = crt->to_rationals();
    if (!lifted.determined()) return std::nullopt;
    RationalFunction q;
    q.num = {support.num.variables, support.num.exponents, {}};
    q.den = {support.den.variables, support.den.exponents, {}};
    const std::size_t k = support.num.terms();
    q.num.coefficients.assign(lifted.values.begin(), lifted.values.begin() + k);
    q.den.coefficients.assign(lifted.values.begin() + k, lifted.values.end());
    return q;
  }
};

}  // namespace

Reconstruction reconstruct(const BlackBox& box, const ReconstructOptions& options) {
  if (options.max_primes == 0) throw Error("reconstruction needs at least one prime");
  const std::size_t F = box.functions();
  ZippelOptions zippel_options;
  zippel_options.max_degree = options.max_degree;
  zippel_options.values_per_round = options.values_per_round;
  zippel_options.progress = options.progress;
  // Reconstruction primes just below 2^63; checking primes below 2^62.
  const auto primes = field::large_primes(options.max_primes);
  const auto fresh = field::large_primes(options.max_primes, std::uint64_t{1} << 62);
  std::vector<Lift> lifts(F);
  Reconstruction result;
  RandomElements random(random::splitmix64(options.seed));
  for (std::size_t i = 0; i < options.max_primes; ++i) {
    const field::Zp64 f(primes[i]);
    std::optional<std::vector<RationalModP>> images;
    for (std::size_t attempt = 0; attempt < options.retries && !images; ++attempt) {
      try {
        auto r = balanced_zippel(box, f, random.next(f), zippel_options);
        for (auto& g : r) {
          if (!normalise(g, f)) throw UnluckyChoice("zero denominator");
        }
        if (agrees(box, f, options.verify_points, random,
                   [&](std::size_t g, const std::uint64_t* x) -> std::optional<std::uint64_t> {
                     const std::uint64_t den = evaluate(r[g].den, f, x);
                     if (den == 0) return std::nullopt;
                     return f.mul(evaluate(r[g].num, f, x), f.inv(den));
                   })) {
          images = std::move(r);
        }
      } catch (const UnluckyChoice& e) {
        if (options.progress)
          *options.progress << "prime " << f.modulus() << ": " << e.what() << "\n";
      }
    }
    if (!images) continue;  // this prime keeps failing: try the next one
    ++result.primes;
    const field::Zp64 check(fresh[i]);
    bool done = true;
    for (std::size_t g = 0; g < F; ++g) {
      if (lifts[g].answer) continue;
      lifts[g].add(f.modulus(), (*images)[g]);
      lifts[g].answer = lifts[g].candidate();
      done = done && lifts[g].answer.has_value();
    }
    if (options.progress != nullptr) {
      std::size_t determined = 0, terms = 0;
      for (const auto& l : lifts) {
        determined += l.answer ? 1 : 0;
        terms += l.support.num.terms() + l.support.den.terms();
      }
      *options.progress << "reconstruct: prime " << i + 1 << " (" << f.modulus() << "): " << terms
                        << " terms, " << determined << "/" << F << " functions determined\n";
    }
    if (!done) continue;
    // Everything determined: confirm on a prime that took no part.
    if (agrees(box, check, options.verify_points, random,
               [&](std::size_t g, const std::uint64_t* x) {
                 return evaluate(*lifts[g].answer, check, x);
               })) {
      for (auto& l : lifts) {
        make_primitive(*l.answer);
        result.functions.push_back(std::move(*l.answer));
      }
      return result;
    }
    for (auto& l : lifts) l.answer.reset();  // a false determination: keep adding primes
  }
  std::size_t open = 0;
  for (const auto& l : lifts) open += l.answer ? 0 : 1;
  throw Error("reconstruction did not converge with " + std::to_string(options.max_primes) +
                  " primes (" + std::to_string(open) + " of " + std::to_string(F) +
                  " functions undetermined); raise --primes",
              ErrorKind::negative_answer);
}

}  // namespace hepex::reconstruct
