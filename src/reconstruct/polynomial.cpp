#include "hepex/reconstruct/polynomial.hpp"

#include <algorithm>
#include <numeric>

#include "hepex/field/big_integer.hpp"

namespace hepex::reconstruct {

template <class Coefficient>
void SparsePolynomial<Coefficient>::sort() {
  std::vector<std::size_t> order(terms());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::lexicographical_compare(exponent(b), exponent(b) + variables, exponent(a),
                                        exponent(a) + variables);
  });
  SparsePolynomial sorted{variables, {}, {}};
  for (const std::size_t t : order) sorted.add_term(exponent(t), coefficients[t]);
  *this = std::move(sorted);
}

template struct SparsePolynomial<std::uint64_t>;
template struct SparsePolynomial<mpq_class>;

std::uint64_t monomial(const field::Zp64& f, const std::uint32_t* e, const std::uint64_t* x,
                       std::size_t variables) {
  std::uint64_t m = 1;
  for (std::size_t v = 0; v < variables; ++v) {
    if (e[v] != 0) m = f.mul(m, f.pow(x[v], e[v]));
  }
  return m;
}

std::uint64_t evaluate(const PolynomialModP& p, const field::Zp64& f, const std::uint64_t* x) {
  std::uint64_t sum = 0;
  for (std::size_t t = 0; t < p.terms(); ++t) {
    sum = f.fma(p.coefficients[t], monomial(f, p.exponent(t), x, p.variables), sum);
  }
  return sum;
}

bool normalise(RationalModP& r, const field::Zp64& f) {
  r.num.sort();
  r.den.sort();
  if (r.den.terms() == 0) return false;
  const std::uint64_t scale = f.inv(r.den.coefficients.back());
  for (auto& c : r.num.coefficients) c = f.mul(c, scale);
  for (auto& c : r.den.coefficients) c = f.mul(c, scale);
  return true;
}

std::optional<std::uint64_t> evaluate(const RationalFunction& r, const field::Zp64& f,
                                      const std::uint64_t* x) {
  auto value = [&](const PolynomialQ& p) -> std::optional<std::uint64_t> {
    std::uint64_t sum = 0;
    for (std::size_t t = 0; t < p.terms(); ++t) {
      if (mpz_divisible_ui_p(p.coefficients[t].get_den_mpz_t(), f.modulus())) return std::nullopt;
      sum = f.fma(field::from_big(f, p.coefficients[t]), monomial(f, p.exponent(t), x, p.variables),
                  sum);
    }
    return sum;
  };
  const auto num = value(r.num), den = value(r.den);
  if (!num || !den || *den == 0) return std::nullopt;
  return f.mul(*num, f.inv(*den));
}

void make_primitive(RationalFunction& r) {
  mpz_class lcm = 1, gcd = 0;
  for (const auto* p : {&r.num, &r.den}) {
    for (const auto& c : p->coefficients) {
      mpz_lcm(lcm.get_mpz_t(), lcm.get_mpz_t(), c.get_den_mpz_t());
      mpz_gcd(gcd.get_mpz_t(), gcd.get_mpz_t(), c.get_num_mpz_t());
    }
  }
  if (gcd == 0) return;  // zero denominator: nothing to scale
  mpq_class scale(lcm, gcd);
  scale.canonicalize();
  if (!r.den.coefficients.empty() && r.den.coefficients.front() < 0) scale = -scale;
  for (auto* p : {&r.num, &r.den}) {
    for (auto& c : p->coefficients) c *= scale;
  }
}

std::string to_string(const PolynomialQ& p, const std::vector<std::string>& names) {
  if (p.terms() == 0) return "0";
  std::string out;
  for (std::size_t t = 0; t < p.terms(); ++t) {
    const mpq_class& c = p.coefficients[t];
    const bool negative = c < 0;
    if (t > 0)
      out += negative ? " - " : " + ";
    else if (negative)
      out += "-";
    const mpq_class magnitude = abs(c);
    std::string factors;
    for (std::size_t v = 0; v < p.variables; ++v) {
      const std::uint32_t e = p.exponent(t)[v];
      if (e == 0) continue;
      if (!factors.empty()) factors += "*";
      factors += names.at(v);
      if (e > 1) factors += "^" + std::to_string(e);
    }
    if (factors.empty()) {
      out += magnitude.get_str();
    } else if (magnitude == 1) {
      out += factors;
    } else {
      out += magnitude.get_str() + "*" + factors;
    }
  }
  return out;
}

std::string to_string(const RationalFunction& r, const std::vector<std::string>& names) {
  // A polynomial (denominator 1, as make_primitive leaves it) as itself.
  const bool den_is_one = r.den.terms() == 1 && r.den.coefficients[0] == 1 &&
                          std::all_of(r.den.exponent(0), r.den.exponent(0) + r.den.variables,
                                      [](std::uint32_t e) { return e == 0; });
  if (den_is_one) return to_string(r.num, names);
  return "(" + to_string(r.num, names) + ")/(" + to_string(r.den, names) + ")";
}

}  // namespace hepex::reconstruct
