// The --prime option shared by the linear-algebra commands and benchmarks.
#include <gmpxx.h>

#include "hepex/core/error.hpp"
#include "number_options.hpp"

namespace hepex::cli {

std::uint64_t parse_prime_option(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
      text.size() > 20) {
    throw Error("--prime '" + text + "' is not a positive integer");
  }
  const mpz_class value(text, 10);  // base 10: a leading 0 is not octal
  if (value >= mpz_class(1) << 63) {
    throw Error("--prime " + text + " is too large: P must be below 2^63");
  }
  return value.get_ui();
}

}  // namespace hepex::cli
