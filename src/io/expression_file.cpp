#include "hepex/io/expression_file.hpp"

#include <sstream>

#include "hepex/core/error.hpp"

namespace hepex::io {

namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

}  // namespace

std::vector<ExpressionText> split_expressions(const std::string& text, const std::string& name) {
  std::vector<ExpressionText> out;
  std::istringstream in(text);
  std::string current;
  std::size_t start = 0, depth = 0, number = 0;
  bool open = false;  // an expression continues onto the next line
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!open && trimmed(line).empty()) continue;  // blank lines between expressions
    if (!open) {
      current.clear();
      start = number;
    } else {
      current += ' ';
    }
    for (const char c : line) {
      if (c == '(') ++depth;
      if (c == ')' && depth > 0) --depth;
    }
    current += line;
    std::string t = trimmed(current);
    const bool terminated = !t.empty() && t.back() == ';';
    if (terminated) t.pop_back();
    const char last = t.empty() ? '\0' : t.back();
    open = !terminated && !t.empty() &&
           (depth > 0 || last == '+' || last == '-' || last == '*' || last == '/' || last == '^' ||
            last == '(');
    if (!open) {
      out.push_back({terminated ? trimmed(t) : current, start});
      if (terminated && depth > 0) {
        throw Error(name + ":" + std::to_string(start) + ": the expression ends (';') with " +
                    std::to_string(depth) + " parenthesis(es) still open");
      }
      depth = 0;
    }
  }
  if (open) {
    throw Error(name + ":" + std::to_string(start) +
                ": the expression starting here runs to the end of "
                "the file with " +
                std::to_string(depth) + " parenthesis(es) open (expected ')')");
  }
  return out;
}

}  // namespace hepex::io
