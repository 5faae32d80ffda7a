#pragma once
// Text files of numbers, one record per line (the --momenta and --select
// files of `hepex me`): empty lines and lines starting with '#' are skipped.

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace hepex::io {

struct NumberLine {
  std::vector<double> values;
  std::size_t line;  // 1-based
};

// Every line's numbers; hepex::Error "NAME:LINE: 'x' is not a number" on a
// field that does not parse whole ("nan" and "inf" do: the caller's checks
// name them), and decimal.hpp's message on one beyond the largest double
// (1e400) or below the smallest (1e-400).
std::vector<NumberLine> read_number_lines(std::istream& in, const std::string& name);

}  // namespace hepex::io
