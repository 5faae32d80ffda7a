#pragma once
// What a generator asks of an event besides |M|^2 (MadEvent through CUDACPP's
// Fortran bridge; matrix_element.hpp, EventArguments): |M|^2 at the event's
// own strong coupling, and the helicity and the colour flow to write to the
// event record, chosen by the event's uniform random numbers with MadGraph's
// rules as CUDACPP implements them (madgraph4gpu, CPPProcess.cc, selhel and
// selcol; tests/data/madgraph/README.md):
//   helicity: over the good helicities in MadGraph's order, the first whose
//     cumulative colour-summed |M_h|^2 exceeds rndhel times their sum;
//   colour: over the colour flows that the diagram configuration igraph
//     allows (MadGraph's icolamp, the registry's FlowChoiceTable), the first whose
//     cumulative jamp2_i = sum over helicities of |jamp_i|^2 exceeds rndcol
//     times their sum. For igraph 0, or without igraph, every flow may be
//     chosen (CUDACPP chooses none there, its issue #931, and MadEvent's
//     addmothers.f then stops on the event; MadEvent's own Fortran chooses
//     among the integration channel's flows, which the Fortran bridge's
//     call without a channel does not pass). With a channel and igraph 0,
//     the caller passes the channel's configuration (matrix_element.cpp).
// Both kernels (detail/lane_kernel.hpp, detail/evaluator.hpp) call these on
// the sums they keep per event.

#include <cstddef>
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "hepex/amplitudes/parameters.hpp"
#include "hepex/amplitudes/process.hpp"

namespace hepex::amplitudes::detail {

// The per-event arrays of one evaluation, in the evaluation's memory space;
// a null input means "not asked" (its output is then not written).
struct EventChoices {
  const double* gs = nullptr;      // the strong coupling per event; null: G (parameters.hpp)
  const double* rndhel = nullptr;  // uniform in [0, 1): choose a helicity into selhel
  int* selhel = nullptr;           // 1-based MadGraph helicity
  const double* rndcol = nullptr;  // uniform in [0, 1): choose a colour flow into selcol
  const int* igraph = nullptr;     // the configuration allowing flows: 1.., 0 or null: all
  int* selcol = nullptr;           // 1-based colour flow
  const std::uint64_t* flow_choices =
      nullptr;         // the process's icolamp bits (process_registry.hpp, FlowChoiceTable)
  int flow_words = 0;  // words per configuration

  bool any() const { return gs != nullptr || rndhel != nullptr || rndcol != nullptr; }
  bool chooses() const { return rndhel != nullptr || rndcol != nullptr; }
};

// (gs / G)^(2 gluons): |M|^2 at coupling gs over |M|^2 at G, for a process
// with `gluons` gluons in all (parameters.hpp).
KOKKOS_INLINE_FUNCTION double coupling_factor(double gs, int gluons) {
  const double ratio = gs / strong_coupling, square = ratio * ratio;
  double factor = square;
  for (int v = 1; v < gluons; ++v) factor *= square;
  return factor;
}

// The first i in [0, count) with r < (w_0 + ... + w_i) / (w_0 + ... +
// w_{count-1}), the sums formed in order as CUDACPP does; -1 if none (a zero
// sum). weight(i) >= 0.
template <class Weight>
KOKKOS_INLINE_FUNCTION int first_cumulative_above(int count, double r, const Weight& weight) {
  double total = 0;
  for (int i = 0; i < count; ++i) total += weight(i);
  double cumulative = 0;
  for (int i = 0; i < count; ++i) {
    cumulative += weight(i);
    if (r < cumulative / total) return i;
  }
  return -1;
}

// The colour flow chosen for event e (1-based; 0 if no flow has a non-zero
// jamp2) from its jamp2(i), i < flows.
template <class Jamp2>
KOKKOS_INLINE_FUNCTION int choose_colour(const EventChoices& choices, int flows, std::size_t e,
                                         const Jamp2& jamp2) {
  const double r = choices.rndcol[e];
  const int igraph = choices.igraph == nullptr ? 0 : choices.igraph[e];
  if (igraph == 0) return first_cumulative_above(flows, r, jamp2) + 1;
  const std::uint64_t* allowed = choices.flow_choices + (igraph - 1) * choices.flow_words;
  const int i = first_cumulative_above(flows, r, [&](int flow) {
    return (allowed[flow / 64] >> (flow % 64)) & 1 ? jamp2(flow) : 0.0;
  });
  return i + 1;
}

}  // namespace hepex::amplitudes::detail
