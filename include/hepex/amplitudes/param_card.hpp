#pragma once
// The top mass, top width and alpha_s of a MadGraph param_card.dat (SLHA
// format, the Cards/ directory of a MadGraph process), following the SLHA
// rules: keywords are case-insensitive (BLOCK, Block, DECAY), '#' starts a
// comment anywhere on a line, a block ends at the next BLOCK or DECAY line,
// a BLOCK line may carry a scale (BLOCK MASS Q= 91.2, ignored), BLOCK MASS
// lines are `PDG value`, BLOCK SMINPUTS lines are `index value`, and
// `DECAY PDG width` is followed by branching-ratio lines (ignored).

#include <iosfwd>
#include <string>

namespace hepex::amplitudes {

// The run parameters of the processes that a MadGraph param_card.dat sets.
// Defaults: those of the reference data (tests/data/madgraph/README.md).
struct ModelParameters {
  double top_mass = 173.0;    // BLOCK MASS, PDG code 6 (MT) [GeV]
  double top_width = 1.4915;  // DECAY 6 (WT) [GeV]
  double alpha_s = 0.118;     // BLOCK SMINPUTS, entry 3 (aS)
};

// Reads MT, WT and aS from a param_card.dat; every other block and entry is
// ignored. Throws hepex::Error (ErrorKind::invalid_input) "param card FILE
// line N: ..." on a code that is not an integer, an entry given twice, a
// value that is missing, not a whole finite number or out of range (MT <= 0,
// WT < 0, aS not in (0, 1)), and "param card FILE: ..." on an unreadable file
// or a missing entry (each of the three must be present).
ModelParameters read_param_card(const std::string& path);

// The same from a stream; `name` is used in the messages.
ModelParameters parse_param_card(std::istream& in, const std::string& name);

}  // namespace hepex::amplitudes
