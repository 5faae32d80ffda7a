#pragma once
// Standard Model parameters of the LO QCD processes g g -> t tbar + n g, as in
// MadGraph5_aMC@NLO's "sm" model with the param_card of the reference data
// (tests/data/madgraph/README.md): fixed strong coupling, no running.

#include <cmath>

namespace hepex::amplitudes {

// Top mass and width [GeV] of the reference data (the defaults of a run; a
// param_card.dat may set others, param_card.hpp); the width enters every top
// propagator (s- and t-channel alike, as in the CUDACPP reference).
inline constexpr double top_mass = 173.0;
inline constexpr double top_width = 1.4915;

// The top quark as the kernels take it [GeV].
struct TopQuark {
  double mass = top_mass;
  double width = top_width;
};

// G = sqrt(4 pi alpha_s) with alpha_s = 0.118: the kernels' coupling. Every
// tree amplitude of g g -> t tbar + n g is of order G^(n + 2) (one power per
// gluon: a qqg vertex is G, a four-gluon vertex G^2 joins two gluons), so
// |M|^2 at another coupling gs is |M|^2 (gs / G)^(2 (n + 2)), applied to each
// event's sum at the end (matrix_element.hpp); a run at another alpha_s
// (param_card.hpp) scales by (alpha_s / reference_alpha_s)^(n + 2).
inline constexpr double reference_alpha_s = 0.118;
inline constexpr double strong_coupling = 1.2177157847767195;

// The UFO couplings of the sm model, as complex numbers (re, im):
//   GC_10 = -G   (three-gluon vertex, Lorentz VVV1, colour f^{abc})
//   GC_11 = i G  (top-gluon vertex, Lorentz gamma^mu, colour T^a)
//   GC_12 = i G^2 (four-gluon vertex, colour f f)
// They are used through the ALOHA conventions spelled out in detail/helas.hpp.
inline constexpr double gc10_re = -strong_coupling;
inline constexpr double gc11_im = strong_coupling;
inline constexpr double gc12_im = strong_coupling * strong_coupling;

}  // namespace hepex::amplitudes
