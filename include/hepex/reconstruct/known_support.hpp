#pragma once
// Images mod a further prime of rational functions whose monomials are known
// (from the first prime's full reconstruction): every prime after the first
// needs about T probes for T terms, as in FireFly (Klappert-Lange, CPC 247
// (2020) 106951, §3.4) and production IBP reconstructions.
//
// Polynomials: the probes x_j = (y_1^j, .., y_n^j), j = 1..T, give
// sum_t c_t m_t^j with m_t = y^{e_t}: one transposed Vandermonde solve per
// function (detail/vandermonde.hpp).
//
// Rational functions with a constant term in the denominator: along the
// lines t (1, z_j) + 0 with z_j = (y_2^j, .., y_n^j), one fit in t gives the
// values of every homogeneous part at z_j (detail/line_target.hpp); the part
// of degree r with T_r monomials is solved from z_1..z_{T_r} (one transposed
// Vandermonde solve per part), and from then on its values are computed, not
// fitted: the fit at z_j solves only for the parts with T_r >= j, so the
// probes add up to sum_r T_r = T.

#include <cstdint>
#include <vector>

#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/polynomial.hpp"

namespace hepex::reconstruct {

// Whether from_support can take these supports: polynomials, or every
// denominator has the constant monomial.
bool support_reusable(const std::vector<RationalModP>& support);

// The functions mod f with exactly the monomials of `support` (coefficients
// of the support unused; a coefficient may come out zero), normalised as
// normalise() does. Throws UnluckyChoice (zippel.hpp) when the random choices
// or the prime were unlucky.
std::vector<RationalModP> from_support(const BlackBox& box, const field::Zp64& f,
                                       std::uint64_t seed,
                                       const std::vector<RationalModP>& support);

}  // namespace hepex::reconstruct
