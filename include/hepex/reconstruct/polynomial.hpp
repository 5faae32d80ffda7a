#pragma once
// Sparse multivariate polynomials (host): over Z/p, the per-prime results of
// reconstruction; over Q, the final answers, with their text form.

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hepex/field/zp.hpp"

namespace hepex::reconstruct {

// Terms in row-major order: exponents of term t are exponents[t*variables ...].
template <class Coefficient>
struct SparsePolynomial {
  std::size_t variables = 0;
  std::vector<std::uint32_t> exponents;
  std::vector<Coefficient> coefficients;

  std::size_t terms() const { return coefficients.size(); }
  const std::uint32_t* exponent(std::size_t t) const { return exponents.data() + t * variables; }
  void add_term(const std::uint32_t* e, const Coefficient& c) {
    exponents.insert(exponents.end(), e, e + variables);
    coefficients.push_back(c);
  }
  // Terms in descending lexicographic order of exponents (the printed order
  // and the order in which supports are compared).
  void sort();
  bool same_support(const SparsePolynomial& other) const {
    return variables == other.variables && exponents == other.exponents;
  }
};

using PolynomialModP = SparsePolynomial<std::uint64_t>;
using PolynomialQ = SparsePolynomial<mpq_class>;

// prod_v x[v]^e[v] mod p over the first `variables` exponents.
std::uint64_t monomial(const field::Zp64& f, const std::uint32_t* e, const std::uint64_t* x,
                       std::size_t variables);

// p(x) mod p for x of p.variables words.
std::uint64_t evaluate(const PolynomialModP& p, const field::Zp64& f, const std::uint64_t* x);

// A rational function mod p, normalised so that the coefficient of the
// denominator's last term (in sort() order) is 1: a normalisation every prime
// agrees on, so the coefficients can be lifted to Q term by term.
struct RationalModP {
  PolynomialModP num, den;
};

// Sorts both and divides by the normalising coefficient; false when the
// denominator is zero.
bool normalise(RationalModP& r, const field::Zp64& f);

struct RationalFunction {
  PolynomialQ num, den;
};

// The value mod p, or nothing when p divides a denominator of a coefficient
// or the denominator vanishes at x.
std::optional<std::uint64_t> evaluate(const RationalFunction& r, const field::Zp64& f,
                                      const std::uint64_t* x);

// Clears denominators: integer coefficients without a common factor, the
// denominator's first term positive.
void make_primitive(RationalFunction& r);

// "(NUM)/(DEN)", both expanded, in the grammar of hepex/io/expression.hpp.
std::string to_string(const PolynomialQ& p, const std::vector<std::string>& names);
std::string to_string(const RationalFunction& r, const std::vector<std::string>& names);

}  // namespace hepex::reconstruct
