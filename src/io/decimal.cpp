#include "hepex/io/decimal.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace hepex::io {

Decimal parse_decimal(const std::string& text) {
  Decimal d;
  errno = 0;
  char* end = nullptr;
  d.value = std::strtod(text.c_str(), &end);
  const bool range = errno == ERANGE;
  if (text.empty() || end != text.c_str() + text.size() ||
      std::isspace(static_cast<unsigned char>(text[0]))) {
    d.problem = "is not a number";
  } else if (std::isnan(d.value)) {
    d.problem = "is NaN, not a finite number";
  } else if (std::isinf(d.value)) {
    d.problem =
        range ? "is beyond the largest double (about 1.8e308)" : "is infinite, not a finite number";
  } else if (range && d.value == 0) {
    d.problem = "is below the smallest double (about 4.9e-324) and would be 0";
  }
  return d;
}

}  // namespace hepex::io
