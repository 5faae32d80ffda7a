#include "hepex/reconstruct/zippel.hpp"

#include <algorithm>
#include <optional>

#include "hepex/core/random.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/reconstruct/univariate.hpp"
#include "hepex/reconstruct/vandermonde.hpp"

namespace hepex::reconstruct {

std::uint64_t RandomElements::next(const field::Zp64& f) {
  while (true) {
    const std::uint64_t x = f.from_uint(random::counter_u64(seed_, counter_++));
    if (x != 0) return x;
  }
}

namespace {

// Failed probe batches tolerated per stage before the random choices are
// declared unlucky.
constexpr std::size_t max_failed_rounds = 16;

// The state between stages: per function, the monomials in x_0..x_{k-1} and
// their coefficients at x_k.. = a.
struct Skeleton {
  std::vector<PolynomialModP> polys;
  std::size_t max_terms() const {
    std::size_t t = 0;
    for (const auto& p : polys) t = std::max(t, p.terms());
    return t;
  }
};

class Stage {
 public:
  Stage(const BlackBox& box, const field::Zp64& f, const ZippelOptions& options,
        RandomElements& random, const std::vector<std::uint64_t>& anchors,
        const std::vector<std::uint64_t>& generators, std::size_t k)
      : box_(box),
        f_(f),
        options_(options),
        random_(random),
        anchors_(anchors),
        generators_(generators),
        k_(k) {}

  Skeleton run(const Skeleton& in) {
    // Nodes m_t = prod_{l<k} y_l^{e_tl}; the first stage has the one monomial 1.
    for (const auto& p : in.polys) {
      for (std::size_t t = 0; t < p.terms(); ++t) {
        std::uint64_t m = 1;
        for (std::size_t l = 0; l < k_; ++l)
          m = f_.mul(m, f_.pow(generators_[l], p.exponent(t)[l]));
        systems_.nodes.push_back(m);
      }
      systems_.offsets.push_back(systems_.nodes.size());
      std::vector<std::uint64_t> sorted(systems_.nodes.begin() + systems_.offsets.end()[-2],
                                        systems_.nodes.end());
      std::sort(sorted.begin(), sorted.end());
      if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        throw UnluckyChoice("zippel: two skeleton monomials take the same value");
      }
    }
    solver_.emplace(f_, systems_);  // masters and denominators for every round
    const std::size_t total = systems_.nodes.size();
    NewtonBatch newton(f_, total);
    if (k_ > 0) {  // the coefficients so far are the values at x_k = a_k
      std::vector<std::uint64_t> values;
      for (const auto& p : in.polys)
        values.insert(values.end(), p.coefficients.begin(), p.coefficients.end());
      newton.add(anchors_[k_], values.data());
      used_.push_back(anchors_[k_]);
    }
    std::size_t failed_rounds = 0;
    while (!newton.converged()) {
      if (newton.points() > options_.max_degree + 1) {
        throw Error("reconstruction: the degree in variable " + std::to_string(k_ + 1) +
                        " exceeds the limit " + std::to_string(options_.max_degree),
                    ErrorKind::negative_answer);
      }
      std::vector<std::uint64_t> values;
      const std::size_t solved = solve_round(in, values);
      if (solved == 0 && ++failed_rounds > max_failed_rounds) {
        throw UnluckyChoice("zippel: the black box keeps failing at the probes");
      }
      for (std::size_t r = 0; r < solved && !newton.converged(); ++r) {
        newton.add(values_[r], values.data() + r * total);
      }
    }
    return lift(in, newton);
  }

 private:
  // Probes S new values of x_k; returns how many were usable, their values in
  // values_ and the skeleton coefficients there in `solution` (S x total).
  //
  // A probe where the black box fails is replaced by moving the window of
  // consecutive powers: values at y^{j0+1} .. y^{j0+T} solve the system for
  // a_t m_t^{j0}, so any run of T+1 successful probes among the `window`
  // evaluated per value of x_k serves.
  std::size_t solve_round(const Skeleton& in, std::vector<std::uint64_t>& solution) {
    const std::size_t n = box_.variables(), F = box_.functions();
    const std::size_t S = std::max<std::size_t>(1, options_.values_per_round);
    // One check probe beyond the T of each system (none needed for T = 1 at k = 0).
    const std::size_t probes = k_ == 0 ? 1 : in.max_terms() + 1;
    const std::size_t window = k_ == 0 ? 1 : probes + 2 + probes / 8;
    values_.clear();
    for (std::size_t r = 0; r < S; ++r) {
      std::uint64_t c;
      do {
        c = random_.next(f_);
      } while (std::find(used_.begin(), used_.end(), c) != used_.end());
      used_.push_back(c);
      values_.push_back(c);
    }
    std::vector<std::uint64_t> points(S * window * n);
    for (std::size_t r = 0; r < S; ++r) {
      std::vector<std::uint64_t> power(k_, 1);
      for (std::size_t j = 0; j < window; ++j) {
        std::uint64_t* x = points.data() + (r * window + j) * n;
        for (std::size_t l = 0; l < k_; ++l) x[l] = power[l] = f_.mul(power[l], generators_[l]);
        x[k_] = values_[r];
        for (std::size_t l = k_ + 1; l < n; ++l) x[l] = anchors_[l];
      }
    }
    std::vector<std::uint64_t> out;
    std::vector<std::uint8_t> ok;
    box_.evaluate(f_, S * window, points, out, ok);
    // Keep the values of x_k with a run of `probes` successes; first[i] is
    // where the run starts.
    std::vector<std::size_t> good, first;
    for (std::size_t r = 0; r < S; ++r) {
      std::size_t run = 0;
      for (std::size_t j = 0; j < window && run < probes; ++j) {
        run = ok[r * window + j] != 0 ? run + 1 : 0;
        if (run == probes) {
          good.push_back(r);
          first.push_back(r * window + j + 1 - probes);
        }
      }
    }
    const std::size_t total = systems_.nodes.size();
    std::vector<std::uint64_t> rhs(good.size() * total);
    for (std::size_t i = 0; i < good.size(); ++i)
      for (std::size_t g = 0; g < F; ++g)
        for (std::size_t j = systems_.offsets[g]; j < systems_.offsets[g + 1]; ++j)
          rhs[i * total + j] = out[(first[i] + j - systems_.offsets[g]) * F + g];
    solution = solver_->solve(good.size(), rhs);
    for (std::size_t i = 0; i < good.size(); ++i) {
      std::uint64_t* a = solution.data() + i * total;
      check_probe(in, a, out.data() + first[i] * F, probes);
      const std::size_t shift = first[i] - good[i] * window;  // j0
      if (shift != 0) {
        for (std::size_t j = 0; j < total; ++j) {
          a[j] = f_.mul(a[j], f_.inv(f_.pow(systems_.nodes[j], shift)));
        }
      }
      values_[i] = values_[good[i]];
    }
    values_.resize(good.size());
    return good.size();
  }

