#pragma once
// The shift of balanced Zippel's lines x = t (1, z) + s (line_target.hpp):
// which variables to shift, and how to undo it mod p.
//
// A line needs one coefficient constant along it to normalise by: D(s) or
// N(s) nonzero. s = 0 when the black box is defined at the origin. Else a
// random shift in every variable would do, but it makes the coefficients in
// t dense (f3 of FireFly's benchmarks: a denominator of 3 terms, 161051 once
// shifted in its 5 variables). So, as FireFly's shift scan does (Klappert,
// Lange, Comput. Phys. Commun. 264 (2021) 107968, §2.2), the fewest variables
// are shifted: first a single one whose shift gives D(s) != 0 (one probe per
// variable, all in one batch: the black box is defined there); else one
// whose line keeps the degrees of a line shifted in every variable (N(s) or
// D(s) nonzero), the sparsest of the first few found; else all of them.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/detail/line_target.hpp"
#include "hepex/reconstruct/polynomial.hpp"
#include "hepex/reconstruct/zippel.hpp"

namespace hepex::reconstruct::detail {

struct ShiftChoice {
  std::vector<std::uint64_t> shift;  // per variable, zero where not shifted
  std::vector<LineShape> shapes;     // per function, from a line through the shift
};

// The line through s in the direction (1, z) for a random z, fitted in t for
// every function (RationalFit, until each is predicted): numerator and denominator
// coefficients, lowest power first. Throws BoxUndefined when the black box is
// defined nowhere on it, hepex::Error (a negative answer) beyond the degree
// limit, UnluckyChoice when the line keeps failing.
struct LineFit {
  std::vector<std::uint64_t> num, den;
};
// `at_shift`, when given, holds the F values already probed at the shift
// itself (t = 0): the fit takes them as its first point, one probe fewer.
std::vector<LineFit> fit_line(const BlackBox& box, const field::Zp64& f, RandomElements& random,
                              const std::vector<std::uint64_t>& shift, const ZippelOptions& options,
                              const std::vector<std::uint64_t>* at_shift = nullptr);
// The same along base + t direction.
std::vector<LineFit> fit_along(const BlackBox& box, const field::Zp64& f, RandomElements& random,
                               const std::vector<std::uint64_t>& base,
                               const std::vector<std::uint64_t>& direction,
                               const ZippelOptions& options,
                               const std::vector<std::uint64_t>* at_base = nullptr);

// The shape of lines through the same shift from one fitted line; false when
// it has neither constant (the shift does not work for that function).
bool shape_of(const LineFit& fit, LineShape& shape);

ShiftChoice choose_shift(const BlackBox& box, const field::Zp64& f, RandomElements& random,
                         const ZippelOptions& options);

// N mod p from the coefficients nu_r (polynomials in z = x_1.., nu.size() - 1
// the top power; an empty polynomial is zero) of N(t (1, z) + s): each nu_r
// made homogeneous of degree r is the degree-r part of N(x + s); from the top
// down, the lower parts of the higher parts of N shifted are subtracted.
PolynomialModP unshift(const field::Zp64& f, const std::vector<PolynomialModP>& nu,
                       const std::vector<std::uint64_t>& shift);

// The functions mod p (unshifted, not yet normalised) from their interpolated
// coefficients along target's lines, in the order of target.parts().
std::vector<RationalModP> rationals_along_lines(const LineTarget& target,
                                                const std::vector<PolynomialModP>& parts,
                                                const field::Zp64& f);

}  // namespace hepex::reconstruct::detail
