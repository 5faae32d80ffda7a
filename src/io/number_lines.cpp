#include "hepex/io/number_lines.hpp"

#include <sstream>
#include <stdexcept>

#include "hepex/core/error.hpp"

namespace hepex::io {

std::vector<NumberLine> read_number_lines(std::istream& in, const std::string& name) {
  std::vector<NumberLine> lines;
  std::string text;
  for (std::size_t number = 1; std::getline(in, text); ++number) {
    if (text.find_first_not_of(" \t\r") == std::string::npos || text[0] == '#') continue;
    std::istringstream fields(text);
    std::string field;
    NumberLine line{{}, number};
    while (fields >> field) {
      const auto fail = [&](const char* what) {
        throw Error(name + ":" + std::to_string(number) + ": '" + field + "' " + what);
      };
      std::size_t used = 0;
      double value = 0;
      try {
        value = std::stod(field, &used);
      } catch (const std::out_of_range&) {
        fail("is outside the range of a double");
      } catch (const std::invalid_argument&) {
        used = 0;
      }
      if (used != field.size()) fail("is not a number");
      line.values.push_back(value);
    }
    lines.push_back(std::move(line));
  }
  if (in.bad()) throw Error(name + ": read error");
  return lines;
}

}  // namespace hepex::io
