#include "hepex/reconstruct/factored_form.hpp"

#include <flint/fmpq.h>
#include <flint/fmpq_mpoly.h>
#include <flint/fmpq_mpoly_factor.h>
#include <flint/fmpz.h>

#include <algorithm>
#include <numeric>

#include "hepex/core/error.hpp"

namespace hepex::reconstruct {

namespace {

// RAII over one FLINT context and the polynomials made in it.
class Context {
 public:
  explicit Context(std::size_t variables) {
    fmpq_mpoly_ctx_init(ctx_, static_cast<slong>(variables), ORD_LEX);
  }
  ~Context() { fmpq_mpoly_ctx_clear(ctx_); }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  const fmpq_mpoly_ctx_struct* get() const { return ctx_; }

 private:
  fmpq_mpoly_ctx_t ctx_;
};

class Poly {
 public:
  explicit Poly(const Context& c) : c_(c) { fmpq_mpoly_init(p_, c_.get()); }
  ~Poly() { fmpq_mpoly_clear(p_, c_.get()); }
  Poly(const Poly&) = delete;
  Poly& operator=(const Poly&) = delete;
  fmpq_mpoly_struct* get() { return p_; }

 private:
  const Context& c_;
  fmpq_mpoly_t p_;
};

class Factors {
 public:
  explicit Factors(const Context& c) : c_(c) { fmpq_mpoly_factor_init(f_, c_.get()); }
  ~Factors() { fmpq_mpoly_factor_clear(f_, c_.get()); }
  Factors(const Factors&) = delete;
  Factors& operator=(const Factors&) = delete;
  fmpq_mpoly_factor_struct* get() { return f_; }

