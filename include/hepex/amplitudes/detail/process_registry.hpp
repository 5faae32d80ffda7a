#pragma once
// The process registry: per process its public facts (ProcessInfo), MadGraph's
// tables (colour matrix, icolamp, MadEvent's channels) and the factory of the
// evaluator family that computes it. The entries are generated
// (generated/process_table.hpp, tools/madgraph/make_process_tables.py): the
// library looks a process up here and has no list of processes of its own.

#include <cstdint>
#include <memory>

#include "hepex/amplitudes/process.hpp"
#include "hepex/core/spaces.hpp"

namespace hepex::amplitudes {
struct MatrixElementOptions;
}

namespace hepex::amplitudes::detail {

template <class ExecSpace>
class Evaluator;

// CF (colours x colours, row-major, symmetric) and the common row denominator:
// |M|^2(hel) = sum_ij conj(J_i) CF_ij / denominator J_j.
struct ColourMatrix {
  int colours;
  int denominator;
  const int* cf;
};

// MadGraph's icolamp: configuration c (1-based) may choose colour flow i
// where bit i % 64 of words[(c - 1) * words_per_configuration + i / 64] is set.
struct FlowChoiceTable {
  const std::uint64_t* words;
  int words_per_configuration;
  int configurations;
};

// MadEvent's integration channels: per configuration its diagram (the channel
// id MadEvent passes) and per propagator d1, d2, flags (channel_weights.hpp).
struct ChannelForest {
  const short* config_diagram;
  const signed char* forest;
  int configurations;
  int propagators;
  int diagrams;
};

// Builds the process's evaluator for the options (precision, colour sum,
// host SIMD or device team kernel); checks that the process fits the family.
using EvaluatorFactory = std::unique_ptr<Evaluator<DeviceSpace>> (*)(Process,
                                                                     const MatrixElementOptions&);

struct ProcessEntry {
  ProcessInfo info;
  ColourMatrix colour;
  FlowChoiceTable flow_choices;
  ChannelForest channels;
  EvaluatorFactory make_evaluator;
  // The evaluator family ("top_line_gluons", "colour_flow"), as
  // tools/madgraph/processes.json names it.
  const char* family;
  // Whether the family has a host SIMD lane kernel (both families have:
  // lane_kernel.hpp, colour_flow_lane_kernel.hpp); a family without one
  // would run its portable kernel on the host too, without lanes.
  bool host_lanes;
};

// The entry of a process; hepex::Error (runtime) for a value outside the enum.
const ProcessEntry& process_entry(Process process);

inline ColourMatrix colour_matrix(Process process) { return process_entry(process).colour; }
inline FlowChoiceTable flow_choice_table(Process process) {
  return process_entry(process).flow_choices;
}

}  // namespace hepex::amplitudes::detail
