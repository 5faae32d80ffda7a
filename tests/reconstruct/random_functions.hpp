#pragma once
// Random sparse polynomials and rational functions for the reconstruction
// tests, and an exact comparison of rational functions by cross-multiplying.

#include <gmpxx.h>

#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "hepex/reconstruct/polynomial.hpp"

namespace hepex::test {

// The monomials of total degree <= degree in n variables: C(degree + n, n).
inline std::size_t monomial_count(std::size_t n, std::uint32_t degree) {
  std::size_t count = 1;
  for (std::size_t v = 1; v <= n; ++v) count = count * (degree + v) / v;
  return count;
}

// `terms` distinct monomials of total degree <= degree in `variables`
// variables, coefficients random rationals of up to `bits` bits (numerator
// and denominator), never zero. `constant` adds the monomial 1.
inline reconstruct::PolynomialQ random_polynomial(std::mt19937_64& rng, std::size_t variables,
                                                  std::size_t terms, std::uint32_t degree,
                                                  unsigned bits, bool constant) {
  if (terms > monomial_count(variables, degree)) {
    throw std::invalid_argument("random_polynomial: more terms than monomials");
  }
  std::set<std::vector<std::uint32_t>> monomials;
  if (constant) monomials.insert(std::vector<std::uint32_t>(variables, 0));
  while (monomials.size() < terms) {
    std::vector<std::uint32_t> e(variables, 0);
    std::uint32_t left = static_cast<std::uint32_t>(rng() % (degree + 1));
    while (left > 0) {
      const std::size_t v = rng() % variables;
      const std::uint32_t step = 1 + static_cast<std::uint32_t>(rng() % left);
      e[v] += step;
      left -= step;
    }
    monomials.insert(e);
  }
  gmp_randclass gmp(gmp_randinit_default);
  gmp.seed(static_cast<unsigned long>(rng()));
  reconstruct::PolynomialQ p{variables, {}, {}};
  for (const auto& e : monomials) {
    mpq_class c(mpz_class(gmp.get_z_bits(bits)) + 1, mpz_class(gmp.get_z_bits(bits)) + 1);
    if (rng() % 2 == 0) c = -c;
    c.canonicalize();
    p.add_term(e.data(), c);
  }
  return p;
}

inline std::map<std::vector<std::uint32_t>, mpq_class> product(const reconstruct::PolynomialQ& a,
                                                               const reconstruct::PolynomialQ& b) {
  std::map<std::vector<std::uint32_t>, mpq_class> out;
  std::vector<std::uint32_t> e(a.variables);
  for (std::size_t s = 0; s < a.terms(); ++s) {
    for (std::size_t t = 0; t < b.terms(); ++t) {
      for (std::size_t v = 0; v < e.size(); ++v) e[v] = a.exponent(s)[v] + b.exponent(t)[v];
      out[e] += a.coefficients[s] * b.coefficients[t];
    }
  }
  for (auto it = out.begin(); it != out.end();) it = it->second == 0 ? out.erase(it) : ++it;
  return out;
}

inline reconstruct::PolynomialQ polynomial_of(
    std::size_t variables, const std::map<std::vector<std::uint32_t>, mpq_class>& terms) {
  reconstruct::PolynomialQ p{variables, {}, {}};
  for (const auto& [e, c] : terms) p.add_term(e.data(), c);
  return p;
}

inline reconstruct::PolynomialQ multiply(const reconstruct::PolynomialQ& a,
                                         const reconstruct::PolynomialQ& b) {
  return polynomial_of(a.variables, product(a, b));
}

// a == b as rational functions: a.num * b.den == b.num * a.den.
inline bool same_function(const reconstruct::RationalFunction& a,
                          const reconstruct::RationalFunction& b) {
  return product(a.num, b.den) == product(b.num, a.den);
}

}  // namespace hepex::test
