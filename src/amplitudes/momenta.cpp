// Validation of momenta batches (rule 5 of docs/architecture.md: before device work).
#include "hepex/amplitudes/momenta.hpp"

#include <cmath>
#include <string>

#include "hepex/core/error.hpp"

namespace hepex::amplitudes {
namespace {

// MadGraph's name of a leg from its PDG code: g, d u s c b t and d~ ... t~.
std::string leg_name(int pdg) {
  if (pdg == 21) return "g";
  static const char* const quarks[] = {"d", "u", "s", "c", "b", "t"};
  const int code = pdg < 0 ? -pdg : pdg;
  if (code < 1 || code > 6) return "pdg " + std::to_string(pdg);
  return std::string(quarks[code - 1]) + (pdg < 0 ? "~" : "");
}

}  // namespace

void check_momenta(const ProcessInfo& process, const double* momenta, std::size_t values,
                   MomentumCheck check, const MomentumTolerance& tolerance, double mass) {
  const std::size_t per_event = 4 * static_cast<std::size_t>(process.particles);
  if (values == 0 || values % per_event != 0) {
    throw Error(std::string(process.name) + ": " + std::to_string(values) +
                " momentum components is not a positive multiple of 4 x " +
                std::to_string(process.particles) + " particles (E px py pz each)");
  }
  for (std::size_t e = 0; e < values / per_event; ++e) {
    const double* p = momenta + e * per_event;
    const auto fail = [&](int i, const std::string& what) {
      throw MomentumError(
          e, "particle " + std::to_string(i + 1) + " (" + leg_name(process.pdg[i]) + "): " + what);
    };
    double balance[4] = {0, 0, 0, 0};
    for (int i = 0; i < process.particles; ++i) {
      const double* q = p + 4 * i;
      for (int mu = 0; mu < 4; ++mu) {
        if (!std::isfinite(q[mu])) fail(i, "momentum component is not finite");
        balance[mu] += i < 2 ? q[mu] : -q[mu];
      }
      if (!(q[0] > 0)) fail(i, "energy " + std::to_string(q[0]) + " is not positive");
      if (check == MomentumCheck::on_shell) {
        // The top pair at the run's mass; every other leg here is massless.
        const double m = (process.pdg[i] == 6 || process.pdg[i] == -6) ? mass : 0.0;
        const double p2 = q[0] * q[0] - q[1] * q[1] - q[2] * q[2] - q[3] * q[3];
        if (std::fabs(p2 - m * m) > tolerance.on_shell * q[0] * q[0]) {
          fail(i, "off shell, p^2 = " + std::to_string(p2) +
                      " GeV^2 but m^2 = " + std::to_string(m * m) + " GeV^2");
        }
      }
    }
    const double scale = p[0] + p[4];
    for (int mu = 0; mu < 4; ++mu) {
      if (std::fabs(balance[mu]) > tolerance.conservation * scale) {
        throw MomentumError(e, "momentum not conserved, component " + std::to_string(mu) +
                                   " of p1 + p2 - sum(outgoing) is " + std::to_string(balance[mu]) +
                                   " GeV");
      }
    }
  }
}

}  // namespace hepex::amplitudes
