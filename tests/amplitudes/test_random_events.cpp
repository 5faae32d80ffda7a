// RAMBO's distribution and the ME on random events, on every enabled
// execution space (exec_spaces.hpp):
//  - RAMBO's events conserve momentum and are on their mass shells; every
//    outgoing particle's direction is isotropic (cos theta and phi flat: the
//    mass rescaling keeps the massless generation's directions); with
//    (nearly) massless tops the energy fraction x = 2E/sqrt(s) of each of the
//    n outgoing particles follows flat massless phase space,
//    (n-1)(n-2) x (1-x)^(n-3) (n >= 3); each a chi-square test whose bound a
//    correct generator exceeds with probability about 1e-9;
//  - the engine's |M|^2 on RAMBO events at several energies against a slow,
//    independent evaluation: the reference recursion (colour_ordered_jamps,
//    one thread, no kernel) per helicity, the colour matrix's quadratic form
//    in long double, MadGraph's averaging; the slow evaluation itself is
//    first checked against MadGraph's reference events.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <iostream>
#include <string>
#include <vector>

#include "amplitudes/external_waves.hpp"
#include "amplitudes/reference_data.hpp"
#include "exec_spaces.hpp"
#include "hepex/amplitudes/detail/colour_ordered.hpp"
#include "hepex/amplitudes/detail/colour_sum.hpp"
#include "hepex/amplitudes/detail/current_plan.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/amplitudes/rambo.hpp"
#include "test_seed.hpp"

namespace hepex::amplitudes {
// The recursion's internals, whichever namespace holds them.
namespace detail {}  // namespace detail
namespace {

using namespace detail;

// The 1 - 1e-9 quantile of chi-square with k degrees of freedom
// (Wilson-Hilferty, z = 6.0).
double chi_square_bound(int k) {
  const double a = 2.0 / (9.0 * k), z = 6.0;
  return k * std::pow(1 - a + z * std::sqrt(a), 3);
}

// Pearson's X^2 of counts against expected bin probabilities.
double chi_square(const std::vector<double>& counts, const std::vector<double>& probability,
                  double total) {
  double x2 = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    const double expected = probability[b] * total;
    x2 += (counts[b] - expected) * (counts[b] - expected) / expected;
  }
  return x2;
}

// RAMBO's events of one process on Space, copied to the host (event-major).
template <class Space>
std::vector<double> rambo_events(const ProcessInfo& info, std::size_t events, double sqrt_s,
                                 std::uint64_t seed, double mass) {
  using Memory = typename Space::memory_space;
  MomentaView<Memory> p("test_rambo", events, info.particles, 4);
  rambo(Space(), p, sqrt_s, seed, 0, mass);
  Space().fence();
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p);
  std::vector<double> flat;
  flat.reserve(events * info.particles * 4);
  for (std::size_t e = 0; e < events; ++e)
    for (int i = 0; i < info.particles; ++i)
      for (int mu = 0; mu < 4; ++mu) flat.push_back(host(e, i, mu));
  return flat;
}

template <class Space>
class RamboOnSpace : public ::testing::Test {};
TYPED_TEST_SUITE(RamboOnSpace, test::EnabledSpaces, test::SpaceNames);

