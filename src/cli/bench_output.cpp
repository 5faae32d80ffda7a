#include "bench_output.hpp"

#include <fstream>
#include <iomanip>
#include <sstream>

#include "hepex/core/error.hpp"

namespace hepex::cli {

std::string fixed(double x, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << x;
  return out.str();
}

void check_writable(const std::string& path) {
  if (!path.empty() && !std::ofstream(path, std::ios::app)) {
    throw Error("--json: cannot write '" + path + "'");
  }
}

void write_json(const std::string& path, const nlohmann::json& summary) {
  if (path.empty()) return;
  std::ofstream out(path);
  out << summary.dump(2) << '\n';
  if (!out) throw Error("--json: cannot write '" + path + "'");
}

}  // namespace hepex::cli
