#pragma once
// HELAS-style external wavefunctions and vertex functions over a real type T:
// double or float (one event per GPU thread) or a pack of events in SIMD
// lanes (the host kernel), callable in kernels; branches are per-lane
// selects (detail/arithmetic.hpp).
//
// Conventions (they fix the numbers to 1e-12 against MadGraph, see README of
// the reference data): HELAS, H. Murayama, I. Watanabe, K. Hagiwara,
// KEK-Report 91-11 (1992), and its ALOHA generalisation, P. de Aquino et al.,
// Comput. Phys. Commun. 183 (2012) 2254, in the form used by MadGraph's CUDACPP
// plugin. In particular:
//  - Dirac matrices in the chiral basis, gamma^0 = [[0,1],[1,0]],
//    gamma^k = [[0,sigma^k],[-sigma^k,0]], so that for a four-vector V
//    gamma.V = [[0, V0 - sigma.V], [V0 + sigma.V, 0]] (2x2 blocks).
//  - metric (+,-,-,-).
//  - a Wave carries its four components and the momentum k flowing OUT of the
//    amplitude through that line (the sum of the outgoing momenta of the
//    external particles it contains; an incoming particle contributes -p).
//    ALOHA's off-shell momentum is P = -k.
//  - a "column" spinor is a psi-type object (ixxxxx, FFV1_2 output), a "row"
//    spinor a psibar-type object (oxxxxx, or ALOHA's FFV1_1 output), used without a
//    further gamma^0.

#include "hepex/amplitudes/detail/arithmetic.hpp"
#include "hepex/amplitudes/parameters.hpp"