TYPED_TEST(RamboOnSpace, ConservesMomentumOnShellAndIsotropic) {
  using Space = TypeParam;
  SCOPED_TRACE(test::seed_trace());
  const std::size_t events = HEPEX_SANITIZED_TESTS ? 4000 : 20000;
  constexpr int bins = 20;
  // The gluon processes: the others have the same particle counts and masses.
  for (const Process process : test::family_processes("top_line_gluons")) {
    const auto& info = process_info(process);
    const double sqrt_s = 1000;
    const auto p = rambo_events<Space>(info, events, sqrt_s, test::seed(), top_mass);
    const int outgoing = info.particles - 2;
    std::vector<std::vector<double>> cos_counts(outgoing, std::vector<double>(bins)),
        phi_counts(outgoing, std::vector<double>(bins));
    double worst_sum = 0, worst_shell = 0;
    for (std::size_t e = 0; e < events; ++e) {
      const double* q = &p[e * info.particles * 4];
      double sum[4] = {};
      for (int i = 2; i < info.particles; ++i) {
        const double* k = q + 4 * i;
        for (int mu = 0; mu < 4; ++mu) sum[mu] += k[mu];
        const double m = i < 4 ? top_mass : 0;
        const double p2 = k[0] * k[0] - k[1] * k[1] - k[2] * k[2] - k[3] * k[3];
        worst_shell = std::max(worst_shell, std::fabs(p2 - m * m) / (k[0] * k[0]));
        const double length = std::sqrt(k[1] * k[1] + k[2] * k[2] + k[3] * k[3]);
        const double cos_theta = k[3] / length;
        const double phi = std::atan2(k[2], k[1]) + M_PI;  // [0, 2 pi]
        cos_counts[i - 2][std::min(bins - 1, int((cos_theta + 1) / 2 * bins))] += 1;
        phi_counts[i - 2][std::min(bins - 1, int(phi / (2 * M_PI) * bins))] += 1;
      }
      worst_sum =
          std::max({worst_sum, std::fabs(sum[0] - sqrt_s) / sqrt_s, std::fabs(sum[1]) / sqrt_s,
                    std::fabs(sum[2]) / sqrt_s, std::fabs(sum[3]) / sqrt_s});
      // The incoming gluons: head-on along z with sqrt_s / 2 each.
      ASSERT_EQ(q[0], sqrt_s / 2);
      ASSERT_EQ(q[3], sqrt_s / 2);
      ASSERT_EQ(q[7], -sqrt_s / 2);
    }
    // Measured worst (Serial, 20000 events, six seeds): 1.6e-10 and 3.4e-10
    // (events whose massless system is strongly boosted lose digits).
    EXPECT_LT(worst_sum, 2e-9) << info.name;
    EXPECT_LT(worst_shell, 2e-9) << info.name;
    const std::vector<double> flat(bins, 1.0 / bins);
    for (int i = 0; i < outgoing; ++i) {
      const double x2_cos = chi_square(cos_counts[i], flat, double(events));
      const double x2_phi = chi_square(phi_counts[i], flat, double(events));
      EXPECT_LT(x2_cos, chi_square_bound(bins - 1))
          << info.name << " particle " << i + 3 << ": cos theta not flat";
      EXPECT_LT(x2_phi, chi_square_bound(bins - 1))
          << info.name << " particle " << i + 3 << ": phi not flat";
      std::cout << "[ " << info.name << " on " << Space::name() << " ] particle " << i + 3
                << ": X^2 cos theta " << x2_cos << ", phi " << x2_phi << " (19 dof, bound "
                << chi_square_bound(bins - 1) << ")\n";
    }
  }
}

// With tops of 1e-3 GeV at sqrt(s) = 1 TeV, RAMBO's events are massless flat
// phase space to 1e-12: x = 2E/sqrt(s) of each particle has the survival
// function S(x) = (n-1)(1-x)^(n-2) - (n-2)(1-x)^(n-1) for n outgoing.
TYPED_TEST(RamboOnSpace, MasslessEnergiesFollowFlatPhaseSpace) {
  using Space = TypeParam;
  SCOPED_TRACE(test::seed_trace());
  const std::size_t events = HEPEX_SANITIZED_TESTS ? 4000 : 20000;
  constexpr int bins = 20;
  for (const Process process : {Process::gg_ttg, Process::gg_ttgg, Process::gg_ttggg}) {
    const auto& info = process_info(process);
    const int n = info.particles - 2;
    const auto p = rambo_events<Space>(info, events, 1000.0, test::seed() + 1, 1e-3);
    const auto survival = [n](double x) {
      return (n - 1) * std::pow(1 - x, n - 2) - (n - 2) * std::pow(1 - x, n - 1);
    };
    std::vector<double> probability(bins);
    for (int b = 0; b < bins; ++b)
      probability[b] = survival(double(b) / bins) - survival(double(b + 1) / bins);
    for (int i = 2; i < info.particles; ++i) {
      std::vector<double> counts(bins);
      for (std::size_t e = 0; e < events; ++e) {
        const double x = 2 * p[(e * info.particles + i) * 4] / 1000.0;
        ASSERT_LE(x, 1 + 1e-12);
        counts[std::min(bins - 1, int(x * bins))] += 1;
      }
      const double x2 = chi_square(counts, probability, double(events));
      EXPECT_LT(x2, chi_square_bound(bins - 1))
          << info.name << " particle " << i + 1 << ": energy fraction not flat phase space's";
      std::cout << "[ " << info.name << " on " << Space::name() << " ] particle " << i + 1
                << ": X^2 of x = 2E/sqrt(s) " << x2 << " (19 dof)\n";
    }
  }
}

