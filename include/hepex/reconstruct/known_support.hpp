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
// Rational functions: along the lines of the first prime's plan (the same
// shifted variables, fresh shift values; balanced_zippel.hpp), every
// coefficient in t of every function has known monomials in z; the probes
// z_j = (y_1^j, .., y_{n-1}^j) give one fit in t each, and the coefficient
// with T_r monomials is solved from z_1..z_{T_r} (one transposed Vandermonde
// solve), after which its values are computed, not fitted: the fit at z_j
// solves only for the coefficients with T_r >= j, so the probes add up to
// sum_r T_r, about T whether or not the denominator has a constant term. The
// shift is undone mod p at the end.

#include <cstdint>
#include <optional>
#include <vector>

#include "hepex/reconstruct/balanced_zippel.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/polynomial.hpp"

namespace hepex::reconstruct {

// The functions mod f with exactly the monomials of `support` (coefficients
// of the support unused; a coefficient may come out zero), normalised as
// normalise() does. Throws UnluckyChoice (zippel.hpp) when the random choices
// or the prime were unlucky.
// plan: balanced Zippel's for rational functions (null for polynomials).
std::vector<RationalModP> from_support(const BlackBox& box, const field::Zp64& f,
                                       std::uint64_t seed, const std::vector<RationalModP>& support,
                                       const LinePlan* plan);

// Coefficients known before a prime is probed (accepted from the earlier
// primes: rational.hpp), in the order of a support's terms.
struct KnownCoefficients {
  std::vector<std::vector<std::uint8_t>> num, den;               // per function: known
  std::vector<std::vector<std::uint64_t>> num_value, den_value;  // mod the new prime
};

// The functions mod f with the monomials of `support` (normalised as
// normalise() does: the known coefficients are in that normalisation) when
// some are known: along lines through the origin, a degree class (the
// coefficient of one power of t) whose coefficients are all known makes the
// fits inhomogeneous, so no coefficient is fixed by the lines; the known
// coefficients' share is subtracted, and only the unknown ones are solved
// for: about as many probes as unknown coefficients. Nothing when some
// function has no class of known, not all zero, coefficients (the caller
// takes from_support then).
std::optional<std::vector<RationalModP>> from_support_knowing(
    const BlackBox& box, const field::Zp64& f, std::uint64_t seed,
    const std::vector<RationalModP>& support, const KnownCoefficients& known);

}  // namespace hepex::reconstruct