namespace hepex::amplitudes::detail {

template <class T>
using cplx = Complex<T>;

// The momentum of an external line is kept in double whatever T: propagator
// denominators like (p3 + k)^2 - m^2 or (k1 + k2)^2 cancel badly near
// collinear or soft configurations, and in float that alone costs 1e-3 of
// the ME. Where the squares are formed elsewhere in double, the vertices may
// take the momenta in T (K = T: the host kernel's SubsetKinematics).
template <class T, class K = Doubles<T>>
struct Wave {
  cplx<T> c[4];  // spinor (chiral basis) or Lorentz-vector components
  K k[4];        // outgoing momentum (E, px, py, pz)
};

// (V0 + s sigma.V) (a, b)^T for s = +1 or -1, V a complex or real four-vector.
template <class T, class V>
HEPEX_FORCEINLINE_FUNCTION void sigma_times(const V* v, T s, const cplx<T>& a, const cplx<T>& b,
                                            cplx<T>& ra, cplx<T>& rb) {
  const cplx<T> i(0, 1);
  const cplx<T> v0(v[0]), v1(v[1]), v2(v[2]), v3(v[3]);
  ra = (v0 + s * v3) * a + s * (v1 - i * v2) * b;
  rb = s * (v1 + i * v2) * a + (v0 - s * v3) * b;
}

// The row two-spinor (a, b) times (V0 + s sigma.V).
template <class T, class V>
HEPEX_FORCEINLINE_FUNCTION void times_sigma(const V* v, T s, const cplx<T>& a, const cplx<T>& b,
                                            cplx<T>& ra, cplx<T>& rb) {
  const cplx<T> i(0, 1);
  const cplx<T> v0(v[0]), v1(v[1]), v2(v[2]), v3(v[3]);
  ra = a * (v0 + s * v3) + b * s * (v1 + i * v2);
  rb = a * s * (v1 - i * v2) + b * (v0 - s * v3);
}

// Minkowski product of two four-vectors (complex or real components).
template <class T, class A, class B>
HEPEX_FORCEINLINE_FUNCTION cplx<T> dot(const A* a, const B* b) {
  return cplx<T>(a[0]) * b[0] - cplx<T>(a[1]) * b[1] - cplx<T>(a[2]) * b[2] - cplx<T>(a[3]) * b[3];
}

template <class T>
HEPEX_FORCEINLINE_FUNCTION T square(const T* k) {
  return k[0] * k[0] - k[1] * k[1] - k[2] * k[2] - k[3] * k[3];
}

// ---------------------------------------------------------------- external lines

// Polarisation vector of a massless vector boson (HELAS vxxxxx, vmass = 0):
// helicity nhel = -1 or +1, nsv = -1 incoming, +1 outgoing (the latter is the
// complex conjugate). Transverse in the frame of p (eps^0 = 0), so the
// radiation gauge of that frame: the top width breaks gauge invariance and
// makes the width-ful ME depend on this choice at the 1e-6 level.
template <class T>
KOKKOS_INLINE_FUNCTION Wave<T> vxxxxx(const Doubles<T>* pd, int nhel, int nsv) {
  Wave<T> w;
  const T p[4] = {T(pd[0]), T(pd[1]), T(pd[2]), T(pd[3])};
  for (int mu = 0; mu < 4; ++mu) w.k[mu] = Doubles<T>(nsv) * pd[mu];
  const T sqh = lane_sqrt(T(0.5));
  const T hel = T(nhel), sv = T(nsv);
  const T pt = lane_sqrt(p[1] * p[1] + p[2] * p[2]);
  w.c[0] = cplx<T>(T(0));
  w.c[3] = cplx<T>(hel * pt / p[0] * sqh);
  // Along the z axis (pt = 0) the other form; its division by zero is not selected.
  const auto transverse = pt != T(0);
  const T safe_pt = select(transverse, pt, T(1));
  const T pzpt = p[3] / (p[0] * safe_pt) * sqh * hel;
  w.c[1] = select(transverse, cplx<T>(-p[1] * pzpt, -sv * p[2] / safe_pt * sqh),
                  cplx<T>(-hel * sqh, T(0)));
  w.c[2] = select(transverse, cplx<T>(-p[2] * pzpt, sv * p[1] / safe_pt * sqh),
                  cplx<T>(T(0), sv * select(p[3] < T(0), -sqh, sqh)));
  return w;
}

// Helicity eigenstates of a massive fermion (HELAS ixxxxx / oxxxxx, m != 0):
// with |p| = pp, omega_pm = sqrt(E +- pp) and chi_h the two-component helicity
// eigenstates along p,  u(p, h) = (omega_-h chi_h, omega_h chi_h) and
// v(p, h) = (-h omega_h chi_-h, h omega_-h chi_-h) up to HELAS's phases. pp is
// min(E, |p|), so the massless-momentum test dumps give HELAS's numbers.

template <class T>
KOKKOS_INLINE_FUNCTION T nonnegative(T x) {
  return lane_max(x, T(0));
}

template <class T>
struct SpinorPieces {
  T pp;          // min(E, |p|)
  T sfomega0;    // sf[0] * omega[ip]
  T sfomega1;    // sf[1] * omega[im]
  T chi0;        // sqrt((pp + pz) / (2 pp))
  T sqm0, sqm1;  // sqrt(|m|), sign(m) sqrt(|m|): the pp == 0 case
  int ip, im;
};

// The pieces for pp != 0; where pp == 0 (a fermion at rest) ixxxxx and
// oxxxxx select the sqm forms instead.
template <class T>
KOKKOS_INLINE_FUNCTION SpinorPieces<T> spinor_pieces(const T* p, T mass, int nh, int nsf) {
  SpinorPieces<T> s;
  const T modulus = lane_sqrt(p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
  s.pp = lane_min(p[0], modulus);
  s.ip = (1 + nh) / 2;
  s.im = (1 - nh) / 2;
  const auto negative_mass = mass < T(0);
  s.sqm0 = lane_sqrt(select(negative_mass, -mass, mass));
  s.sqm1 = select(negative_mass, -s.sqm0, s.sqm0);
  const T safe_pp = select(s.pp != T(0), s.pp, T(1));
  const T sf0 = T(1 + nsf + (1 - nsf) * nh) * T(0.5);
  const T sf1 = T(1 + nsf - (1 - nsf) * nh) * T(0.5);
  const T omega[2] = {lane_sqrt(p[0] + s.pp), mass / lane_sqrt(p[0] + s.pp)};
  s.sfomega0 = sf0 * omega[s.ip];
  s.sfomega1 = sf1 * omega[s.im];
  s.chi0 = lane_sqrt(nonnegative(s.pp + p[3]) * T(0.5) / safe_pp);
  return s;
}

// The second component of the helicity eigenstate: (nh px + i sign py) / norm.
template <class T>
KOKKOS_INLINE_FUNCTION cplx<T> chi1(const T* p, T pp, int nh, T sign_py) {
  const T pp3 = nonnegative(pp + p[3]);
  const auto backward = pp3 == T(0);  // p along -z: the limit, not 0/0
  const T norm = lane_sqrt(T(2) * pp * select(backward, T(1), pp3));
  return select(backward, cplx<T>(T(-nh), T(0)), cplx<T>(T(nh) * p[1], sign_py * p[2]) / norm);
}

// Column spinor of a massive fermion line entering the diagram's fermion flow:
// u(p) for an incoming particle (nsf = +1), v(p) for an outgoing antiparticle
// (nsf = -1). HELAS ixxxxx.
template <class T>
KOKKOS_INLINE_FUNCTION Wave<T> ixxxxx(const Doubles<T>* pd, T mass, int nhel, int nsf) {
  Wave<T> w;
  const T p[4] = {T(pd[0]), T(pd[1]), T(pd[2]), T(pd[3])};
  for (int mu = 0; mu < 4; ++mu) w.k[mu] = Doubles<T>(-nsf) * pd[mu];
  const int nh = nhel * nsf;
  const auto s = detail::spinor_pieces(p, mass, nh, nsf);
  const auto at_rest = s.pp == T(0);
  const T sqm[2] = {s.sqm0, s.sqm1};
  const cplx<T> chi[2] = {cplx<T>(s.chi0), detail::chi1(p, s.pp, nh, T(1))};
  w.c[0] = select(at_rest, cplx<T>(T(s.ip) * sqm[s.ip]), s.sfomega0 * chi[s.im]);
  w.c[1] = select(at_rest, cplx<T>(T(s.im * nsf) * sqm[s.ip]), s.sfomega0 * chi[s.ip]);
  w.c[2] = select(at_rest, cplx<T>(T(s.ip * nsf) * sqm[s.im]), s.sfomega1 * chi[s.im]);
  w.c[3] = select(at_rest, cplx<T>(T(s.im) * sqm[s.im]), s.sfomega1 * chi[s.ip]);
  return w;
}

// Row spinor of a massive fermion line leaving the diagram's fermion flow:
// ubar(p) for an outgoing particle (nsf = +1), vbar(p) for an incoming
// antiparticle (nsf = -1). HELAS oxxxxx.
template <class T>
KOKKOS_INLINE_FUNCTION Wave<T> oxxxxx(const Doubles<T>* pd, T mass, int nhel, int nsf) {
  Wave<T> w;
  const T p[4] = {T(pd[0]), T(pd[1]), T(pd[2]), T(pd[3])};
  for (int mu = 0; mu < 4; ++mu) w.k[mu] = Doubles<T>(nsf) * pd[mu];
  const int nh = nhel * nsf;
  const auto s = detail::spinor_pieces(p, mass, nh, nsf);
  const auto at_rest = s.pp == T(0);
  const T sqm[2] = {s.sqm0, s.sqm1};
  const int ip = -((1 - nh) / 2) * nhel;
  const int im = (1 + nh) / 2 * nhel;
  const int aip = ip < 0 ? -ip : ip, aim = im < 0 ? -im : im;
  const cplx<T> chi[2] = {cplx<T>(s.chi0), detail::chi1(p, s.pp, nh, T(-1))};
  w.c[0] = select(at_rest, cplx<T>(T(im) * sqm[aip]), s.sfomega1 * chi[s.im]);
  w.c[1] = select(at_rest, cplx<T>(T(ip * nsf) * sqm[aip]), s.sfomega1 * chi[s.ip]);
  w.c[2] = select(at_rest, cplx<T>(T(im * nsf) * sqm[aim]), s.sfomega0 * chi[s.im]);
  w.c[3] = select(at_rest, cplx<T>(T(ip) * sqm[aim]), s.sfomega0 * chi[s.ip]);
  return w;
}

// ---------------------------------------------------------------- vertices
//
// The ALOHA routines of the sm model factor into a vertex "numerator" (below)
// and a propagator factor applied once per off-shell current, so that the sum
// of all vertices feeding one current (Berends-Giele) pays one propagator:
//   FFV1_0(F1, F2, V3, C)  = -i C  F2 gamma.V3 F1                = -i C ffv_sandwich
//   FFV1_2(F1, V3, C, M, W) = i C (Pslash + M) gamma.V3 F1 / (P^2 - M^2 + i M W)
//   VVV1P0_1(V2, V3, C)    = i C vvv_numerator(V2, V3) / P^2
// with P = -k the ALOHA momentum of the off-shell leg. The recursion closes
// every amplitude with FFV1_0 and needs neither VVV1_0 nor FFV1_1/FFV1P0_3;
// MadGraph's three four-gluon structures VVVV1/3/4 enter only through their
// colour-ordered combination, add_vvvv_numerator.

// F2 gamma.V F1 for a row spinor F2 and a column spinor F1.
template <class T>
HEPEX_FORCEINLINE_FUNCTION cplx<T> ffv_sandwich(const cplx<T>* f1, const cplx<T>* f2,
                                                const cplx<T>* v) {
  cplx<T> a0, a1, b0, b1;
  // gamma.V F1 = ((V0 - sigma.V) F1_lower, (V0 + sigma.V) F1_upper)
  detail::sigma_times(v, T(-1), f1[2], f1[3], a0, a1);
  detail::sigma_times(v, T(1), f1[0], f1[1], b0, b1);
  return f2[0] * a0 + f2[1] * a1 + f2[2] * b0 + f2[3] * b1;
}

// Accumulates gamma.V F1 into out (column spinor).
template <class T>
HEPEX_FORCEINLINE_FUNCTION void add_gamma_times(const cplx<T>* v, const cplx<T>* f1, cplx<T>* out) {
  cplx<T> a0, a1, b0, b1;
  detail::sigma_times(v, T(-1), f1[2], f1[3], a0, a1);
  detail::sigma_times(v, T(1), f1[0], f1[1], b0, b1);
  out[0] += a0;
  out[1] += a1;
  out[2] += b0;
  out[3] += b1;
}

// An off-shell top line: its outgoing momentum k and k^2 - M^2, formed in
// double (see Wave).
template <class T, class K>
struct FermionLine {
  K k[4];
  T virtuality;  // k^2 - M^2
};

// The top's mass M and M * W (width W) in the amplitude's type, as every top
// propagator takes them: formed once per evaluation (the product in double,
// then converted, as with a fixed mass), so that a kernel reads them as
// constants rather than converting them in registers.
template <class T>
struct TopTerms {
  T mass;
  T mass_width;
};
template <class T>
KOKKOS_INLINE_FUNCTION TopTerms<T> top_terms(const TopQuark& top) {
  return {T(top.mass), T(top.mass * top.width)};
}

// The fermion propagator applied to a column spinor: returns
// i C (Pslash + M) x / (P^2 - M^2 + i M W) with P = -k (FFV1_2's factor).
template <class T, class K>
KOKKOS_INLINE_FUNCTION void fermion_propagator(const FermionLine<T, K>& line,
                                               const TopTerms<T>& top, cplx<T> coupling,
                                               const cplx<T>* x, cplx<T>* out) {
  const T p[4] = {T(-line.k[0]), T(-line.k[1]), T(-line.k[2]), T(-line.k[3])};
  const cplx<T> denominator(line.virtuality, top.mass_width);
  const cplx<T> factor = cplx<T>(0, 1) * coupling / denominator;
  cplx<T> u0, u1, l0, l1;
  // (Pslash + M) = [[M, P0 - sigma.P], [P0 + sigma.P, M]]
  detail::sigma_times(p, T(-1), x[2], x[3], u0, u1);
  detail::sigma_times(p, T(1), x[0], x[1], l0, l1);
  const T m = top.mass;
  out[0] = factor * (m * x[0] + u0);
  out[1] = factor * (m * x[1] + u1);
  out[2] = factor * (l0 + m * x[2]);
  out[3] = factor * (l1 + m * x[3]);
}

// VVV1 off-shell numerator for leg 1 from legs 2 and 3 (momenta k2, k3
// outgoing; ALOHA's P1 = -(k2 + k3), P2 = k2, P3 = k3):
//   (V2.V3)(P3 - P2) + V2 (V3.P2 - V3.P1) + V3 (V2.P1 - V2.P3).
// Antisymmetric under exchange of the two legs (with their momenta).
// The coupling is left to the caller (one real factor per current, see
// gluon_current); inlined, so that the waves are never copied.
template <class T, class K>
HEPEX_FORCEINLINE_FUNCTION void add_vvv_numerator(const Wave<T, K>& v2, const Wave<T, K>& v3,
                                                  cplx<T>* out) {
  T k2[4], k3[4], p1[4];
  for (int mu = 0; mu < 4; ++mu) {
    k2[mu] = T(v2.k[mu]);
    k3[mu] = T(v3.k[mu]);
    p1[mu] = T(-(v2.k[mu] + v3.k[mu]));
  }
  const cplx<T> v23 = dot<T>(v2.c, v3.c);
  const cplx<T> a = dot<T>(v3.c, k2) - dot<T>(v3.c, p1);
  const cplx<T> b = dot<T>(v2.c, p1) - dot<T>(v2.c, k3);
  for (int mu = 0; mu < 4; ++mu) {
    out[mu] += v23 * (k3[mu] - k2[mu]) + v2.c[mu] * a + v3.c[mu] * b;
  }
}

// Colour-ordered four-gluon numerator for gluons (A, B, C) in this order:
//   2 V_B (V_A.V_C) - V_C (V_A.V_B) - V_A (V_B.V_C).
// It is the coefficient of T^A T^B T^C in MadGraph's three VVVV1/3/4 terms
// with their f f colour factors (see colour_ordered.hpp for the derivation).
// It needs no momenta: the three gluons' polarisation vectors a, b, c; the
// coupling is left to the caller, as for add_vvv_numerator.
template <class T>
HEPEX_FORCEINLINE_FUNCTION void add_vvvv_numerator(const cplx<T>* a, const cplx<T>* b,
                                                   const cplx<T>* c, cplx<T>* out) {
  const cplx<T> ac = dot<T>(a, c), ab = dot<T>(a, b), bc = dot<T>(b, c);
  for (int mu = 0; mu < 4; ++mu) {
    out[mu] += T(2) * b[mu] * ac - c[mu] * ab - a[mu] * bc;
  }
}

}  // namespace hepex::amplitudes::detail
