#include "bench_output.hpp"

#include <iomanip>
#include <sstream>

namespace hepex::cli {

std::string fixed(double x, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << x;
  return out.str();
}

}  // namespace hepex::cli
