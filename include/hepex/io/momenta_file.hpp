#pragma once
// Events as text, one per line (the --momenta files of `hepex me`): 4 numbers
// (E px py pz, GeV) per particle in the process's order; empty lines and lines
// starting with '#' are skipped.

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace hepex::io {

struct MomentaFile {
  std::vector<double> momenta;     // event-major, 4 * particles per event
  std::vector<std::size_t> lines;  // each event's line (1-based)
};

// hepex::Error "NAME:LINE: ..." on a field that is not a number or a line
// without 4 * particles numbers, "NAME: no events" on none.
MomentaFile read_momenta_file(std::istream& in, const std::string& name, int particles);

}  // namespace hepex::io
