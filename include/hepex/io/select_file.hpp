#pragma once
// Per-event choices as text (the --select files of `hepex me`), one line per
// event in the order of the --momenta events: "gs rndhel rndcol", "gs rndhel
// rndcol igraph" or "gs rndhel rndcol igraph channel", the same form on
// every line; empty lines and lines starting with '#' are skipped. Whether
// the values suit a process (couplings finite, rndhel in [0, 1), igraph a
// configuration of it, ...) is the matrix element's check
// (amplitudes::check_event_inputs).

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace hepex::io {

struct SelectFile {
  std::size_t columns = 0;  // 3, 4 or 5
  std::vector<double> gs, rndhel, rndcol;
  std::vector<int> igraph;         // with 4 or 5 columns
  std::vector<int> channel;        // with 5 columns
  std::vector<std::size_t> lines;  // each event's line (1-based)
};

// hepex::Error "NAME:LINE: ..." on a field that is not a number, a line
// whose count of numbers is not 3-5 or not the first line's, an igraph or
// channel that is not a whole number from 0 to 10^9; "NAME: no events" on
// none.
SelectFile read_select_file(std::istream& in, const std::string& name);

}  // namespace hepex::io
