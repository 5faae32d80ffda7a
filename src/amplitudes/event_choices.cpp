// The per-event inputs of an evaluation (matrix_element.hpp, EventInputs):
// MadGraph's icolamp tables and the validation of the inputs.
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "hepex/amplitudes/detail/channel_weights.hpp"
#include "hepex/amplitudes/detail/event_choices.hpp"
#include "hepex/amplitudes/detail/process_registry.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/core/error.hpp"

namespace hepex::amplitudes {

int configurations(Process process) { return detail::flow_choice_table(process).configurations; }

int diagrams(Process process) { return detail::channel_table(process).diagrams; }

int configuration_channel(Process process, int configuration) {
  const auto table = detail::channel_table(process);
  if (configuration < 1 || configuration > table.configurations) {
    throw Error("configuration " + std::to_string(configuration) + " is not in [1, " +
                std::to_string(table.configurations) + "]");
  }
  return table.config_diagram[configuration - 1];
}

namespace {

std::string number(double x) {
  std::ostringstream text;
  text << std::setprecision(16) << x;
  return text.str();
}

}  // namespace

void check_event_inputs(const ProcessInfo& process, std::size_t events, const EventInputs& inputs) {
  const auto check_size = [&](std::size_t size, const char* name) {
    if (size != 0 && size != events) {
      throw Error(std::string(name) + ": " + std::to_string(size) + " values for " +
                  std::to_string(events) + " events");
    }
  };
  check_size(inputs.gs.size(), "gs");
  check_size(inputs.rndhel.size(), "rndhel");
  check_size(inputs.rndcol.size(), "rndcol");
  check_size(inputs.igraph.size(), "igraph");
  check_size(inputs.channel.size(), "channel");
  if (inputs.rndcol.empty() && !inputs.igraph.empty()) {
    throw Error("igraph without rndcol: it restricts the colour flows that rndcol chooses from");
  }
  const auto fail = [](std::size_t e, const std::string& what) { throw EventInputError(e, what); };
  const auto uniform = [&](const std::vector<double>& r, const char* name) {
    for (std::size_t e = 0; e < r.size(); ++e) {
      if (!(r[e] >= 0 && r[e] < 1)) {
        fail(e, std::string(name) + " = " + number(r[e]) + " is not in [0, 1)");
      }
    }
  };
  for (std::size_t e = 0; e < inputs.gs.size(); ++e) {
    if (!(inputs.gs[e] > 0) || !std::isfinite(inputs.gs[e])) {
      fail(e, "gs = " + number(inputs.gs[e]) + " must be finite and > 0");
    }
  }
  uniform(inputs.rndhel, "rndhel");
  uniform(inputs.rndcol, "rndcol");
  const int most = configurations(process.process);
  for (std::size_t e = 0; e < inputs.igraph.size(); ++e) {
    if (inputs.igraph[e] < 0 || inputs.igraph[e] > most) {
      fail(e, "igraph = " + std::to_string(inputs.igraph[e]) + " is not in [0, " +
                  std::to_string(most) + "] (" + process.name + " has " + std::to_string(most) +
                  " diagram configurations; 0: the channel's, or any)");
    }
  }
  const auto channels = detail::channel_table(process.process);
  std::vector<bool> has_configuration(channels.diagrams + 1, false);
  for (int c = 0; c < channels.configurations; ++c) {
    has_configuration[channels.config_diagram[c]] = true;
  }
  for (std::size_t e = 0; e < inputs.channel.size(); ++e) {
    const int channel = inputs.channel[e];
    if (channel < 0 || channel > channels.diagrams) {
      fail(e, "channel = " + std::to_string(channel) + " is not in [0, " +
                  std::to_string(channels.diagrams) + "] (" + process.name + " has " +
                  std::to_string(channels.diagrams) + " diagrams; 0: no channel)");
    }
    if (channel != 0 && !has_configuration[channel]) {
      fail(e, "channel = " + std::to_string(channel) + ": diagram " + std::to_string(channel) +
                  " of " + process.name +
                  " has no integration configuration (a four-gluon vertex), so no MadEvent "
                  "channel");
    }
  }
}

}  // namespace hepex::amplitudes
