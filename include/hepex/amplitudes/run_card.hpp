#pragma once
// What the multichannel weights (detail/channel_weights.hpp) need from a
// MadGraph run_card.dat (the Cards/ directory of a MadEvent process): the
// collider's s, as MadEvent's setrun forms it (stot), and tmin_for_channel.
// run_card.dat lines are `value = name ! comment`; '#' starts a comment line.

#include <iosfwd>
#include <string>

namespace hepex::amplitudes {

struct RunParameters {
  double collider_s = 0;         // stot [GeV^2]; 0: none (no regulator)
  double tmin_for_channel = -1;  // -1: no t-channel cut
};

// Reads lpp1, lpp2, ebeam1, ebeam2 (required) and, where present,
// mass_ion1, mass_ion2, dsqrt_shatmax and tmin_for_channel; forms stot as
// MadEvent does: beam masses 0.938 (|lpp| 1, 2), 0.000511 (3), 0.105658 (4),
// else 0 (gluon beams), or mass_ion where >= 0; a beam energy below its mass
// raised to it; stot = m1^2 + m2^2 + 2 (E1 E2 + |p1| |p2|), at most
// dsqrt_shatmax^2 where that is not -1. Throws hepex::Error "run card FILE
// line N: ..." on a value that is not a number or out of range, and "run card
// FILE: ..." on an unreadable file or a missing entry.
RunParameters read_run_card(const std::string& path);
RunParameters parse_run_card(std::istream& in, const std::string& name);

}  // namespace hepex::amplitudes
