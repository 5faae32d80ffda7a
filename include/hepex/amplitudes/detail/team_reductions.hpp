#pragma once
// The team kernel's per-event reductions: the colour sums of a unit's
// combinations (a Kokkos reduction value), the sum over units in the kernel
// that computes the last one (EventTotals) and the kernel that sums, applies
// the coupling and chooses helicity and colour (ChoiceKernel).

#include <cstdint>

#include "hepex/amplitudes/detail/event_choices.hpp"
#include "hepex/amplitudes/detail/helicity_units.hpp"
#include "hepex/core/kokkos_compat.hpp"

namespace hepex::amplitudes::detail {

// A team's colour sums of a unit's combinations, apart (a Kokkos reduction
// value).
struct CombinationSums {
  double v[max_combinations_per_unit];
  KOKKOS_INLINE_FUNCTION CombinationSums() {
    for (int c = 0; c < max_combinations_per_unit; ++c) v[c] = 0;
  }
  KOKKOS_INLINE_FUNCTION CombinationSums& operator+=(const CombinationSums& other) {
    for (int c = 0; c < max_combinations_per_unit; ++c) v[c] += other.v[c];
    return *this;
  }
  // Kokkos 3's reducers join through volatile references.
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile CombinationSums& other) volatile {
    for (int c = 0; c < max_combinations_per_unit; ++c) v[c] += other.v[c];
  }
};

}  // namespace hepex::amplitudes::detail

namespace Kokkos {
template <>
struct reduction_identity<hepex::amplitudes::detail::CombinationSums> {
  KOKKOS_FORCEINLINE_FUNCTION static hepex::amplitudes::detail::CombinationSums sum() { return {}; }
};
}  // namespace Kokkos

namespace hepex::amplitudes::detail {

// The sum over units, in the kernels that compute them: whoever stores the
// last unit's |M|^2 of an event (after a memory fence, counted atomically)
// adds the event's units up in unit order, so the result does not depend on
// which finished last, applies the event's coupling (gs), and resets the
// count (the threadFenceReduction pattern of the CUDA samples). Saves a
// kernel launch and a pass over the partial sums.
template <class Memory>
struct EventTotals {
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> partial;  // (unit, event)
  Kokkos::View<int*, Memory> stored;                            // units stored, per event
  Kokkos::View<double*, Memory> me;
  int units;
  double scale;
  int gluons;
  const double* gs;  // per event, or null

  // Called once per (unit, event), after partial(u, e) holds its final value.
  KOKKOS_INLINE_FUNCTION void unit_done(int e) const {
    Kokkos::memory_fence();
    if (Kokkos::atomic_fetch_add(&stored(e), 1) != units - 1) return;
    Kokkos::memory_fence();
    double sum = 0;
    for (int u = 0; u < units; ++u) sum += compat::atomic_read(&partial(u, e));
    me(e) = gs == nullptr ? sum / scale : sum / scale * coupling_factor(gs[e], gluons);
    stored(e) = 0;
  }
};

// Where the units choose (event_choices.hpp), they store each combination's
// |M|^2 at partial(slot, e) and add |jamp|^2 per flow into jamp2(flow, e)
// (atomically: the choice of a flow may then depend on the order of the
// additions, at the rounding of a double); this kernel, one thread per event
// after all units, adds up |M|^2 in MadGraph's helicity order, applies the
// coupling, chooses, and resets jamp2. A kernel of its own, not the last
// unit's team as EventTotals: one thread's chain of up to 248 dependent
// loads per event held the small processes to a third of their rate, where
// here neighbouring threads read neighbouring words.
template <class Memory>
struct ChoiceKernel {
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> partial;  // (good helicity, event)
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> jamp2;    // (flow, event)
  Kokkos::View<double*, Memory> me;
  Kokkos::View<const int*, Memory> good;
  double scale;
  int gluons;
  EventChoices choices;

  KOKKOS_INLINE_FUNCTION void operator()(int e) const {
    const int rows = static_cast<int>(partial.extent(0));
    const auto helicity_me = [&](int slot) { return partial(slot, e); };
    double sum = 0;
    for (int r = 0; r < rows; ++r) sum += helicity_me(r);
    me(e) =
        choices.gs == nullptr ? sum / scale : sum / scale * coupling_factor(choices.gs[e], gluons);
    if (choices.rndhel != nullptr) {
      const int i = first_cumulative_above(rows, choices.rndhel[e], helicity_me);
      choices.selhel[e] = i < 0 ? 0 : good(i) + 1;
    }
    if (choices.rndcol != nullptr) {
      const int flows = static_cast<int>(jamp2.extent(0));
      choices.selcol[e] =
          choose_colour(choices, flows, e, [&](int flow) { return jamp2(flow, e); });
      for (int flow = 0; flow < flows; ++flow) jamp2(flow, e) = 0;
    }
  }
};

}  // namespace hepex::amplitudes::detail
