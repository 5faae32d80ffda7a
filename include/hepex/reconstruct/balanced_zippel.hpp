#pragma once
// Rational functions mod p from a black box: the balanced Zippel method
// (Smirnov-Zeng, Numer. Methods Program. 25 (2024) 30, seed paper ref. [26];
// the scaling idea of Cuyt-Lee, Theor. Comput. Sci. 412 (2011) 1445, as used
// in FireFly, Klappert-Lange, Comput. Phys. Commun. 247 (2020) 106951).
//
// With f = N/D, substitute x = t*(1, z_1, .., z_{n-1}) + s for a random shift
// s (s = 0 when f is regular at the origin, i.e. D(0) != 0). As a function of
// t alone, f = n(t)/d(t) with d(0) = D(s) independent of z; Thiele in t
// (univariate.hpp) gives n, d, normalised by d(0) = 1. Then the coefficient of
// t^r in n is a polynomial in z: the degree-r homogeneous part N_r of N
// (dehomogenised by x_0 = 1) divided by D(s), plus, when s != 0, the shift's
// contributions of the parts of higher degree. Reconstructing the parts from
// the highest degree down, those contributions are known and subtracted, so
// each part is a sparse polynomial reconstructed by Zippel (zippel.hpp) in
// n-1 variables; numerator and denominator parts of the same degree, of all
// functions, go through Zippel together. The first probe in t fixes the
// degrees; when every denominator is constant, plain Zippel in x is used.

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
