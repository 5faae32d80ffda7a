#include "number_options.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "hepex/core/spaces.hpp"
#include "hepex/io/decimal.hpp"

namespace hepex::cli {

CLI::Validator whole_number(std::uint64_t low, std::uint64_t high) {
  const std::string range =
      "a whole number from " + std::to_string(low) + " to " + std::to_string(high);
  return CLI::Validator(
      [low, high, range](std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
          return "'" + text + "' is not " + range;
        }
        std::uint64_t value = 0;
        for (const char c : text) {
          if (__builtin_mul_overflow(value, 10, &value) ||
              __builtin_add_overflow(value, static_cast<std::uint64_t>(c - '0'), &value)) {
            return "'" + text + "' is too large: " + range + " is expected";
          }
        }
        if (value < low || value > high) return "'" + text + "' is not " + range;
        return {};
      },
      "UINT in [" + std::to_string(low) + ", " + std::to_string(high) + "]");
}

CLI::Validator finite_positive() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const io::Decimal d = io::parse_decimal(text);
        if (d.problem != nullptr) return "'" + text + "' " + d.problem;
        if (!(d.value > 0)) return "'" + text + "' is not above 0";
        return {};
      },
      "FLOAT > 0");
}

CLI::Validator finite_non_negative() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const io::Decimal d = io::parse_decimal(text);
        if (d.problem != nullptr) return "'" + text + "' " + d.problem;
        if (d.value < 0 || std::signbit(d.value)) return "'" + text + "' is below 0";
        return {};
      },
      "FLOAT >= 0");
}

CLI::Validator default_space_backend(const std::string& command) {
  return CLI::Validator(
      [command](std::string& text) -> std::string {
        if (text != "host" && text != "device") return "'" + text + "' is not host or device";
        if (text == "host" && has_accelerator) {
          return command +
                 " runs on the device in this build; --backend host needs a build "
                 "without a GPU backend";
        }
        return {};
      },
      "host|device");
}

}  // namespace hepex::cli
