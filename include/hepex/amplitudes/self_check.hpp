#pragma once
// A short run of the amplitudes family for `hepex demo`: one MadGraph
// reference event of g g -> t tbar g g reproduced, and the throughput on a
// batch of RAMBO events.

#include <cstddef>
#include <cstdint>

namespace hepex::amplitudes {

struct MeSelfCheck {
  std::size_t events = 0;      // RAMBO events timed
  double seconds = 0;          // time of their evaluation
  double reference_error = 0;  // relative error on the reference event
  bool passed = false;         // reference_error < 1e-12 and finite MEs
};

MeSelfCheck me_self_check(std::size_t events, std::uint64_t seed);

}  // namespace hepex::amplitudes
