#include "hepex/io/momenta_file.hpp"

#include "hepex/core/error.hpp"
#include "hepex/io/number_lines.hpp"

namespace hepex::io {

MomentaFile read_momenta_file(std::istream& in, const std::string& name, int particles) {
  MomentaFile events;
  for (const auto& line : read_number_lines(in, name)) {
    if (line.values.size() != std::size_t(4 * particles)) {
      throw Error(name + ":" + std::to_string(line.line) + ": " +
                  std::to_string(line.values.size()) + " numbers, expected " +
                  std::to_string(4 * particles) + " (E px py pz for " + std::to_string(particles) +
                  " particles)");
    }
    events.momenta.insert(events.momenta.end(), line.values.begin(), line.values.end());
    events.lines.push_back(line.line);
  }
  if (events.momenta.empty()) throw Error(name + ": no events");
  return events;
}

}  // namespace hepex::io
