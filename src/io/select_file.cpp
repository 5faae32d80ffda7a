#include "hepex/io/select_file.hpp"

#include <cmath>

#include "hepex/core/error.hpp"
#include "hepex/io/number_lines.hpp"

namespace hepex::io {

namespace {

// A whole number from 0 to 10^9 (an igraph or a channel id).
int whole_column(double x, const std::string& where, const char* what) {
  if (!(x >= 0 && x <= 1e9) || x != std::floor(x)) {
    throw Error(where + what + " " + std::to_string(x) + " is not a whole number >= 0");
  }
  return static_cast<int>(x);
}

}  // namespace

SelectFile read_select_file(std::istream& in, const std::string& name) {
  const auto lines = read_number_lines(in, name);
  SelectFile file;
  if (lines.empty()) throw Error(name + ": no events");
  file.columns = lines.front().values.size();
  const std::size_t columns = file.columns;
  for (const auto& line : lines) {
    const auto where = name + ":" + std::to_string(line.line) + ": ";
    if (columns < 3 || columns > 5 || line.values.size() != columns) {
      throw Error(where + std::to_string(line.values.size()) + " numbers, expected " +
                  (columns == 5 ? "5 (gs rndhel rndcol igraph channel, as the first line)"
                   : columns == 4
                       ? "4 (gs rndhel rndcol igraph, as the first line)"
                       : "3 (gs rndhel rndcol), 4 (... igraph) or 5 (... igraph channel)"));
    }
    file.gs.push_back(line.values[0]);
    file.rndhel.push_back(line.values[1]);
    file.rndcol.push_back(line.values[2]);
    if (columns >= 4) file.igraph.push_back(whole_column(line.values[3], where, "igraph"));
    if (columns == 5) file.channel.push_back(whole_column(line.values[4], where, "channel"));
    file.lines.push_back(line.line);
  }
  return file;
}

}  // namespace hepex::io
