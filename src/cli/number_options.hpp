#pragma once
// Validators for the numeric options (issue 24). They check the text the
// user typed, before CLI11 converts it, so that nothing wraps ("-1" for a
// count), clamps (a seed above 2^64 - 1) or passes as a number that is none
// ("nan", "inf", "0x10", "1e3" for a count).

#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>
#include <string>

namespace hepex::cli {

// A --prime value: decimal digits only, below 2^63 (primality is checked by
// the field); hepex::Error otherwise.
std::uint64_t parse_prime_option(const std::string& text);

// Decimal digits only, a value in [low, high].
CLI::Validator whole_number(std::uint64_t low = 0,
                            std::uint64_t high = std::numeric_limits<std::uint64_t>::max());

// A finite floating-point number > 0.
CLI::Validator finite_positive();
// A finite floating-point number >= 0 (for options whose documented default is 0).
CLI::Validator finite_non_negative();

// --backend of the commands that run on the default execution space alone
// (me, reconstruct): host or device, where host is refused in a build with a
// GPU backend (there the work runs on the device only).
CLI::Validator default_space_backend(const std::string& command);

}  // namespace hepex::cli
