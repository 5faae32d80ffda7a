#include "hepex/io/number_lines.hpp"

#include <cmath>
#include <sstream>

#include "hepex/core/error.hpp"
#include "hepex/io/decimal.hpp"

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
      const Decimal d = parse_decimal(field);
      // NaN and infinities pass here: the momenta check says which event.
      if (d.problem != nullptr && !std::isnan(d.value) && !std::isinf(d.value)) fail(d.problem);
      if (d.problem != nullptr && std::isinf(d.value) &&
          field.find_first_of("eE") != std::string::npos) {
        fail(d.problem);  // 1e400: beyond the largest double, not "inf"
      }
      line.values.push_back(d.value);
    }
    lines.push_back(std::move(line));
  }
  if (in.bad()) throw Error(name + ": read error");
  return lines;
}

}  // namespace hepex::io
