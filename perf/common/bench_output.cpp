#include "bench_output.hpp"

#include <iomanip>
#include <sstream>

namespace hepex::bench {

std::string fixed(double x, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << x;
  return out.str();
}

}  // namespace hepex::bench
