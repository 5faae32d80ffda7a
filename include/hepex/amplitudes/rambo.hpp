#pragma once
// RAMBO phase space on the device (R. Kleiss, W. J. Stirling, S. D. Ellis,
// Comput. Phys. Commun. 40 (1986) 359): the two gluons collide head-on along
// z in their CM frame with energy sqrt_s; the outgoing particles are generated
// massless and isotropic, then rescaled to their masses (the tops) by the
// factor xi of section 4 of the paper, found by Newton's method. The random
// numbers are counter-based (core/random.hpp), so event e is a pure function
// of (seed, e) on every backend.

#include <cstdint>

#include "hepex/amplitudes/momenta.hpp"
#include "hepex/amplitudes/parameters.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/random.hpp"

namespace hepex::amplitudes {

namespace detail {

inline constexpr int max_outgoing = 5;

// Uniform in (0, 1]: 53 random bits.
KOKKOS_INLINE_FUNCTION double unit_interval(std::uint64_t word) {
  return static_cast<double>((word >> 11) + 1) * 0x1.0p-53;
}

template <class MemSpace>
struct RamboKernel {
  MomentaView<MemSpace> p;
  int outgoing;  // particles - 2
  double sqrt_s;
  std::uint64_t seed;
  std::uint64_t first_event;
  double top;  // the top mass [GeV]

  KOKKOS_INLINE_FUNCTION void operator()(int e) const {
    constexpr double two_pi = 6.283185307179586;
    double q[max_outgoing][4];
    double sum[4] = {0, 0, 0, 0};
    for (int i = 0; i < outgoing; ++i) {
      double r[4];
      for (int j = 0; j < 4; ++j) {
        const auto counter =
            ((first_event + static_cast<std::uint64_t>(e)) * max_outgoing + i) * 4 + j;
        r[j] = unit_interval(random::counter_u64(seed, counter));
      }
      const double cos_theta = 2 * r[0] - 1;
      const double sin_theta = compat::sqrt(1 - cos_theta * cos_theta);
      const double phi = two_pi * r[1];
      q[i][0] = -compat::log(r[2] * r[3]);
      q[i][1] = q[i][0] * sin_theta * compat::cos(phi);
      q[i][2] = q[i][0] * sin_theta * compat::sin(phi);
      q[i][3] = q[i][0] * cos_theta;
      for (int mu = 0; mu < 4; ++mu) sum[mu] += q[i][mu];
    }
    // Boost and scale the q's to total momentum (sqrt_s, 0, 0, 0) (eq. 2.4).
    const double mass =
        compat::sqrt(sum[0] * sum[0] - sum[1] * sum[1] - sum[2] * sum[2] - sum[3] * sum[3]);
    const double b[3] = {-sum[1] / mass, -sum[2] / mass, -sum[3] / mass};
    const double gamma = sum[0] / mass, a = 1 / (1 + gamma), x = sqrt_s / mass;
    double k[max_outgoing][4];
    for (int i = 0; i < outgoing; ++i) {
      const double bq = b[0] * q[i][1] + b[1] * q[i][2] + b[2] * q[i][3];
      k[i][0] = x * (gamma * q[i][0] + bq);
      for (int c = 0; c < 3; ++c) k[i][c + 1] = x * (q[i][c + 1] + b[c] * q[i][0] + a * bq * b[c]);
    }
    // Masses (section 4): find xi with sum_i sqrt(m_i^2 + xi^2 E_i^2) = sqrt_s.
    const double m = top;
    const auto mass_of = [m](int i) { return i < 2 ? m : 0.0; };
    double xi = 1;
    for (int iteration = 0; iteration < 50; ++iteration) {
      double f = -sqrt_s, df = 0;
      for (int i = 0; i < outgoing; ++i) {
        const double energy = compat::sqrt(mass_of(i) * mass_of(i) + xi * xi * k[i][0] * k[i][0]);
        f += energy;
        df += xi * k[i][0] * k[i][0] / energy;
      }
      const double step = f / df;
      xi -= step;
      if (compat::fabs(step) <= 1e-15 * xi) break;
    }
    const double half = sqrt_s / 2;
    const double incoming[2][4] = {{half, 0, 0, half}, {half, 0, 0, -half}};
    for (int i = 0; i < 2; ++i)
      for (int mu = 0; mu < 4; ++mu) p(e, i, mu) = incoming[i][mu];
    for (int i = 0; i < outgoing; ++i) {
      p(e, i + 2, 0) = compat::sqrt(mass_of(i) * mass_of(i) + xi * xi * k[i][0] * k[i][0]);
      for (int c = 1; c < 4; ++c) p(e, i + 2, c) = xi * k[i][c];
    }
  }
};

}  // namespace detail

// Fills momenta(event, particle, mu) for all its events (particle order g g t
// tbar g...) with events first_event, first_event + 1, ... of the stream
// `seed`: a run split into batches gives the events of the unsplit run.
// sqrt_s must exceed twice the top mass `mass`.
template <class ExecSpace, class MemSpace>
void rambo(const ExecSpace& space, const MomentaView<MemSpace>& momenta, double sqrt_s,
           std::uint64_t seed, std::uint64_t first_event = 0, double mass = top_mass) {
  const KokkosLock lock;
  const int particles = static_cast<int>(momenta.extent(1));
  if (particles < 4 || particles - 2 > detail::max_outgoing || momenta.extent(2) != 4) {
    throw Error("rambo: momenta must be (events, 4..7 particles, 4)");
  }
  if (!(mass > 0) || !(mass < 1e300)) {
    throw Error("rambo: top mass " + std::to_string(mass) + " GeV must be positive and finite");
  }
  if (!(sqrt_s > 2 * mass) || !(sqrt_s < 1e300)) {
    throw Error("--sqrts " + std::to_string(sqrt_s) + " GeV: must be above the t tbar threshold " +
                std::to_string(2 * mass) + " GeV");
  }
  Kokkos::parallel_for(
      "hepex::rambo", Kokkos::RangePolicy<ExecSpace>(space, 0, momenta.extent(0)),
      detail::RamboKernel<MemSpace>{momenta, particles - 2, sqrt_s, seed, first_event, mass});
}

}  // namespace hepex::amplitudes
