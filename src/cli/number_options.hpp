#pragma once
// Validators for the numeric options (issue 24). They check the text the
// user typed, before CLI11 converts it, so that nothing wraps ("-1" for a
// count), clamps (a seed above 2^64 - 1) or passes as a number that is none
// ("nan", "inf", "0x10", "1e3" for a count).

#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>

namespace hepex::cli {

// Decimal digits only, a value in [low, high].
CLI::Validator whole_number(std::uint64_t low = 0,
                            std::uint64_t high = std::numeric_limits<std::uint64_t>::max());

// A finite floating-point number > 0.
CLI::Validator finite_positive();

}  // namespace hepex::cli
