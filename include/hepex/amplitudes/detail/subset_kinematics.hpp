#pragma once
// The recursion's kinematics (colour_ordered.hpp, MomentaInDoubles) as a
// table made once per pack of events, for the host kernel: every helicity
// unit reads the same momenta, propagators and top-line virtualities, and
// forming them per unit cost a double division per gluon current and double
// momenta converted in every vertex. The squares are formed in double, as
// MomentaInDoubles does (see Wave); the table keeps the results in T, so a
// float pack's vertices run on float lanes only (gg_ttgg float with 16
// lanes: momenta in double had made it no faster than double).

#include <cstddef>

#include "hepex/amplitudes/detail/colour_ordered.hpp"

namespace hepex::amplitudes::detail {

template <class T>
struct SubsetKinematics {
  using Momentum = T;
  // Per gluon subset m: k[4], 1/k^2, the top line's k[4] and k^2 - M^2.
  static constexpr int per_subset = 10;
  T* table;  // [per_subset * m + ...]

  // The table for all subsets of NG gluons from the events' double momenta:
  // gluon_k(g, mu) the outgoing momentum of gluon g, antitop_k the outgoing
  // antitop's, `mass` the top's (subset 0, the empty one, is not used).
  template <int NG, class GluonMomentum, class D>
  void fill(const GluonMomentum& gluon_k, const D* antitop_k, double mass) const {
    for (int m = 1; m < (1 << NG); ++m) {
      D k[4], line[4];
      subset_momentum<NG>(m, gluon_k, k);
      for (int mu = 0; mu < 4; ++mu) line[mu] = k[mu] + antitop_k[mu];
      T* row = table + per_subset * m;
      for (int mu = 0; mu < 4; ++mu) {
        row[mu] = T(k[mu]);
        row[5 + mu] = T(line[mu]);
      }
      row[4] = T(D(1) / square(k));
      row[9] = T(square(line) - D(mass * mass));
    }
  }

  HEPEX_FORCEINLINE_FUNCTION Momentum k(int m, int mu) const { return table[per_subset * m + mu]; }
  HEPEX_FORCEINLINE_FUNCTION T gluon_propagator(int m) const { return table[per_subset * m + 4]; }
  HEPEX_FORCEINLINE_FUNCTION FermionLine<T, Momentum> fermion_line(int m) const {
    const T* row = table + per_subset * m;
    return {{row[5], row[6], row[7], row[8]}, row[9]};
  }
};

}  // namespace hepex::amplitudes::detail
