#pragma once
// The expressions of a file for `hepex reconstruct --file`: one a line, and
// an expression may run over several lines while a parenthesis is open or a
// line ends with an operator (+ - * / ^ or '(') — FireFly's benchmark files
// and Mathematica output are written so; a trailing ';' ends an expression
// (Mathematica's terminator) and is dropped; blank lines between
// expressions are skipped. Each expression keeps the line
// it starts on, for messages.

#include <cstddef>
#include <string>
#include <vector>

namespace hepex::io {

struct ExpressionText {
  std::string text;
  std::size_t line;  // 1-based, where it starts
};

// hepex::Error "NAME:LINE: ..." for an expression whose parentheses are
// still open at the end of the text.
std::vector<ExpressionText> split_expressions(const std::string& text, const std::string& name);

}  // namespace hepex::io
