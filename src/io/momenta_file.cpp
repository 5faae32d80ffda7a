#include "hepex/io/momenta_file.hpp"

#include <sstream>

#include "hepex/core/error.hpp"

namespace hepex::io {

MomentaFile read_momenta_file(std::istream& in, const std::string& name, int particles) {
  MomentaFile events;
  std::vector<double>& momenta = events.momenta;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string field;
    int count = 0;
    while (fields >> field) {
      std::size_t used = 0;
      double value = 0;
      try {
        value = std::stod(field, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != field.size()) {
        throw Error(name + ":" + std::to_string(number) + ": '" + field + "' is not a number");
      }
      momenta.push_back(value);
      ++count;
    }
    if (count != 4 * particles) {
      throw Error(name + ":" + std::to_string(number) + ": " + std::to_string(count) +
                  " numbers, expected " + std::to_string(4 * particles) + " (E px py pz for " +
                  std::to_string(particles) + " particles)");
    }
    events.lines.push_back(number);
  }
  if (momenta.empty()) throw Error(name + ": no events");
  return events;
}

}  // namespace hepex::io
