// MadEvent's multichannel weights (EventInputs::channel,
// detail/channel_weights.hpp) against MadGraph's own Fortran
// (get_channel_cut of genps.f with sde_strategy 2, on MadGraph's
// configs.inc: tests/data/madgraph/P_channel_weights_ref.txt), their sum
// over the channels, the colour flow chosen from the channel's
// configuration, and bad channel ids.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "amplitudes/reference_data.hpp"
#include "hepex/amplitudes/detail/channel_weights.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/amplitudes/rambo.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/spaces.hpp"

namespace hepex::amplitudes {
namespace {

TEST(ChannelWeights, EmbeddedTablesMatchTheData) {
  for (const Process process : all_processes()) {
    const auto& info = process_info(process);
    const auto table = detail::channel_table(process);
    std::ifstream in(test::process_file(info, "_channels.txt"));
    ASSERT_TRUE(in) << info.name;
    std::string line;
    int configurations = 0;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      int config = 0, diagram = 0;
      fields >> config >> diagram;
      ASSERT_EQ(config, configurations + 1) << info.name;
      EXPECT_EQ(table.config_diagram[configurations], diagram) << info.name << " " << config;
      for (int i = 0; i < table.propagators; ++i) {
        int d1 = 0, d2 = 0;
        std::string kind, mass, width;
        ASSERT_TRUE(fields >> d1 >> d2 >> kind >> mass >> width) << info.name << " " << config;
        const signed char* node = table.forest + (configurations * table.propagators + i) * 3;
        EXPECT_EQ(node[0], d1);
        EXPECT_EQ(node[1], d2);
        EXPECT_EQ(node[2], (kind == "t") * detail::t_channel_flag +
                               (mass == "MT") * detail::top_mass_flag +
                               (width == "WT") * detail::top_width_flag)
            << info.name << " " << config << " propagator " << i;
      }
      ++configurations;
    }
    EXPECT_EQ(configurations, table.configurations) << info.name;
    EXPECT_EQ(table.propagators, info.particles - 3);
    EXPECT_EQ(table.configurations, amplitudes::configurations(process)) << "icolamp, configs.inc";
  }
}

// One row of the reference: event, run setting, the channel and its weight.
struct WeightRow {
  std::size_t event;
  double stot, tmin;
  int channel;
  double weight;
};

class ChannelWeightsReference : public ::testing::TestWithParam<Process> {};

// |M|^2 with a channel over |M|^2 without equals MadGraph's weight on every
// event, three channels each, in both run settings (the second cuts t): on
// the host to 1e-14 (measured: 2.2e-16, as MadGraph's Fortran rounds); on a
// GPU, whose fused multiply-adds round each propagator's t differently in
// the last bit, which a nearly on-shell propagator (|t - M^2| << E^2) and
// the t cut's exp((x - tmin) / (x + 1)) near x = -1 enlarge, to 1e-11
// (measured on an H200: up to 4.7e-12 for gg_ttggg, 1.9e-13 for gg_tt).
TEST_P(ChannelWeightsReference, MadGraphsWeightsOnEveryEvent) {
  const Process process = GetParam();
  const auto& info = process_info(process);
  const std::size_t events = test::events_for(process, 768);
  const auto ref = test::read_reference(info, true, events);
  ASSERT_EQ(ref.size(), events);
  std::map<std::pair<double, double>, std::vector<WeightRow>> settings;
  for (const auto& row :
       test::read_rows(test::madgraph_file(std::string(info.name) + "_channel_weights_ref.txt"))) {
    ASSERT_EQ(row.size(), 5u);
    const WeightRow r{std::size_t(row[0]), row[1], row[2], int(row[3]), row[4]};
    if (r.event < events) settings[{r.stot, r.tmin}].push_back(r);
  }
  ASSERT_EQ(settings.size(), 2u);
  int cut = 0;
  for (const auto& [setting, rows] : settings) {
    ASSERT_EQ(rows.size(), 3 * events);
    const double tolerance = has_accelerator ? 1e-11 : 1e-14;
    MatrixElementOptions options;
    options.run = {setting.first, setting.second};
    MatrixElement me(process, options);
    const auto plain = me.evaluate(ref.momenta);
    double worst = 0, smallest = 1;
    for (std::size_t k = 0; k < 3; ++k) {
      EventInputs inputs;
      for (std::size_t e = 0; e < events; ++e) {
        ASSERT_EQ(rows[3 * e + k].event, e);
        inputs.channel.push_back(rows[3 * e + k].channel);
      }
      const auto weighted = me.evaluate(ref.momenta, inputs);
      for (std::size_t e = 0; e < events; ++e) {
        const auto& r = rows[3 * e + k];
        const double error = std::fabs(weighted.me[e] / plain[e] / r.weight - 1);
        worst = std::max(worst, error);
        smallest = std::min(smallest, r.weight);
        EXPECT_LT(error, tolerance) << info.name << " event " << e << " channel " << r.channel
                                    << " stot " << r.stot << " tmin " << r.tmin;
      }
    }
    if (setting.second > -1) ++cut;
    std::cout << "[ " << info.name << " ] stot " << setting.first << ", tmin " << setting.second
              << ": weight max relative error " << worst << " (weights down to " << smallest
              << ") on " << 3 * events << " event channels\n";
  }
  EXPECT_EQ(cut, 1);
}

// MadGraph's weights (make_channel_reference.sh) exist for the gluon
// processes; the quark processes' channels are checked by
// AddUpToOneOverTheChannels and MergedPropagatorsGiveTheSameBits.
INSTANTIATE_TEST_SUITE_P(Processes, ChannelWeightsReference,
                         ::testing::ValuesIn(test::family_processes("top_line_gluons")),
                         [](const auto& info) {
                           return std::string(process_info(info.param).name);
                         });

// Over all channels the weights of an event add up to 1 (what makes the sum
// of MadEvent's channel integrals the cross section), with and without the
// t cut.
TEST(ChannelWeights, AddUpToOneOverTheChannels) {
  for (const Process process : all_processes()) {
    const auto& info = process_info(process);
    const std::size_t events = process == Process::gg_ttggg ? 8 : 64;
    const auto ref = test::read_reference(info, true, events);
    Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace> p("p", events, info.particles,
                                                                     4);
    for (std::size_t e = 0; e < events; ++e)
      for (int i = 0; i < info.particles; ++i)
        for (int mu = 0; mu < 4; ++mu) p(e, i, mu) = ref.momenta[(e * info.particles + i) * 4 + mu];
    const auto table = detail::channel_table(process);
    for (const detail::ChannelConstants k : {detail::ChannelConstants{173, 1.4915, 1.69e8, -1},
                                             detail::ChannelConstants{173, 1.4915, 2.25e6, -0.3}}) {
      for (std::size_t e = 0; e < events; ++e) {
        double sum = 0;
        for (int c = 1; c <= table.configurations; ++c) {
          const double w = detail::channel_weight(table, k, p, e, c);
          EXPECT_TRUE(w > 0 && (w < 1 || table.configurations == 1))
              << info.name << " event " << e << " configuration " << c;
          sum += w;
        }
        EXPECT_NEAR(sum, 1.0, 1e-12) << info.name << " event " << e;
      }
    }
  }
}

// The host's weights from merged propagators (channel_weight_by_nodes) are
// the per-configuration ones (channel_weight, the GPU's) bit for bit, for
// every configuration of gg_tt to gg_ttgg and 96 of gg_ttggg's 945, on RAMBO events of several
// seeds and energies (near threshold, where t-channel propagators get small, and high), with and
// without the t cut; and the merging keeps within most_channel_nodes and shares what it should
// (gg_ttggg: 3780 propagators, 691 nodes).
TEST(ChannelWeights, MergedPropagatorsGiveTheSameBits) {
  const std::map<std::string, int> expected_nodes{
      {"gg_tt", 3}, {"gg_ttg", 20}, {"gg_ttgg", 104}, {"gg_ttggg", 691}};
  for (const Process process : all_processes()) {
    const auto& info = process_info(process);
    const auto table = detail::channel_table(process);
    if (expected_nodes.count(info.name)) {
      EXPECT_EQ(table.node_count, expected_nodes.at(info.name)) << info.name;
    }
    EXPECT_LE(table.node_count, detail::most_channel_nodes);
    const std::size_t events = process == Process::gg_ttggg ? 6 : 24;
    // every configuration up to 105 (gg_ttgg); of gg_ttggg's 945 every
    // tenth and the last
    std::vector<int> configurations;
    const int step = table.configurations > 105 ? 10 : 1;
    for (int c = 1; c <= table.configurations; c += step) configurations.push_back(c);
    if (configurations.back() != table.configurations)
      configurations.push_back(table.configurations);
    for (const std::uint64_t seed : {20261128u, 7u}) {
      for (const double sqrt_s : {2 * top_mass * 1.05 + 60, 1500.0, 14000.0}) {
        Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace> p("p", events,
                                                                         info.particles, 4);
        rambo(Kokkos::DefaultHostExecutionSpace(), p, sqrt_s, seed);
        for (const detail::ChannelConstants k :
             {detail::ChannelConstants{173, 1.4915, 1.69e8, -1},
              detail::ChannelConstants{173, 1.4915, 2.25e6, -0.3}}) {
          for (std::size_t e = 0; e < events; ++e) {
            for (const int c : configurations) {
              const double by_nodes = detail::channel_weight_by_nodes(table, k, p, e, c);
              const double alone = detail::channel_weight(table, k, p, e, c);
              ASSERT_EQ(by_nodes, alone)
                  << info.name << " seed " << seed << " sqrt(s) " << sqrt_s << " event " << e
                  << " configuration " << c << " tmin " << k.tmin;
            }
          }
        }
      }
    }
  }
}

// The colour of an event with a channel and igraph 0 comes from the
// channel's configuration (CUDACPP's channel2iconfig); igraph, where not 0,
// decides instead.
TEST(ChannelWeights, ColourFromTheChannelsConfiguration) {
  for (const Process process : {Process::gg_ttg, Process::gg_ttgg}) {
    const auto& info = process_info(process);
    const auto ref = test::read_reference(info, true, 64);
    const std::size_t events = ref.size();
    const auto table = detail::channel_table(process);
    EventInputs with_channel, with_igraph;
    for (std::size_t e = 0; e < events; ++e) {
      const int config = 1 + int(e * 13 % table.configurations);
      const double r = (e + 0.5) / events;
      with_channel.rndcol.push_back(r);
      with_channel.channel.push_back(table.config_diagram[config - 1]);
      with_channel.igraph.push_back(e % 2 == 0 ? 0 : 1 + int(e * 7 % table.configurations));
      with_igraph.rndcol.push_back(r);
      with_igraph.igraph.push_back(with_channel.igraph[e] != 0 ? with_channel.igraph[e] : config);
    }
    MatrixElement me(process);
    const auto a = me.evaluate(ref.momenta, with_channel);
    const auto b = me.evaluate(ref.momenta, with_igraph);
    for (std::size_t e = 0; e < events; ++e) {
      EXPECT_EQ(a.selcol[e], b.selcol[e]) << info.name << " event " << e;
      EXPECT_GE(a.selcol[e], 1);
    }
  }
}

TEST(ChannelWeights, BadChannelsAreRefused) {
  const auto& info = process_info(Process::gg_ttgg);
  const auto ref = test::read_reference(info, true, 4);
  MatrixElement me(Process::gg_ttgg);
  for (const auto& [channel, message] :
       {std::pair{-1, "event 2: channel = -1 is not in [0, 123]"},
        std::pair{124, "event 2: channel = 124 is not in [0, 123]"},
        std::pair{1,
                  "event 2: channel = 1: diagram 1 of gg_ttgg has no integration configuration"}}) {
    EventInputs inputs;
    inputs.channel = {2, 3, channel, 5};
    try {
      me.evaluate(ref.momenta, inputs);
      ADD_FAILURE() << "no error for channel " << channel;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
  EventInputs short_list;
  short_list.channel = {2, 3};
  EXPECT_THROW(me.evaluate(ref.momenta, short_list), Error);
  MatrixElementOptions options;
  options.run.tmin_for_channel = -0.5;  // a t cut needs the collider's s
  EXPECT_THROW(MatrixElement(Process::gg_tt, options), Error);
}

}  // namespace
}  // namespace hepex::amplitudes
