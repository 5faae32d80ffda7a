#pragma once
// The external wavefunctions of one event and helicity (HELAS, in the
// particle order g g t tbar g...), as the tests' single-thread calls of the
// reference recursion (colour_ordered_jamps) take them.

#include "hepex/amplitudes/detail/helas.hpp"
#include "hepex/amplitudes/parameters.hpp"
#include "hepex/amplitudes/process.hpp"

namespace hepex::test {

template <int NG>
struct ExternalWaves {
  amplitudes::detail::Wave<double> gluons[NG];  // particles 0, 1, 4, 5, ...
  amplitudes::detail::Wave<double> top, antitop;
};

// p: E px py pz per particle; h: the MadGraph helicity index (0-based).
template <int NG>
ExternalWaves<NG> external_waves(const amplitudes::ProcessInfo& info, const double* p, int h) {
  using namespace amplitudes;
  using namespace amplitudes::detail;
  ExternalWaves<NG> w;
  for (int g = 0; g < NG; ++g) {
    const int particle = g < 2 ? g : g + 2;
    w.gluons[g] = vxxxxx<double>(p + 4 * particle, helicity(info, h, particle), g < 2 ? -1 : 1);
  }
  w.top = oxxxxx(p + 8, top_mass, helicity(info, h, 2), 1);
  w.antitop = ixxxxx(p + 12, top_mass, helicity(info, h, 3), -1);
  return w;
}

}  // namespace hepex::test
