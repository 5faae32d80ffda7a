#pragma once
// Rational functions mod p from a black box: the balanced Zippel method
// (Smirnov-Zeng, Numer. Methods Program. 25 (2024) 30, seed paper ref. [26];
// the scaling idea of Cuyt-Lee, Theor. Comput. Sci. 412 (2011) 1445, as used
// in FireFly, Klappert-Lange, Comput. Phys. Commun. 247 (2020) 106951).
//
// With f = N/D, substitute x = t*(1, z_1, .., z_{n-1}) + s for a random shift
// s (s = 0 when f is regular at the origin, i.e. D(0) != 0). A first line in
// t (Thiele, detail/univariate.hpp) gives the total degrees. Then every homogeneous
// part of every numerator and denominator is one function of a single Zippel
// run in the n-1 variables z (detail/sparse_interpolation.hpp), all of them
// fed from the same probe points: one fit along t at a point z gives every
// part's value there, and solves only for the parts not yet known
// (detail/line_target.hpp). With s != 0 the parts are found from the top
// degree down, the higher parts' share of each coefficient in t subtracted.
// When every denominator is constant, plain Zippel in x is used with the
// degrees as bounds.

#include <cstdint>
#include <vector>

#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/polynomial.hpp"
#include "hepex/reconstruct/zippel.hpp"

namespace hepex::reconstruct {

// Every function of the black box as a normalised RationalModP. Throws
// UnluckyChoice when random choices were unlucky (retry with another seed).
std::vector<RationalModP> balanced_zippel(const BlackBox& box, const field::Zp64& f,
                                          std::uint64_t seed, const ZippelOptions& options);

}  // namespace hepex::reconstruct
