#pragma once
// An expression (hepex/io/expression.hpp) expanded exactly over Q into a
// quotient of sparse polynomials N/D, kept so that evaluating it mod p fails
// exactly where the expression's stack program divides by zero.
//
// Every divisor the program meets (the operand of '/' or of a^-k) is split as
//   c * x^m * f,  c in Q (the content), x^m the monomial gcd, f a primitive
// integer polynomial (coprime coefficients, first term positive),
// and each variable of x^m and f becomes a "factor". D is a product of powers
// of factors (sums take the least common multiple of the two denominators),
// and nothing is cancelled between N and D. Mod a prime p:
//  * the program fails at x  <=>  some factor vanishes at x or p divides the
//    numerator of some content c. (By induction over the program: a
//    subexpression whose program succeeds has the value N/D with D != 0, so a
//    divisor's value is zero exactly where one of its parts is. Before the
//    first content with p | numerator every coefficient met has only contents'
//    numerators in its denominator, so reducing mod p commutes with the
//    arithmetic; that content's divisor is then zero mod p and the program
//    fails at every point.)
//  * D is made of factors, so D(x) = 0 implies a failure; the factors that are
//    not in D (the x-1 of 1/(1/(x-1))) are kept as `guards`;
//  * where nothing fails, N(x)/D(x) is the program's value: the coefficients of
//    N have only contents' numerators in their denominators.
// So: fail where D or a guard vanishes, or everywhere when p divides one of
// `constant_divisors`; else N/D. A divisor that is identically zero over Q
// (1/(x-x)) fails at every point for every p: N and D are then both empty.

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/polynomial.hpp"

namespace hepex::reconstruct::detail {

struct ExpandedExpression {
  PolynomialQ num;  // rational coefficients
  PolynomialQ den;  // a product of factors: integer coefficients; no terms: never defined
  std::vector<PolynomialQ> guards;           // factors divided by that D does not hold
  std::vector<mpz_class> constant_divisors;  // the contents' numerators (|n| > 1, distinct)
};

// Where expansion gives up (the expression then stays interpreted).
struct ExpansionLimits {
  std::size_t terms;             // of any polynomial met on the way
  std::size_t products;          // term-by-term products in all
  std::uint32_t degree;          // total degree of any polynomial
  std::size_t coefficient_bits;  // growth of a coefficient under one power a^k, and the
                                 // bits of two coefficients multiplied
};

// N/D of the expression over its variables, or nothing when a limit is reached.
std::optional<ExpandedExpression> expand(const io::Expression& expression,
                                         const ExpansionLimits& limits);

}  // namespace hepex::reconstruct::detail
