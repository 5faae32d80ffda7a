#include "hepex/reconstruct/detail/factor_scan.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "hepex/field/crt.hpp"
#include "hepex/reconstruct/detail/shift.hpp"

namespace hepex::reconstruct::detail {

namespace {

using Poly = std::vector<std::uint64_t>;  // mod p, lowest degree first

void trim(Poly& p) {
  while (!p.empty() && p.back() == 0) p.pop_back();
}

// a mod b (b nonzero, trimmed).
Poly remainder(const field::Zp64& f, Poly a, const Poly& b) {
  const std::uint64_t lead = f.inv(b.back());
  trim(a);
  while (a.size() >= b.size()) {
    const std::uint64_t c = f.mul(a.back(), lead);
    const std::size_t shift = a.size() - b.size();
    for (std::size_t k = 0; k < b.size(); ++k) a[k + shift] = f.sub(a[k + shift], f.mul(c, b[k]));
    a.pop_back();
    trim(a);
  }
  return a;
}

// The monic gcd (empty for two zeros).
Poly monic_gcd(const field::Zp64& f, Poly a, Poly b) {
  trim(a);
  trim(b);
  while (!b.empty()) {
    Poly r = remainder(f, a, b);
    a = std::move(b);
    b = std::move(r);
  }
  if (a.empty()) return a;
  const std::uint64_t lead = f.inv(a.back());
  for (auto& c : a) c = f.mul(c, lead);
  return a;
}

// q over Q from its image mod p (monic, so every coefficient a rational of
// small height), if every coefficient has one with |a| b 2^20 <= p: Wang's
// reconstruction answers for almost any residue with |a|, b < sqrt(p / 2),
// so a margin is what tells a true small rational from the image of a large
// one (a factor with 110-bit coefficients, or a whole univariate function).
std::optional<std::vector<mpq_class>> lift(const field::Zp64& f, const Poly& q) {
  const mpz_class m(std::to_string(f.modulus()));
  std::vector<mpq_class> out;
  for (const std::uint64_t c : q) {
    const auto value = field::rational_reconstruct(mpz_class(std::to_string(c)), m);
    if (!value) return std::nullopt;
    const mpz_class height = abs(value->get_num()) * value->get_den() << 20;
    if (height > m) return std::nullopt;
    out.push_back(*value);
  }
  return out;
}

std::uint64_t reduce(const field::Zp64& f, const mpq_class& q, bool& ok) {
  const mpz_class p(std::to_string(f.modulus()));
  mpz_class d = q.get_den() % p;
  if (d == 0) {
    ok = false;
    return 0;
  }
  mpz_class a = q.get_num() % p;
  if (a < 0) a += p;
  mpz_invert(d.get_mpz_t(), d.get_mpz_t(), p.get_mpz_t());
  const mpz_class v = a * d % p;
  return std::stoull(v.get_str());
}

}  // namespace

std::vector<std::size_t> vanishing_hyperplanes(const BlackBox& box, const field::Zp64& f,
                                               RandomElements& random) {
  const std::size_t n = box.variables();
  std::vector<std::uint64_t> points(n * n), out;
  std::vector<std::uint8_t> ok;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t l = 0; l < n; ++l) points[i * n + l] = l == i ? 0 : random.next(f);
  box.evaluate(f, n, points, out, ok);
  std::vector<std::size_t> vanishing;
  for (std::size_t i = 0; i < n; ++i)
    if (ok[i] == 0) vanishing.push_back(i);
  return vanishing;
}

std::vector<FunctionFactors> scan_factors(const BlackBox& box, const field::Zp64& f,
                                          RandomElements& random, const ZippelOptions& options,
                                          const std::vector<std::size_t>& variables) {
  const std::size_t n = box.variables(), F = box.functions();
  std::vector<FunctionFactors> factors(F);
  for (const std::size_t i : variables) {
    std::vector<std::vector<LineFit>> lines;
    for (int line = 0; line < 2; ++line) {
      std::vector<std::uint64_t> base(n), direction(n, 0);
      for (std::size_t l = 0; l < n; ++l) base[l] = l == i ? 0 : random.next(f);
      direction[i] = 1;
      lines.push_back(fit_along(box, f, random, base, direction, options));
    }
    for (std::size_t g = 0; g < F; ++g) {
      for (int den = 0; den < 2; ++den) {
        const Poly& a = den ? lines[0][g].den : lines[0][g].num;
        const Poly& b = den ? lines[1][g].den : lines[1][g].num;
        const Poly q = monic_gcd(f, a, b);
        if (q.size() < 2) continue;  // a constant: no factor
        auto coefficients = lift(f, q);
        if (!coefficients) continue;
        (den ? factors[g].den : factors[g].num).push_back({i, std::move(*coefficients)});
      }
    }
  }
  return factors;
}

