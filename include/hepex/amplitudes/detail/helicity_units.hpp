#pragma once
// Helicity combinations grouped into units of work for the top-line family's
// kernels (the GPU team kernel, team_evaluator.hpp, and the host lane kernel,
// lane_kernel.hpp), whose legs are g g t tbar g ... (top_line_gluons_evaluators.hpp
// checks a process's legs before it builds them).

#include <algorithm>
#include <cstddef>
#include <vector>

#include <Kokkos_Macros.hpp>

namespace hepex::amplitudes::detail {

// MadGraph's helicity order for the legs g g t tbar g ...: the last particle
// varies fastest, every particle runs -1, +1 except the tbar (particle 3),
// which runs +1, -1 (ProcessInfo::reversed_helicities = 1 << 3).
inline constexpr unsigned top_line_reversed_helicities = 1u << 3;

KOKKOS_INLINE_FUNCTION int top_line_helicity(int combination, int particle, int particles) {
  const int value = (combination >> (particles - 1 - particle)) & 1 ? 1 : -1;
  return (top_line_reversed_helicities >> particle) & 1 ? -value : value;
}

// The helicity combinations that differ only in the top and antitop
// helicities share their gluon currents (and, for equal antitop helicities,
// their fermion currents): a unit of work is one gluon-helicity configuration
// with up to four combinations, those of one antitop helicity first.
inline constexpr int max_combinations_per_unit = 4;

struct HelicityUnit {
  int count = 0;
  int helicity[max_combinations_per_unit] = {};
  int slot[max_combinations_per_unit] = {};  // helicity[k] == helicities[slot[k]] (below)
  int first_of_second_antitop = 0;  // combinations [0, this) share the antitop of combination 0
};

// Groups `helicities` by their gluon helicities (particles 0, 1, 4, ...);
// each combination keeps its position in `helicities` (slot), where the
// kernels store its |M|^2 to choose a helicity (event_choices.hpp).
inline std::vector<HelicityUnit> helicity_units(const std::vector<int>& helicities, int particles) {
  const int top_bits = (1 << (particles - 3)) | (1 << (particles - 4));
  std::vector<int> keys;
  std::vector<HelicityUnit> units;
  for (const int h : helicities) {
    const int key = h & ~top_bits;
    const auto index = std::find(keys.begin(), keys.end(), key) - keys.begin();
    if (index == static_cast<std::ptrdiff_t>(keys.size())) {
      keys.push_back(key);
      units.emplace_back();
    }
    HelicityUnit& unit = units[index];
    unit.helicity[unit.count++] = h;
  }
  const auto antitop = [&](int h) { return top_line_helicity(h, 3, particles); };
  for (auto& unit : units) {
    std::stable_sort(unit.helicity, unit.helicity + unit.count,
                     [&](int a, int b) { return antitop(a) < antitop(b); });
    unit.first_of_second_antitop = 1;
    while (unit.first_of_second_antitop < unit.count &&
           antitop(unit.helicity[unit.first_of_second_antitop]) == antitop(unit.helicity[0])) {
      ++unit.first_of_second_antitop;
    }
    for (int k = 0; k < unit.count; ++k) {
      unit.slot[k] = static_cast<int>(
          std::find(helicities.begin(), helicities.end(), unit.helicity[k]) - helicities.begin());
    }
  }
  return units;
}

}  // namespace hepex::amplitudes::detail
