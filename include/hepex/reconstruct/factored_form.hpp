#pragma once
// A reconstructed rational function in factored form: a rational constant
// times irreducible integer polynomials with multiplicities, numerator over
// denominator, e.g.
//   -3/2*x1^2*(x1 + x2)^3/((x3 - 4)*(x1*x2 - x3^2)^2)
// as IBP practitioners read coefficients (Kira's and FIRE's factorised
// output). The factorisation is FLINT's (fmpq_mpoly_factor: irreducible
// factors over Q); each factor is printed with integer coefficients, content
// 1 and a positive leading coefficient (FLINT's lexicographic order), the
// constant taking what is left. The text is in the grammar `hepex
// reconstruct` reads (and sympy's): it parses back to the same function.

#include <string>
#include <vector>

#include "hepex/reconstruct/polynomial.hpp"

namespace hepex::reconstruct {

// The factored text of r (num/den coprime, as reconstruct() returns them).
std::string to_factored_string(const RationalFunction& r, const std::vector<std::string>& names);

// The shorter of to_string(r, names) and to_factored_string(r, names): the
// expanded form on a tie (`hepex reconstruct --factored`).
std::string to_shorter_string(const RationalFunction& r, const std::vector<std::string>& names);

}  // namespace hepex::reconstruct
