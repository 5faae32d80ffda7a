// `hepex demo`'s amplitudes row (self_check.hpp).
#include "hepex/amplitudes/self_check.hpp"

#include <chrono>
#include <cmath>

#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/amplitudes/rambo.hpp"

namespace hepex::amplitudes {

namespace {

// Event 0 of tests/data/madgraph/gg_ttgg_onshell_ref.txt (sqrt(s) = 1500 GeV)
// and its ME with the top width, from MadGraph's CUDACPP code.
const std::vector<double> reference_momenta = {
    7.50000000000000000e+02,  0.00000000000000000e+00,  0.00000000000000000e+00,
    7.50000000000000000e+02,  7.50000000000000000e+02,  0.00000000000000000e+00,
    0.00000000000000000e+00,  -7.50000000000000000e+02, 5.97431179656940571e+02,
    -2.04212307640805079e+02, -1.61921989052623303e+02, -5.08992747782856952e+02,
    2.16428969084519309e+02,  -1.09839507639534304e+01, 1.25697354283789466e+02,
    3.14964539378384281e+01,  6.04049975839023773e+02,  2.39387515746083068e+02,
    6.39009830249176147e+01,  5.50896228871185031e+02,  8.20898754195162610e+01,
    -2.41912573413246612e+01, -2.76763482560839407e+01, -7.33999350261665171e+01};
constexpr double reference_me = 3.02439718205044660e-05;

}  // namespace

MeSelfCheck me_self_check(std::size_t events, std::uint64_t seed) {
  MeSelfCheck check;
  MatrixElement me(Process::gg_ttgg);
  check.reference_error = std::fabs(me.evaluate(reference_momenta)[0] / reference_me - 1);

  check.events = events;
  MomentaView<MatrixElement::Memory> momenta("hepex::demo_momenta", events, 6, 4);
  rambo(DeviceSpace(), momenta, 1500.0, seed);
  Kokkos::View<double*, MatrixElement::Memory> values("hepex::demo_me", events);
  DeviceSpace().fence();
  const auto start = std::chrono::steady_clock::now();
  me.evaluate(momenta, values);
  check.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int bad = 0;
  Kokkos::parallel_reduce(
      "hepex::demo_me_finite", Kokkos::RangePolicy<DeviceSpace>(0, events),
      KOKKOS_LAMBDA(int e, int& count) { count += (values(e) > 0 && values(e) < 1e300) ? 0 : 1; },
      bad);
  check.passed = check.reference_error < 1e-12 && bad == 0;
  return check;
}

}  // namespace hepex::amplitudes