std::shared_ptr<const FactoredBox::Reduced> FactoredBox::reduced(const field::Zp64& f) const {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (reduced_ && reduced_->modulus == f.modulus()) return reduced_;
  }
  auto out = std::make_shared<Reduced>();
  out->modulus = f.modulus();
  out->num.resize(factors_.size());
  out->den.resize(factors_.size());
  std::map<std::pair<std::size_t, Poly>, std::size_t> index;
  for (std::size_t g = 0; g < factors_.size(); ++g) {
    for (int side = 0; side < 2; ++side) {
      for (const auto& factor : side ? factors_[g].den : factors_[g].num) {
        Poly q;
        for (const auto& c : factor.coefficients) q.push_back(reduce(f, c, out->usable));
        auto key = std::make_pair(factor.variable, std::move(q));
        auto [at, fresh] = index.emplace(key, out->distinct.size());
        if (fresh) out->distinct.push_back(std::move(key));
        (side ? out->den : out->num)[g].push_back(at->second);
      }
    }
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  reduced_ = std::move(out);
  return reduced_;
}

void FactoredBox::evaluate(const field::Zp64& f, std::size_t count,
                           const std::vector<std::uint64_t>& points,
                           std::vector<std::uint64_t>& values,
                           std::vector<std::uint8_t>& ok) const {
  box_.evaluate(f, count, points, values, ok);
  if (none_) return;
  const std::size_t n = variables(), F = functions();
  const std::shared_ptr<const Reduced> r = reduced(f);
  // Per point: every distinct factor's value and inverse (one inversion for
  // all, Montgomery's trick: a table has thousands of coefficients, each
  // divided by its numerator factors).
  const std::size_t U = r->distinct.size();
  for_each_on(threads_, count, [&](std::size_t begin, std::size_t end) {
    std::vector<std::uint64_t> at(U), inverse(U), prefix(U + 1);
    for (std::size_t i = begin; i < end; ++i) {
      if (!r->usable) ok[i] = 0;
      if (ok[i] == 0) continue;
      const std::uint64_t* x = points.data() + i * n;
      prefix[0] = 1;
      for (std::size_t u = 0; u < U; ++u) {
        const auto& [v, q] = r->distinct[u];
        std::uint64_t value = 0;
        for (std::size_t k = q.size(); k-- > 0;) value = f.fma(value, x[v], q[k]);
        at[u] = value;
        prefix[u + 1] = value == 0 ? prefix[u] : f.mul(prefix[u], value);
      }
      std::uint64_t running = f.inv(prefix[U]);  // 1 / (product of the nonzero values)
      for (std::size_t u = U; u-- > 0;) {
        if (at[u] == 0) continue;  // a vanishing factor: no inverse (never used below)
        inverse[u] = f.mul(running, prefix[u]);
        running = f.mul(running, at[u]);
      }
      for (std::size_t g = 0; g < F && ok[i]; ++g) {
        std::uint64_t scale = 1;
        for (const std::size_t u : r->den[g]) scale = f.mul(scale, at[u]);
        for (const std::size_t u : r->num[g]) {
          if (at[u] == 0) {
            ok[i] = 0;  // a numerator factor vanishes: undefined here
            break;
          }
          scale = f.mul(scale, inverse[u]);
        }
        values[i * F + g] = f.mul(values[i * F + g], scale);
      }
    }
  });
}

void multiply_back(RationalFunction& r, const FunctionFactors& factors) {
  const auto times = [](PolynomialQ& p, const UnivariateFactor& q) {
    std::map<std::vector<std::uint32_t>, mpq_class> terms;
    for (std::size_t t = 0; t < p.terms(); ++t) {
      for (std::size_t k = 0; k < q.coefficients.size(); ++k) {
        if (q.coefficients[k] == 0) continue;
        std::vector<std::uint32_t> e(p.exponent(t), p.exponent(t) + p.variables);
        e[q.variable] += static_cast<std::uint32_t>(k);
        terms[e] += p.coefficients[t] * q.coefficients[k];
      }
    }
    PolynomialQ out{p.variables, {}, {}};
    for (const auto& [e, c] : terms)
      if (c != 0) out.add_term(e.data(), c);
    out.sort();
    p = std::move(out);
  };
  for (const auto& q : factors.num) times(r.num, q);
  for (const auto& q : factors.den) times(r.den, q);
}

}  // namespace hepex::reconstruct::detail
