#pragma once
// What every `hepex_bench` benchmark shares: number formatting.

#include <string>

namespace hepex::bench {

// x with `digits` digits after the point.
std::string fixed(double x, int digits);

}  // namespace hepex::bench
