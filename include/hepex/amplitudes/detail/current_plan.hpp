#pragma once
// The recursion's bookkeeping tables (colour_ordered.hpp) in Kokkos Views,
// for the kernels that read them.

#include <map>
#include <vector>

#include "hepex/amplitudes/detail/colour_ordered.hpp"
#include "hepex/core/kokkos_compat.hpp"

namespace hepex::amplitudes::detail {

// The recursion's bookkeeping for NG gluons, on the device: sub(s, i*(NG+1)+j)
// is the id of the contiguous piece [i, j) of sequence s (0 when empty);
// gluon(s) is the gluon of a length-1 sequence; mask(s) the set of its
// gluons as bits (the momentum of a current depends only on that set).
template <class MemSpace>
struct CurrentPlan {
  Kokkos::View<int**, Kokkos::LayoutRight, MemSpace> sub;
  Kokkos::View<int*, MemSpace> gluon;
  Kokkos::View<int*, MemSpace> mask;
};

template <class MemSpace>
CurrentPlan<MemSpace> make_current_plan(int ng) {
  const int width = ng + 1;
  std::vector<std::vector<int>> sequences{{}};
  std::map<std::vector<int>, int> id{{{}, 0}};
  for (int length = 1; length <= ng; ++length) {
    // Lexicographic enumeration of the ordered `length`-tuples of distinct gluons.
    std::vector<int> tuple(length, 0);
    const auto distinct = [&] {
      for (int a = 0; a < length; ++a)
        for (int b = a + 1; b < length; ++b)
          if (tuple[a] == tuple[b]) return false;
      return true;
    };
    while (true) {
      if (distinct()) {
        id[tuple] = static_cast<int>(sequences.size());
        sequences.push_back(tuple);
      }
      int pos = length - 1;
      while (pos >= 0 && ++tuple[pos] == ng) tuple[pos--] = 0;
      if (pos < 0) break;
    }
  }
  CurrentPlan<MemSpace> plan{
      Kokkos::View<int**, Kokkos::LayoutRight, MemSpace>("hepex::current_plan_sub",
                                                         sequences.size(), width * width),
      Kokkos::View<int*, MemSpace>("hepex::current_plan_gluon", sequences.size()),
      Kokkos::View<int*, MemSpace>("hepex::current_plan_mask", sequences.size())};
  auto sub = Kokkos::create_mirror_view(plan.sub);
  auto gluon = Kokkos::create_mirror_view(plan.gluon);
  auto mask = Kokkos::create_mirror_view(plan.mask);
  for (std::size_t s = 0; s < sequences.size(); ++s) {
    const auto& seq = sequences[s];
    gluon(s) = seq.empty() ? -1 : seq[0];
    mask(s) = 0;
    for (const int g : seq) mask(s) |= 1 << g;
    for (std::size_t i = 0; i <= seq.size(); ++i)
      for (std::size_t j = i; j <= seq.size(); ++j)
        sub(s, i * width + j) = id.at(std::vector<int>(seq.begin() + i, seq.begin() + j));
  }
  Kokkos::deep_copy(plan.sub, sub);
  Kokkos::deep_copy(plan.gluon, gluon);
  Kokkos::deep_copy(plan.mask, mask);
  return plan;
}

}  // namespace hepex::amplitudes::detail
