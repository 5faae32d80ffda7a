#pragma once
// What every `hepex bench` subcommand shares: number formatting.

#include <string>

namespace hepex::cli {

// x with `digits` digits after the point.
std::string fixed(double x, int digits);

}  // namespace hepex::cli
