// MadEvent's channel tables (detail/channel_weights.hpp) for each process,
// and the kernels that weigh a batch's events by their channels.
#include "hepex/amplitudes/detail/channel_weights.hpp"

#include "hepex/amplitudes/detail/channel_tables.hpp"
#include "hepex/core/error.hpp"

namespace hepex::amplitudes::detail {

ChannelTable channel_table(Process process) {
  using namespace channel_data;
  switch (process) {
    case Process::gg_tt:
      return {gg_tt_config_diagram, gg_tt_forest, gg_tt_channel_configurations, 1, gg_tt_diagrams};
    case Process::gg_ttg:
      return {gg_ttg_config_diagram, gg_ttg_forest, gg_ttg_channel_configurations, 2,
              gg_ttg_diagrams};
    case Process::gg_ttgg:
      return {gg_ttgg_config_diagram, gg_ttgg_forest, gg_ttgg_channel_configurations, 3,
              gg_ttgg_diagrams};
    case Process::gg_ttggg:
      return {gg_ttggg_config_diagram, gg_ttggg_forest, gg_ttggg_channel_configurations, 4,
              gg_ttggg_diagrams};
  }
  throw Error("unknown process", ErrorKind::runtime);
}

int channel_configuration(const ChannelTable& table, int channel) {
  for (int c = 0; c < table.configurations; ++c) {
    if (table.config_diagram[c] == channel) return c + 1;
  }
  return 0;
}

// (Free functions: CUDA's extended lambdas may not live in private members.)
void launch_channel_weights(const DeviceSpace& instance, const ChannelTable& table,
                            const ChannelConstants& constants,
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
        weights(e) = config == 0 ? 1.0 : channel_weight(table, constants, momenta, e, config);
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
