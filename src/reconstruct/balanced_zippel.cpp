#include "hepex/reconstruct/balanced_zippel.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "hepex/reconstruct/univariate.hpp"

namespace hepex::reconstruct {

namespace {

// Rounds of new t-values per probe z before the choices are declared unlucky.
constexpr std::size_t max_t_rounds = 32;

// The functions along lines t -> t*(1, z) + s.
class Lines {
 public:
  Lines(const BlackBox& box, const field::Zp64& f, RandomElements& random,
        std::vector<std::uint64_t> shift)
      : box_(box), f_(f), random_(random), shift_(std::move(shift)) {}

  bool shifted() const {
    return std::any_of(shift_.begin(), shift_.end(), [](std::uint64_t s) { return s != 0; });
  }
  const std::vector<std::uint64_t>& shift() const { return shift_; }

  // Per (z, g): numerator and denominator in t normalised to den[0] = 1, and
  // the number of Thiele coefficients.
  struct InT {
    std::vector<std::vector<std::uint64_t>> nums, dens;
    std::vector<std::size_t> sizes;
  };

  // For each of `count` points z (n-1 words each) and each function g: Thiele
  // in t, stopping when a point is predicted or after limit[g] coefficients.
  InT reconstruct(std::size_t count, const std::vector<std::uint64_t>& z,
                  const std::vector<std::size_t>& limit) {
    const std::size_t n = box_.variables(), F = box_.functions(), m = n - 1;
    std::vector<Thiele> thiele(count * F, Thiele(f_));
    std::vector<std::uint8_t> done(count * F, 0);
    std::vector<std::vector<std::uint64_t>> used(count);
    const std::size_t per_round = std::max<std::size_t>(
        2, std::min<std::size_t>(8, *std::max_element(limit.begin(), limit.end())));
    for (std::size_t round = 0;; ++round) {
      std::vector<std::size_t> active;
      for (std::size_t i = 0; i < count; ++i) {
        if (std::any_of(done.begin() + i * F, done.begin() + (i + 1) * F,
                        [](std::uint8_t d) { return d == 0; })) {
          active.push_back(i);
        }
      }
      if (active.empty()) break;
      if (round > max_t_rounds * (1 + *std::max_element(limit.begin(), limit.end()) / per_round)) {
        throw UnluckyChoice("balanced zippel: no usable points on a probe line");
      }
      std::vector<std::uint64_t> points, ts;
      for (const std::size_t i : active) {
        for (std::size_t r = 0; r < per_round; ++r) {
          std::uint64_t t;
          do {
            t = random_.next(f_);
          } while (std::find(used[i].begin(), used[i].end(), t) != used[i].end());
          used[i].push_back(t);
          ts.push_back(t);
          points.push_back(f_.add(t, shift_[0]));
          for (std::size_t l = 0; l < m; ++l)
            points.push_back(f_.fma(t, z[i * m + l], shift_[l + 1]));
        }
      }
      std::vector<std::uint64_t> out;
      std::vector<std::uint8_t> ok;
      box_.evaluate(f_, ts.size(), points, out, ok);
      for (std::size_t a = 0; a < active.size(); ++a) {
        const std::size_t i = active[a];
        for (std::size_t r = 0; r < per_round; ++r) {
          const std::size_t q = a * per_round + r;
          if (ok[q] == 0) continue;
          for (std::size_t g = 0; g < F; ++g) {
            if (done[i * F + g] != 0) continue;
            Thiele& th = thiele[i * F + g];
            const auto added = th.add(ts[q], out[q * F + g]);
            if (added == Thiele::Added::predicted ||
                (added == Thiele::Added::extended && th.size() >= limit[g])) {
              done[i * F + g] = 1;
            }
          }
        }
      }
    }
    InT r{std::vector<std::vector<std::uint64_t>>(count * F),
          std::vector<std::vector<std::uint64_t>>(count * F), std::vector<std::size_t>(count * F)};
    for (std::size_t q = 0; q < count * F; ++q) {
      thiele[q].to_rational(r.nums[q], r.dens[q]);
      r.sizes[q] = thiele[q].size();
      if (r.dens[q].empty() || r.dens[q][0] == 0) {
        throw UnluckyChoice("balanced zippel: the shift is a zero of the denominator");
      }
      const std::uint64_t scale = f_.inv(r.dens[q][0]);
      for (auto& c : r.nums[q]) c = f_.mul(c, scale);
      for (auto& c : r.dens[q]) c = f_.mul(c, scale);
    }
    return r;
  }

