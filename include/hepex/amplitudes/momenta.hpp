#pragma once
// Batches of momenta as structure-of-arrays Views, and their validation.

#include <cstddef>
#include <string>

#include "hepex/amplitudes/parameters.hpp"
#include "hepex/amplitudes/process.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_compat.hpp"

namespace hepex::amplitudes {

// momenta(event, particle, mu), mu = 0..3 for (E, px, py, pz) in GeV; LayoutLeft
// puts the event index fastest, so neighbouring threads read neighbouring words.
template <class MemSpace>
using MomentaView = Kokkos::View<double***, Kokkos::LayoutLeft, MemSpace>;

// What check_momenta demands of every event besides finite numbers, positive
// energies and the right count: momentum conservation always; on-shell
// particles (gluons massless, tops at the top mass) unless `off_shell_allowed`
// (MadGraph's massless-top test dumps have p_t^2 = 0).
enum class MomentumCheck { on_shell, off_shell_allowed };

// Relative tolerances: |sum p_in - sum p_out| <= conservation sqrt(s) per
// component, |p^2 - m^2| <= on_shell E^2 per particle.
struct MomentumTolerance {
  double conservation = 1e-9;
  double on_shell = 1e-6;
};

// An error about one event of a batch: its index (0-based) and what is
// wrong; what() says both. Callers that read the events from a file name the
// file's line instead (hepex me).
class EventError : public Error {
 public:
  EventError(std::size_t event, const std::string& detail)
      : Error("event " + std::to_string(event) + ": " + detail), event_(event), detail_(detail) {}
  std::size_t event() const { return event_; }
  const std::string& detail() const { return detail_; }

 private:
  std::size_t event_;
  std::string detail_;
};

// What check_momenta throws about one event ("particle 3 (t): off shell, ...").
class MomentumError : public EventError {
 public:
  using EventError::EventError;
};

// Throws MomentumError naming the event, particle and what is wrong (or
// hepex::Error when `values` is not a positive multiple of 4 * particles).
// `momenta` holds `values` numbers, event-major: event e, particle i, mu at
// [(e * particles + i) * 4 + mu]; `mass` is the top's, in GeV.
void check_momenta(const ProcessInfo& process, const double* momenta, std::size_t values,
                   MomentumCheck check = MomentumCheck::on_shell,
                   const MomentumTolerance& tolerance = {}, double mass = top_mass);

}  // namespace hepex::amplitudes