 private:
  const Context& c_;
  fmpq_mpoly_factor_t f_;
};

struct Rational {
  fmpq_t q;
  Rational() { fmpq_init(q); }
  ~Rational() { fmpq_clear(q); }
  Rational(const Rational&) = delete;
  Rational& operator=(const Rational&) = delete;
  mpq_class get() const {
    mpq_class out;
    fmpq_get_mpq(out.get_mpq_t(), q);
    return out;
  }
};

void to_flint(const PolynomialQ& p, const Context& c, fmpq_mpoly_struct* out) {
  std::vector<ulong> e(p.variables);
  Rational q;
  for (std::size_t t = 0; t < p.terms(); ++t) {
    std::copy(p.exponent(t), p.exponent(t) + p.variables, e.begin());
    fmpq_set_mpq(q.q, p.coefficients[t].get_mpq_t());
    fmpq_mpoly_push_term_fmpq_ui(out, q.q, e.data(), c.get());
  }
  fmpq_mpoly_sort_terms(out, c.get());
  fmpq_mpoly_combine_like_terms(out, c.get());
}

// One factor: integer coefficients, content 1, leading coefficient (FLINT's
// term 0, the lexicographically largest) positive; `lead` its leading
// coefficient (for the constant).
PolynomialQ primitive_factor(fmpq_mpoly_struct* f, const Context& c, std::size_t n,
                             mpq_class& lead) {
  const slong terms = fmpq_mpoly_length(f, c.get());
  std::vector<mpq_class> coefficients(static_cast<std::size_t>(terms));
  std::vector<std::vector<std::uint32_t>> exponents(static_cast<std::size_t>(terms));
  std::vector<ulong> e(n);
  Rational q;
  mpz_class denominators = 1, content = 0;
  for (slong t = 0; t < terms; ++t) {
    fmpq_mpoly_get_term_coeff_fmpq(q.q, f, t, c.get());
    coefficients[static_cast<std::size_t>(t)] = q.get();
    fmpq_mpoly_get_term_exp_ui(e.data(), f, t, c.get());
    for (const ulong x : e) {
      if (x > UINT32_MAX) throw Error("factored form: an exponent beyond 2^32", ErrorKind::runtime);
    }
    exponents[static_cast<std::size_t>(t)].assign(e.begin(), e.end());
    denominators = lcm(denominators, coefficients[static_cast<std::size_t>(t)].get_den());
  }
  for (auto& a : coefficients) {
    a *= denominators;
    content = gcd(content, a.get_num());
  }
  if (coefficients.at(0) < 0) content = -content;
  PolynomialQ out{n, {}, {}};
  for (std::size_t t = 0; t < coefficients.size(); ++t) {
    coefficients[t] /= content;
    out.add_term(exponents[t].data(), coefficients[t]);
  }
  lead = coefficients[0];
  out.sort();
  return out;
}

struct Piece {
  PolynomialQ base;
  unsigned long exponent;
  std::string text;
};

// Factors of p (nonzero), each primitive; p = constant * prod base^exponent.
std::vector<Piece> factor(const PolynomialQ& p, const std::vector<std::string>& names,
                          mpq_class& constant) {
  const Context c(p.variables);
  Poly a(c);
  to_flint(p, c, a.get());
  if (fmpq_mpoly_is_zero(a.get(), c.get()))
    throw Error("factored form: a zero polynomial", ErrorKind::runtime);
  Rational lead_a;
  fmpq_mpoly_get_term_coeff_fmpq(lead_a.q, a.get(), 0, c.get());
  Factors f(c);
  if (!fmpq_mpoly_factor(f.get(), a.get(), c.get())) {
    throw Error("factored form: FLINT could not factor a polynomial", ErrorKind::runtime);
  }
  std::vector<Piece> pieces;
  mpq_class product_of_leads = 1;
  for (slong i = 0; i < f.get()->num; ++i) {
    mpq_class lead;
    PolynomialQ base = primitive_factor(f.get()->poly + i, c, p.variables, lead);
    if (!fmpz_fits_si(f.get()->exp + i))
      throw Error("factored form: a multiplicity beyond 2^63", ErrorKind::runtime);
    const auto e = static_cast<unsigned long>(fmpz_get_si(f.get()->exp + i));
    mpq_class power = 1;
    for (unsigned long k = 0; k < e; ++k) power *= lead;
    product_of_leads *= power;
    std::string text = to_string(base, names);
    pieces.push_back({std::move(base), e, std::move(text)});
  }
  // The leading term of a product is the product of the leading terms.
  constant = lead_a.get() / product_of_leads;
  std::sort(pieces.begin(), pieces.end(), [](const Piece& x, const Piece& y) {
    if (x.base.terms() != y.base.terms()) return x.base.terms() < y.base.terms();
    return x.text < y.text;
  });
  return pieces;
}

std::string power(const Piece& p) {
  std::string s = p.base.terms() == 1 ? p.text : "(" + p.text + ")";
  if (p.exponent > 1) s += "^" + std::to_string(p.exponent);
  return s;
}

std::string product(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& item : items) s += (s.empty() ? "" : "*") + item;
  return s;
}

}  // namespace

std::string to_factored_string(const RationalFunction& r, const std::vector<std::string>& names) {
  if (r.num.terms() == 0) return "0";
  if (r.num.variables == 0) return to_string(r, names);  // a constant
  mpq_class c_num, c_den;
  const auto num = factor(r.num, names, c_num);
  const auto den = factor(r.den, names, c_den);
  const mpq_class constant = c_num / c_den;
  std::vector<std::string> top, bottom;
  const mpz_class a = abs(constant.get_num()), b = constant.get_den();
  if (a != 1 || num.empty()) top.push_back(a.get_str());
  for (const auto& p : num) top.push_back(power(p));
  if (b != 1) bottom.push_back(b.get_str());
  for (const auto& p : den) bottom.push_back(power(p));
  std::string s = (constant < 0 ? "-" : "") + product(top);
  if (bottom.empty()) return s;
  const bool single = bottom.size() == 1;
  return s + "/" + (single ? bottom[0] : "(" + product(bottom) + ")");
}

std::string to_shorter_string(const RationalFunction& r, const std::vector<std::string>& names) {
  std::string expanded = to_string(r, names);
  std::string factored = to_factored_string(r, names);
  return factored.size() < expanded.size() ? factored : expanded;
}

}  // namespace hepex::reconstruct
