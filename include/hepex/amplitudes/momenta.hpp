#pragma once
// Batches of momenta as structure-of-arrays Views, and their validation.

#include <cstddef>

#include "hepex/amplitudes/process.hpp"
#include "hepex/core/kokkos_compat.hpp"

namespace hepex::amplitudes {

// momenta(event, particle, mu), mu = 0..3 for (E, px, py, pz) in GeV; LayoutLeft
// puts the event index fastest, so neighbouring threads read neighbouring words.
template <class MemSpace>
using MomentaView = Kokkos::View<double***, Kokkos::LayoutLeft, MemSpace>;

// What check_momenta demands of every event besides finite numbers, positive
// energies and the right count: momentum conservation always; on-shell
// particles (gluons massless, tops at top_mass) unless `off_shell_allowed`
// (MadGraph's massless-top test dumps have p_t^2 = 0).
enum class MomentumCheck { on_shell, off_shell_allowed };

// Relative tolerances: |sum p_in - sum p_out| <= 1e-9 sqrt(s) per component,
// |p^2 - m^2| <= 1e-6 E^2 per particle.
inline constexpr double conservation_tolerance = 1e-9;
inline constexpr double on_shell_tolerance = 1e-6;

// Throws hepex::Error naming the event, particle and what is wrong.
// `momenta` holds `values` numbers, event-major: event e, particle i, mu at
// [(e * particles + i) * 4 + mu]; `values` must be a multiple of 4 * particles.
void check_momenta(const ProcessInfo& process, const double* momenta, std::size_t values,
                   MomentumCheck check = MomentumCheck::on_shell);

}  // namespace hepex::amplitudes