  // The probe j = T_g + 1 must agree with the solved coefficients.
  void check_probe(const Skeleton& in, const std::uint64_t* a, const std::uint64_t* out,
                   std::size_t probes) const {
    const std::size_t F = box_.functions();
    for (std::size_t g = 0; g < F; ++g) {
      const std::size_t first = systems_.offsets[g], T = in.polys[g].terms();
      if (T + 1 > probes) continue;  // the first stage: nothing to check
      std::uint64_t sum = 0;
      for (std::size_t t = 0; t < T; ++t) {
        sum = f_.fma(a[first + t], f_.pow(systems_.nodes[first + t], T + 1), sum);
      }
      if (sum != out[T * F + g]) {
        throw UnluckyChoice("zippel: the skeleton misses a monomial (unlucky anchor point)");
      }
    }
  }

  // Each skeleton coefficient becomes a polynomial in x_k.
  Skeleton lift(const Skeleton& in, const NewtonBatch& newton) const {
    Skeleton out;
    std::size_t j = 0;
    for (const auto& p : in.polys) {
      PolynomialModP q{p.variables, {}, {}};
      for (std::size_t t = 0; t < p.terms(); ++t, ++j) {
        const auto c = newton.monomial(j);
        std::vector<std::uint32_t> e(p.exponent(t), p.exponent(t) + p.variables);
        for (std::size_t d = 0; d < c.size(); ++d) {
          if (c[d] == 0) continue;
          e[k_] = static_cast<std::uint32_t>(d);
          q.add_term(e.data(), c[d]);
        }
      }
      out.polys.push_back(std::move(q));
    }
    return out;
  }

  const BlackBox& box_;
  const field::Zp64& f_;
  const ZippelOptions& options_;
  RandomElements& random_;
  const std::vector<std::uint64_t>& anchors_;
  const std::vector<std::uint64_t>& generators_;
  const std::size_t k_;
  VandermondeSystems systems_;
  std::optional<TransposedVandermonde<DeviceSpace>> solver_;
  std::vector<std::uint64_t> used_;    // values of x_k probed so far
  std::vector<std::uint64_t> values_;  // this round's values of x_k
};

}  // namespace

std::vector<PolynomialModP> zippel(const BlackBox& box, const field::Zp64& f, std::uint64_t seed,
                                   const ZippelOptions& options) {
  const std::size_t n = box.variables(), F = box.functions();
  RandomElements random(seed);
  if (n == 0) {  // constants: one evaluation
    std::vector<std::uint64_t> out;
    std::vector<std::uint8_t> ok;
    box.evaluate(f, 1, {}, out, ok);
    if (ok.at(0) == 0) throw Error("the black box fails without variables", ErrorKind::runtime);
    std::vector<PolynomialModP> result(F);
    for (std::size_t g = 0; g < F; ++g) {
      if (out[g] != 0) result[g].add_term(nullptr, out[g]);
    }
    return result;
  }
  std::vector<std::uint64_t> anchors(n), generators(n);
  for (auto& a : anchors) a = random.next(f);
  for (auto& y : generators) y = random.next(f);
  Skeleton skeleton;
  const std::vector<std::uint32_t> zero(n, 0);
  skeleton.polys.assign(F, PolynomialModP{n, {}, {}});
  for (auto& p : skeleton.polys) p.add_term(zero.data(), 0);  // the monomial 1, value unknown
  for (std::size_t k = 0; k < n; ++k) {
    skeleton = Stage(box, f, options, random, anchors, generators, k).run(skeleton);
    if (options.progress != nullptr) {
      std::size_t terms = 0;
      for (const auto& p : skeleton.polys) terms += p.terms();
      *options.progress << "zippel: prime " << f.modulus() << ", variable " << k + 1 << "/" << n
                        << ": " << terms << " terms\n";
    }
  }
  return skeleton.polys;
}

}  // namespace hepex::reconstruct
