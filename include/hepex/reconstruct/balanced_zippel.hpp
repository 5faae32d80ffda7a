#pragma once
// Rational functions mod p from a black box: the balanced Zippel method
// (Smirnov-Zeng, Numer. Methods Program. 25 (2024) 30, seed paper ref. [26];
// the scaling idea of Cuyt-Lee, Theor. Comput. Sci. 412 (2011) 1445, as used
// in FireFly, Klappert-Lange, Comput. Phys. Commun. 247 (2020) 106951).
//
// With f = N/D, substitute x = t*(1, z_1, .., z_{n-1}) + s, the shift s zero
// but on the fewest variables that give a constant to normalise by
// (detail/shift.hpp; s = 0 when f is regular at the origin). A first line in
// t (Thiele, detail/univariate.hpp) gives the degrees in t and which
// coefficients are zero. Then every coefficient in t of every numerator and
// denominator is one function of a single Zippel run in the n-1 variables z
// (detail/sparse_interpolation.hpp), all of them fed from the same probe
// points: one fit along t at a point z gives every coefficient's value there,
// and solves only for those not yet known (detail/line_target.hpp). The
// shift is undone mod p at the end. When every denominator is constant,
// plain Zippel in x is used with the degrees as bounds.

#include <cstdint>
#include <vector>

#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/detail/line_target.hpp"
#include "hepex/reconstruct/polynomial.hpp"
#include "hepex/reconstruct/zippel.hpp"

namespace hepex::reconstruct {

// How balanced Zippel's lines saw rational functions, for the later primes
// (known_support.hpp): which variables were shifted, each function's shape
// along the lines, and the monomials (in z) of every coefficient in t, in the
// order of detail::LineTarget::parts() for those shapes.
struct LinePlan {
  std::vector<std::uint8_t> shifted;
  std::vector<detail::LineShape> shapes;
  std::vector<PolynomialModP> supports;
};

// Every function of the black box mod f (not yet normalised: normalise()).
// Throws UnluckyChoice when random choices were unlucky (retry with another
// seed). For rational functions, *plan (if given) gets the lines' plan.
std::vector<RationalModP> balanced_zippel(const BlackBox& box, const field::Zp64& f,
                                          std::uint64_t seed, const ZippelOptions& options,
                                          LinePlan* plan = nullptr);

}  // namespace hepex::reconstruct