// |M|^2 of one event by the reference recursion: sum over helicities of
// conj(J) CF J / denominator (long double), averaged over the incoming
// gluons' helicities and colours (1/4 * 1/64) and divided by the identical
// outgoing gluons' (NG - 2)!.
template <int NG>
double slow_me(const ProcessInfo& info, Process process, const double* p) {
  const auto plan = make_current_plan<Kokkos::HostSpace>(NG);
  const ColourMatrix m = colour_matrix(process);
  const int n = m.colours;
  long double sum = 0;
  std::vector<cplx<double>> jamps(n);
  for (int h = 0; h < info.helicity_combinations; ++h) {
    const auto w = test::external_waves<NG>(info, p, h);
    colour_ordered_jamps<NG>(plan, w.gluons, w.top, w.antitop, TopQuark{}, jamps.data());
    for (int i = 0; i < n; ++i) {
      const std::complex<long double> a(jamps[i].real(), jamps[i].imag());
      for (int k = 0; k < n; ++k) {
        const std::complex<long double> b(jamps[k].real(), jamps[k].imag());
        sum += (std::conj(a) * static_cast<long double>(m.cf[i * n + k]) * b).real();
      }
    }
  }
  long double identical = 1;
  for (int g = 2; g <= NG - 2; ++g) identical *= g;
  return static_cast<double>(sum / m.denominator / 256 / identical);
}

double slow_me(Process process, const double* p) {
  const auto& info = process_info(process);
  switch (process) {
    case Process::gg_tt: return slow_me<2>(info, process, p);
    case Process::gg_ttg: return slow_me<3>(info, process, p);
    case Process::gg_ttgg: return slow_me<4>(info, process, p);
    default: return slow_me<5>(info, process, p);
  }
}

class MatrixElementOnSpace : public test::OnSpace {};

// The slow evaluation against MadGraph's reference events: within 1e-10
// (MadGraph's own values are off by up to 1e-11 on its gg_ttggg events). The
// engine against the slow evaluation on RAMBO events: within 2e-12 (measured
// worst 2.3e-13 over seeds 0-9; printed): the two differ in the order of
// operations only.
TEST_P(MatrixElementOnSpace, RandomEventsAtSeveralEnergiesMatchTheSlowEvaluation) {
  SCOPED_TRACE(test::seed_trace());
  for (const Process process : test::family_processes("top_line_gluons")) {
    const auto& info = process_info(process);
    const std::size_t per_energy = process == Process::gg_ttggg  ? 2
                                   : process == Process::gg_ttgg ? 6
                                                                 : 24;
    // The slow evaluation reproduces MadGraph on its reference events.
    const auto ref = test::read_reference(info, true, process == Process::gg_ttggg ? 2 : 6);
    for (std::size_t e = 0; e < ref.size(); ++e) {
      const double slow = slow_me(process, &ref.momenta[e * 4 * info.particles]);
      EXPECT_NEAR(slow / ref.me[e], 1.0, 1e-10) << info.name << " reference event " << e;
    }
    MatrixElement me(process);
    double worst = 0;
    std::uint64_t stream = test::seed();
    for (const double sqrt_s : {360.0, 500.0, 1500.0, 7000.0}) {
      const auto p = test::with_space(GetParam().backend, [&](auto space) {
        return rambo_events<decltype(space)>(info, per_energy, sqrt_s, stream++, top_mass);
      });
      const auto got = me.evaluate(p, MomentumCheck::off_shell_allowed);
      ASSERT_EQ(got.size(), per_energy);
      for (std::size_t e = 0; e < per_energy; ++e) {
        const double slow = slow_me(process, &p[e * 4 * info.particles]);
        const double error = std::fabs(got[e] / slow - 1);
        worst = std::max(worst, error);
        EXPECT_LT(error, 2e-12) << info.name << " at sqrt(s) = " << sqrt_s << " GeV, event " << e
                                << ": " << got[e] << " vs " << slow;
      }
    }
    std::cout << "[ " << info.name << " " << where() << " ] RAMBO events at 360..7000 GeV vs "
              << "the slow evaluation: max relative error " << worst << '\n';
  }
}

HEPEX_TEST_ON_SPACES(MatrixElementOnSpace);

}  // namespace
}  // namespace hepex::amplitudes
