#pragma once
// A decimal number typed by the user (a Matrix Market entry, a momentum, an
// option) as a double, and what exactly is wrong when it is none: a value
// beyond the largest double, or one below the smallest (1e-400), is said to
// be so, not called "not finite", and never rounded to infinity or 0.
// Values between 0 and the smallest normal double (subnormals) are taken.

#include <string>

namespace hepex::io {

struct Decimal {
  double value = 0;
  // Null when the text is a finite double; else what is wrong, e.g. "is
  // below the smallest double (about 4.9e-324) and would be 0".
  const char* problem = nullptr;
};

Decimal parse_decimal(const std::string& text);

}  // namespace hepex::io