 private:
  const BlackBox& box_;
  const field::Zp64& f_;
  RandomElements& random_;
  std::vector<std::uint64_t> shift_;
};

// What the first line told: degrees in t (total degrees of N and D) and the
// number of Thiele coefficients that determined each function.
struct Degrees {
  std::vector<std::size_t> num, den, thiele;
};

// One homogeneous part: function g's numerator (den = false) or denominator.
struct Part {
  std::size_t g;
  bool den;
};

// The parts of degree `level` as polynomials in z (a black box over n-1
// variables for zippel), corrected for the shift by the known higher parts.
class LevelBox : public BlackBox {
 public:
  struct Coefficients {
    std::vector<std::vector<std::uint64_t>> num, den;  // per function, in t
  };

  LevelBox(Lines& lines, const Degrees& degrees, std::size_t n,
           std::map<std::vector<std::uint64_t>, Coefficients>& cache, std::size_t level,
           std::vector<Part> parts, const std::vector<RationalModP>& known)
      : lines_(lines),
        degrees_(degrees),
        n_(n),
        cache_(cache),
        level_(level),
        parts_(std::move(parts)),
        known_(known) {}

  std::size_t variables() const override { return n_ - 1; }
  std::size_t functions() const override { return parts_.size(); }

  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& z,
                std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) const override {
    const std::size_t m = n_ - 1;
    fill_cache(count, z);
    values.assign(count * parts_.size(), 0);
    ok.assign(count, 1);
    for (std::size_t i = 0; i < count; ++i) {
      const std::vector<std::uint64_t> key(z.begin() + i * m, z.begin() + (i + 1) * m);
      const Coefficients& c = cache_.at(key);
      for (std::size_t q = 0; q < parts_.size(); ++q) {
        const Part& part = parts_[q];
        const auto& inT = part.den ? c.den[part.g] : c.num[part.g];
        std::uint64_t v = level_ < inT.size() ? inT[level_] : 0;
        if (lines_.shifted()) v = f.sub(v, shift_contribution(f, part, key));
        values[i * parts_.size() + q] = v;
      }
    }
  }

 private:
  // Reconstructs in t at the points z not seen before.
  void fill_cache(std::size_t count, const std::vector<std::uint64_t>& z) const {
    const std::size_t m = n_ - 1;
    std::vector<std::uint64_t> fresh;
    std::vector<std::vector<std::uint64_t>> keys;
    for (std::size_t i = 0; i < count; ++i) {
      std::vector<std::uint64_t> key(z.begin() + i * m, z.begin() + (i + 1) * m);
      if (cache_.count(key) != 0 || std::find(keys.begin(), keys.end(), key) != keys.end())
        continue;
      fresh.insert(fresh.end(), key.begin(), key.end());
      keys.push_back(std::move(key));
    }
    if (keys.empty()) return;
    auto r = lines_.reconstruct(keys.size(), fresh, degrees_.thiele);
    const std::size_t F = degrees_.num.size();
    for (std::size_t i = 0; i < keys.size(); ++i) {
      Coefficients c;
      for (std::size_t g = 0; g < F; ++g) {
        if (r.nums[i * F + g].size() > degrees_.num[g] + 1 ||
            r.dens[i * F + g].size() > degrees_.den[g] + 1) {
          throw UnluckyChoice("balanced zippel: the degree probe was unlucky");
        }
        c.num.push_back(std::move(r.nums[i * F + g]));
        c.den.push_back(std::move(r.dens[i * F + g]));
      }
      cache_.emplace(std::move(keys[i]), std::move(c));
    }
  }

  // [t^level] of the known parts of higher degree at t*(1, z) + s: evaluated
  // at t = 1..D+1 and interpolated (D the degree bound of the polynomial).
  std::uint64_t shift_contribution(const field::Zp64& f, const Part& part,
                                   const std::vector<std::uint64_t>& z) const {
    const PolynomialModP& k = part.den ? known_[part.g].den : known_[part.g].num;
    if (k.terms() == 0) return 0;
    const std::size_t D = part.den ? degrees_.den[part.g] : degrees_.num[part.g];
    const auto& s = lines_.shift();
    NewtonBatch newton(f, 1);
    std::vector<std::uint64_t> x(n_);
    for (std::uint64_t t = 1; t <= D + 1; ++t) {
      x[0] = f.add(t, s[0]);
      for (std::size_t l = 1; l < n_; ++l) x[l] = f.fma(t, z[l - 1], s[l]);
      const std::uint64_t y = reconstruct::evaluate(k, f, x.data());
      newton.add(t, &y);
    }
    const auto c = newton.monomial(0);
    return level_ < c.size() ? c[level_] : 0;
  }

