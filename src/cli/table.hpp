#pragma once
// A plain-text table for the CLI's human-readable output.

#include <ostream>
#include <string>
#include <vector>

namespace hepex::cli {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Columns padded to their widest cell, separated by two spaces, with a rule
  // under the header.
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace hepex::cli
