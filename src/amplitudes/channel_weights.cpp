// MadEvent's channel tables (detail/channel_weights.hpp) for each process,
// and the kernels that weigh a batch's events by their channels.
#include "hepex/amplitudes/detail/channel_weights.hpp"

#include <array>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "hepex/amplitudes/detail/process_registry.hpp"
#include "hepex/core/error.hpp"

namespace hepex::amplitudes::detail {

namespace {

// The forest's propagators merged into nodes (ChannelTable::nodes): a
// propagator is the node of its (daughter, daughter, flags) with daughters
// that are propagators replaced by their nodes, so two propagators share a
// node exactly where configuration_weight would sum the same momenta in the
// same order and weigh them alike.
struct MergedForest {
  std::vector<short> nodes, config_nodes;
};

MergedForest merge_forest(const ChannelTable& table) {
  MergedForest merged;
  std::map<std::tuple<int, int, int>, int> node_of;
  for (int c = 0; c < table.configurations; ++c) {
    for (int i = 0; i < table.propagators; ++i) {
      const signed char* propagator = table.forest + (c * table.propagators + i) * 3;
      const auto daughter = [&](int d) {
        // a propagator -j of this configuration: its node n as -n - 1
        return d < 0 ? -merged.config_nodes[c * table.propagators + (-d - 1)] - 1 : d;
      };
      const auto key =
          std::make_tuple(daughter(propagator[0]), daughter(propagator[1]), int(propagator[2]));
      const auto [at, added] = node_of.emplace(key, int(node_of.size()));
      if (added) {
        merged.nodes.push_back(static_cast<short>(std::get<0>(key)));
        merged.nodes.push_back(static_cast<short>(std::get<1>(key)));
        merged.nodes.push_back(static_cast<short>(std::get<2>(key)));
      }
      merged.config_nodes.push_back(static_cast<short>(at->second));
    }
  }
  if (node_of.size() > std::size_t(most_channel_nodes)) {
    throw Error("channel tables: " + std::to_string(node_of.size()) +
                    " distinct propagators, more than most_channel_nodes = " +
                    std::to_string(most_channel_nodes),
                ErrorKind::runtime);
  }
  return merged;
}

ChannelTable forest_table(Process process) {
  const ChannelForest& f = process_entry(process).channels;
  ChannelTable table;
  table.config_diagram = f.config_diagram;
  table.forest = f.forest;
  table.configurations = f.configurations;
  table.propagators = f.propagators;
  table.diagrams = f.diagrams;
  return table;
}

}  // namespace

ChannelTable channel_table(Process process) {
  // Merged once per process, on first use (thread-safe static).
  static const std::array<MergedForest, process_count> merged = [] {
    std::array<MergedForest, process_count> all;
    for (const Process p : all_processes())
      all[static_cast<int>(p)] = merge_forest(forest_table(p));
    return all;
  }();
  ChannelTable table = forest_table(process);
  const MergedForest& m = merged[static_cast<int>(process)];
  table.nodes = m.nodes.data();
  table.config_nodes = m.config_nodes.data();
  table.node_count = static_cast<int>(m.nodes.size() / 3);
  return table;
}

int channel_configuration(const ChannelTable& table, int channel) {
  for (int c = 0; c < table.configurations; ++c) {
    if (table.config_diagram[c] == channel) return c + 1;
  }
  return 0;
}

// w_ch by nodes (the host's) or per configuration (a GPU's); a function of
// its own because nvcc refuses a constexpr if in an extended lambda.
template <bool ByNodes, class Momenta>
KOKKOS_INLINE_FUNCTION double weight_of(const ChannelTable& table, const ChannelConstants& k,
                                        const Momenta& momenta, std::size_t e, int config) {
  if constexpr (ByNodes) {
    return channel_weight_by_nodes(table, k, momenta, e, config);
  } else {
    return channel_weight(table, k, momenta, e, config);
  }
}

// By nodes on the host, per configuration on a GPU (channel_weights.hpp).
constexpr bool weights_by_nodes =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceSpace::memory_space>::accessible;

// (Free functions: CUDA's extended lambdas may not live in private members.)
void launch_channel_weights(
    const DeviceSpace& instance, const ChannelTable& table, const ChannelConstants& constants,
    const MomentaView<DeviceSpace::memory_space>& momenta,
    const Kokkos::View<const int*, DeviceSpace::memory_space>& channel,
    const Kokkos::View<const int*, DeviceSpace::memory_space>& igraph,
    const Kokkos::View<int*, DeviceSpace::memory_space>& configuration,
    const Kokkos::View<double*, DeviceSpace::memory_space>& weights,
    const Kokkos::View<int*, DeviceSpace::memory_space>& colour_configuration) {
  const bool has_igraph = igraph.extent(0) != 0, colour = colour_configuration.extent(0) != 0;
  // MadEvent's choice of colour (CUDACPP's select_col): igraph where it is
  // not 0, else the channel's configuration (else any flow).
  Kokkos::parallel_for(
      "hepex::channel_weights", Kokkos::RangePolicy<DeviceSpace>(instance, 0, momenta.extent(0)),
      KOKKOS_LAMBDA(const std::size_t e) {
        const int config = configuration(channel(e));
        weights(e) =
            config == 0 ? 1.0 : weight_of<weights_by_nodes>(table, constants, momenta, e, config);
        if (colour) colour_configuration(e) = has_igraph && igraph(e) != 0 ? igraph(e) : config;
      });
}

void scale_by_weights(const DeviceSpace& instance,
                      const Kokkos::View<double*, DeviceSpace::memory_space>& me,
                      const Kokkos::View<double*, DeviceSpace::memory_space>& weights) {
  Kokkos::parallel_for(
      "hepex::channel_weight_times_me", Kokkos::RangePolicy<DeviceSpace>(instance, 0, me.extent(0)),
      KOKKOS_LAMBDA(const std::size_t e) { me(e) *= weights(e); });
}

}  // namespace hepex::amplitudes::detail