  Lines& lines_;
  const Degrees& degrees_;
  std::size_t n_;
  std::map<std::vector<std::uint64_t>, Coefficients>& cache_;
  std::size_t level_;
  std::vector<Part> parts_;
  const std::vector<RationalModP>& known_;
};

// z-polynomial of degree <= level -> homogeneous polynomial of that degree in x.
void add_homogenised(const PolynomialModP& q, std::size_t level, PolynomialModP& into) {
  std::vector<std::uint32_t> e(into.variables);
  for (std::size_t t = 0; t < q.terms(); ++t) {
    const std::uint32_t* z = q.exponent(t);
    const std::uint64_t degree = std::accumulate(z, z + q.variables, std::uint64_t{0});
    if (degree > level) throw UnluckyChoice("balanced zippel: a part exceeds its degree");
    e[0] = static_cast<std::uint32_t>(level - degree);
    std::copy(z, z + q.variables, e.begin() + 1);
    into.add_term(e.data(), q.coefficients[t]);
  }
}

}  // namespace

std::vector<RationalModP> balanced_zippel(const BlackBox& box, const field::Zp64& f,
                                          std::uint64_t seed, const ZippelOptions& options) {
  const std::size_t n = box.variables(), F = box.functions();
  RandomElements random(seed);
  std::vector<RationalModP> result(F);
  if (n == 0) {  // constants: plain Zippel evaluates once
    const auto p = zippel(box, f, seed, options);
    for (std::size_t g = 0; g < F; ++g) {
      result[g].num = p[g];
      result[g].den = PolynomialModP{0, {}, {1}};
    }
    return result;
  }
  // No shift when the black box is regular at the origin: then D(0) != 0.
  std::vector<std::uint64_t> shift(n, 0), out;
  std::vector<std::uint8_t> ok;
  box.evaluate(f, 1, shift, out, ok);
  if (ok[0] == 0) {
    for (auto& s : shift) s = random.next(f);
  }
  Lines lines(box, f, random, shift);

  // The degrees in t on one random line.
  std::vector<std::uint64_t> z(n - 1);
  for (auto& c : z) c = random.next(f);
  Degrees degrees;
  const std::size_t limit = 2 * options.max_degree + 2;
  const auto first = lines.reconstruct(1, z, std::vector<std::size_t>(F, limit));
  for (std::size_t g = 0; g < F; ++g) {
    if (first.sizes[g] >= limit) {
      throw Error("reconstruction: the total degree exceeds the limit " +
                      std::to_string(options.max_degree),
                  ErrorKind::negative_answer);
    }
    degrees.num.push_back(first.nums[g].empty() ? 0 : first.nums[g].size() - 1);
    degrees.den.push_back(first.dens[g].size() - 1);
    degrees.thiele.push_back(first.sizes[g]);
  }
  if (std::all_of(degrees.den.begin(), degrees.den.end(), [](std::size_t d) { return d == 0; })) {
    const auto p = zippel(box, f, random.next(f), options);
    for (std::size_t g = 0; g < F; ++g) {
      result[g].num = p[g];
      result[g].den = PolynomialModP{n, std::vector<std::uint32_t>(n, 0), {1}};
    }
    return result;
  }

  for (auto& r : result) r.num.variables = r.den.variables = n;
  std::map<std::vector<std::uint64_t>, LevelBox::Coefficients> cache;
  const std::size_t top = std::max(*std::max_element(degrees.num.begin(), degrees.num.end()),
                                   *std::max_element(degrees.den.begin(), degrees.den.end()));
  for (std::size_t level = top + 1; level-- > 0;) {
    std::vector<Part> parts;
    for (std::size_t g = 0; g < F; ++g) {
      if (level <= degrees.num[g]) parts.push_back({g, false});
      if (level <= degrees.den[g]) parts.push_back({g, true});
    }
    const LevelBox level_box(lines, degrees, n, cache, level, parts, result);
    const auto polys = zippel(level_box, f, random.next(f), options);
    for (std::size_t q = 0; q < parts.size(); ++q) {
      auto& into = parts[q].den ? result[parts[q].g].den : result[parts[q].g].num;
      add_homogenised(polys[q], level, into);
    }
    if (options.progress != nullptr) {
      *options.progress << "balanced zippel: prime " << f.modulus() << ", degree " << level
                        << " done\n";
    }
  }
  return result;
}

}  // namespace hepex::reconstruct
