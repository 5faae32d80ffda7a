// The MatrixElement engine: precision dispatch, helicity streams, good
// helicities, and the host convenience API.
#include "hepex/amplitudes/matrix_element.hpp"

#include <algorithm>
#include <cmath>

#include "hepex/amplitudes/detail/channel_weights.hpp"
#include "hepex/amplitudes/detail/helicity_units.hpp"
#include "hepex/amplitudes/detail/process_registry.hpp"
#include "hepex/amplitudes/rambo.hpp"
#include "hepex/config.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/progress.hpp"

namespace hepex::amplitudes {

namespace {

using Memory = MatrixElement::Memory;

// Threads and events per team of the team kernel. On the host (the BLAS
// colour sum; Serial: one thread per team) one event per team. On a GPU the
// choice measured on the H100 with perf/amplitudes/run_me_shapes.sh
// (perf/results/amplitudes/README.md), by the process's size: one warp per
// unit and event at 6 particles (gg_ttgg: a larger team idles in the short
// steps and holds registers that other teams could use), four warps at 7
// (gg_ttggg: its widest steps have 120 and 240 items), and several events per
// warp-sized team for the small processes, whose steps have only a few items
// per event.
detail::TeamShape team_shape(int particles, const MatrixElementOptions& o) {
  detail::TeamShape shape{1, 1};
  if (has_accelerator) {
    if (particles <= 5) {
      shape = {32, 4};
    } else if (particles == 6) {
      shape = {32, 1};
    } else {
      shape = {128, 1};
    }
  }
  if (o.team_size != 0) shape.team_size = o.team_size;
  if (o.events_per_team != 0) shape.events_per_team = o.events_per_team;
  if (shape.team_size < 1 || shape.events_per_team < 1) {
    throw Error("team size and events per team must be at least 1 (0: automatic)");
  }
  return shape;
}

// Events of the probe batch that decides which helicities contribute.
constexpr int probe_events = 4;
constexpr std::uint64_t probe_seed = 20261122;
constexpr double probe_sqrt_s = 1500.0;  // or 4 top masses, for a heavier top

void check_parameters(const ModelParameters& p) {
  if (!(p.top_mass > 0) || !std::isfinite(p.top_mass)) {
    throw Error("top mass " + std::to_string(p.top_mass) + " GeV: must be > 0 and finite");
  }
  if (!(p.top_width >= 0) || !std::isfinite(p.top_width)) {
    throw Error("top width " + std::to_string(p.top_width) + " GeV: must be >= 0 and finite");
  }
  if (!(p.alpha_s > 0 && p.alpha_s < 1)) {
    throw Error("alpha_s " + std::to_string(p.alpha_s) + ": must be in (0, 1)");
  }
}

void check_run(const RunParameters& r) {
  if (!(r.collider_s >= 0) || !std::isfinite(r.collider_s)) {
    throw Error("collider s " + std::to_string(r.collider_s) + " GeV^2: must be >= 0 and finite");
  }
  if (!(r.tmin_for_channel >= -1 && r.tmin_for_channel <= 0)) {
    throw Error("tmin_for_channel " + std::to_string(r.tmin_for_channel) + ": must be in [-1, 0]");
  }
  if (r.tmin_for_channel > -1 && r.collider_s == 0) {
    throw Error("tmin_for_channel " + std::to_string(r.tmin_for_channel) +
                " cuts t / s: it needs the collider's s (> 0)");
  }
}

// `host` (n values) in a new View of Memory.
template <class T>
Kokkos::View<T*, Memory> copy_table(const T* host, std::size_t n, const char* label) {
  Kokkos::View<T*, Memory> device(std::string(label), n);
  Kokkos::deep_copy(device,
                    Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host, n));
  return device;
}

}  // namespace

bool detail::uses_lane_kernel(const MatrixElementOptions& options) {
  return HEPEX_HAS_ME_LANES && options.colour_sum == ColourSumMethod::kernel;
}

MatrixElement::MatrixElement(Process process, MatrixElementOptions options,
                             const DeviceSpace& instance)
    : info_(process_info(process)), options_(options) {
  const KokkosLock lock;
  check_parameters(options_.parameters);
  check_run(options_.run);
  if (options_.streams < 1) throw Error("streams must be at least 1");
  const detail::ProcessEntry& entry = detail::process_entry(process);
  lanes_ = entry.host_lanes && detail::uses_lane_kernel(options_);
  if (lanes_) {
    if (options_.team_size != 0 || options_.events_per_team != 0) {
      throw Error(
          "team size and events per team shape the GPU team kernel; the host kernel "
          "takes packs of events in SIMD lanes (--simd)");
    }
    options_.simd = resolve_simd(options_.simd);
    options_.team_size = 1;
    options_.events_per_team = simd_lanes(options_.simd, options_.precision);
  } else {
    if (options_.simd != Simd::automatic && options_.simd != Simd::none) {
      throw Error(std::string("--simd ") + simd_name(options_.simd) + ": " +
                  (!HEPEX_HAS_ME_LANES ? "this build evaluates matrix elements on the device"
                   : !entry.host_lanes
                       ? std::string(info_.name) + " has no SIMD host kernel yet (its family, " +
                             "for processes with quark lines, runs one event per thread)"
                       : "the BLAS colour sum runs the team kernel, without lanes"));
    }
    options_.simd = Simd::none;
    const auto shape = team_shape(info_.particles, options_);
    options_.team_size = shape.team_size;
    options_.events_per_team = shape.events_per_team;
  }
  evaluator_ = entry.make_evaluator(process, options_);
  // One instance: the caller's, so that the caller's work on it (RAMBO, say)
  // is ordered before ours; more: new instances, at most one per unit.
  const int instances = std::min(options_.streams, 1 << info_.gluons);
  streams_ = instances == 1 ? std::vector<DeviceSpace>{instance}
                            : compat::partition_instances(instance, instances);

  const auto table = detail::flow_choice_table(process);
  flow_words_ = table.words_per_configuration;
  flow_choices_ = Kokkos::View<std::uint64_t*, Memory>(
      "hepex::flow_choices", std::size_t(table.configurations) * flow_words_);
  Kokkos::deep_copy(flow_choices_,
                    Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        table.words, flow_choices_.extent(0)));

  const auto channels = detail::channel_table(process);
  channel_diagrams_ =
      copy_table(channels.config_diagram, channels.configurations, "hepex::channel_diagrams");
  channel_forest_ =
      copy_table(channels.forest, std::size_t(channels.configurations) * channels.propagators * 3,
                 "hepex::channel_forest");
  channel_nodes_ =
      copy_table(channels.nodes, std::size_t(channels.node_count) * 3, "hepex::channel_nodes");
  channel_config_nodes_ =
      copy_table(channels.config_nodes, std::size_t(channels.configurations) * channels.propagators,
                 "hepex::channel_config_nodes");
  std::vector<int> configuration(channels.diagrams + 1, 0);
  for (int d = 1; d <= channels.diagrams; ++d)
    configuration[d] = detail::channel_configuration(channels, d);
  diagram_configuration_ =
      copy_table(configuration.data(), configuration.size(), "hepex::diagram_configuration");

  const double mass = options_.parameters.top_mass;
  MomentaView<Memory> probe("hepex::probe_momenta", probe_events, info_.particles, 4);
  rambo(streams_[0], probe, std::max(probe_sqrt_s, 4 * mass), probe_seed, 0, mass);
  const auto me = per_helicity(probe);
  for (int h = 0; h < info_.helicity_combinations; ++h) {
    if (std::any_of(me.begin() + h * probe_events, me.begin() + (h + 1) * probe_events,
                    [](double x) { return x != 0; })) {
      good_.push_back(h);
    }
  }
  // Every process here has helicities with a non-zero |M|^2: none means the
  // kernels computed nothing (a broken device build), not a physics answer.
  if (good_.empty()) {
    throw Error(std::string(info_.name) + ": no helicity gives a non-zero |M|^2 on the probe " +
                    "events; the " + DeviceSpace::name() + " kernels computed nothing",
                ErrorKind::runtime);
  }
}

MatrixElement::~MatrixElement() = default;

std::vector<double> MatrixElement::per_helicity(const MomentaView<Memory>& momenta) {
  const KokkosLock lock;
  const std::size_t events = momenta.extent(0);
  std::vector<double> result(info_.helicity_combinations * events);
  Kokkos::View<double*, Memory> me("hepex::me_helicity", events);
  for (int h = 0; h < info_.helicity_combinations; ++h) {
    evaluator_->run({streams_[0]}, momenta, {h}, me, 1.0, {});
    streams_[0].fence();
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), me);
    std::copy(host.data(), host.data() + events, result.begin() + h * events);
  }
  return result;
}

void MatrixElement::evaluate(const MomentaView<Memory>& momenta,
                             const Kokkos::View<double*, Memory>& me,
                             const EventArguments& arguments) {
  const KokkosLock lock;
  evaluate_async(momenta, me, arguments);
  fence();
}

std::size_t MatrixElement::launch_teams(std::size_t events) const {
  const std::size_t per_team = options_.events_per_team;
  const std::size_t teams = (events + per_team - 1) / per_team;
  return lanes_ ? teams : detail::helicity_units(good_, info_.particles).size() * teams;
}

void MatrixElement::fence() const {
  for (const auto& s : streams_) s.fence();
}

void MatrixElement::evaluate_async(const MomentaView<Memory>& momenta,
                                   const Kokkos::View<double*, Memory>& me,
                                   const EventArguments& arguments) {
  const KokkosLock lock;  // while the work is launched (Serial and OpenMP run it here)
  const std::size_t events = momenta.extent(0);
  if (momenta.extent(1) != std::size_t(info_.particles) || momenta.extent(2) != 4 ||
      me.extent(0) != events) {
    throw Error(std::string(info_.name) + ": momenta must be (events, " +
                std::to_string(info_.particles) + ", 4) and me (events)");
  }
  const auto given = [&](const auto& view, const char* name) {
    if (view.extent(0) != 0 && view.extent(0) != events) {
      throw Error(std::string(name) + ": " + std::to_string(view.extent(0)) + " entries for " +
                  std::to_string(events) + " events");
    }
    return view.extent(0) != 0;
  };
  const bool gs = given(arguments.gs, "gs"), rndhel = given(arguments.rndhel, "rndhel"),
             rndcol = given(arguments.rndcol, "rndcol");
  const bool igraph = given(arguments.igraph, "igraph");
  const bool channel = given(arguments.channel, "channel");
  if (given(arguments.selhel, "selhel") != rndhel || given(arguments.selcol, "selcol") != rndcol ||
      (igraph && !rndcol)) {
    throw Error("selhel goes with rndhel, selcol (and igraph, if given) with rndcol");
  }
  if (events == 0) return;
  // Over several instances the units of one evaluation share per-event
  // counters (EventTotals) that the next evaluation's units must not see
  // before the last of this one has finished: wait for the previous one.
  if (streams_.size() > 1) fence();
  if (channel) weigh_channels(momenta, arguments, rndcol);
  detail::EventChoices choices;
  if (gs) choices.gs = arguments.gs.data();
  if (rndhel) {
    choices.rndhel = arguments.rndhel.data();
    choices.selhel = arguments.selhel.data();
  }
  if (rndcol) {
    choices.rndcol = arguments.rndcol.data();
    if (igraph) choices.igraph = arguments.igraph.data();
    if (channel) choices.igraph = colour_configuration_.data();
    choices.selcol = arguments.selcol.data();
    choices.flow_choices = flow_choices_.data();
    choices.flow_words = flow_words_;
  }
  // Without a gs per event, |M|^2 at the run's alpha_s: the kernels' at
  // reference_alpha_s times (alpha_s / reference_alpha_s)^coupling_power
  // (parameters.hpp); exactly 1 at the default.
  double scale = info_.averaging;
  if (!gs) {
    const double ratio = options_.parameters.alpha_s / reference_alpha_s;
    for (int v = 0; v < info_.coupling_power; ++v) scale /= ratio;
  }
  evaluator_->run(streams_, momenta, good_, me, scale, choices);
  if (channel) {
    if (streams_.size() > 1) fence();
    detail::scale_by_weights(streams_[0], me, channel_weights_);
  }
}

void MatrixElement::weigh_channels(const MomentaView<Memory>& momenta,
                                   const EventArguments& arguments, bool colour) {
  const std::size_t events = momenta.extent(0);
  if (channel_weights_.extent(0) < events) {
    channel_weights_ = Kokkos::View<double*, Memory>("hepex::channel_weights", events);
    colour_configuration_ = Kokkos::View<int*, Memory>("hepex::colour_configuration", events);
  }
  detail::ChannelTable table = detail::channel_table(info_.process);
  table.config_diagram = channel_diagrams_.data();
  table.forest = channel_forest_.data();
  table.nodes = channel_nodes_.data();
  table.config_nodes = channel_config_nodes_.data();
  const detail::ChannelConstants constants{options_.parameters.top_mass,
                                           options_.parameters.top_width, options_.run.collider_s,
                                           options_.run.tmin_for_channel};
  detail::launch_channel_weights(streams_[0], table, constants, momenta, arguments.channel,
                                 arguments.igraph, diagram_configuration_, channel_weights_,
                                 colour ? colour_configuration_ : Kokkos::View<int*, Memory>());
  // The kernels read colour_configuration on every instance.
  if (streams_.size() > 1) streams_[0].fence();
}

std::vector<double> MatrixElement::evaluate(const std::vector<double>& momenta, MomentumCheck check,
                                            const MomentumTolerance& tolerance) {
  return evaluate(momenta, EventInputs{}, check, tolerance).me;
}

namespace {

// `view` with n entries, reused where it has them (MadEvent asks for the same
// number of events every call), else allocated without initialising (every
// entry is written before it is read).
template <class View>
void fit(View& view, std::size_t n, const char* label) {
  if (view.extent(0) != n)
    view = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
}

// `host` into `device` (sized to it; empty for an empty vector).
template <class T>
Kokkos::View<T*, MatrixElement::Memory> to_device(const std::vector<T>& host,
                                                  Kokkos::View<T*, MatrixElement::Memory>& device,
                                                  const char* label) {
  fit(device, host.size(), label);
  Kokkos::deep_copy(device, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                host.data(), host.size()));
  return device;
}

template <class T>
std::vector<T> to_host(const Kokkos::View<T*, MatrixElement::Memory>& device) {
  std::vector<T> host(device.extent(0));
  Kokkos::deep_copy(
      Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()),
      device);
  return host;
}

}  // namespace

namespace {

// The events [first, first + count) of a per-event vector (all of an empty one).
template <class T>
std::vector<T> slice(const std::vector<T>& v, std::size_t first, std::size_t count) {
  if (v.empty()) return {};
  return std::vector<T>(v.begin() + first, v.begin() + first + count);
}

}  // namespace

EventResults MatrixElement::evaluate(const std::vector<double>& momenta, const EventInputs& inputs,
                                     MomentumCheck check, const MomentumTolerance& tolerance) {
  const KokkosLock lock;
  check_momenta(info_, momenta.data(), momenta.size(), check, tolerance,
                options_.parameters.top_mass);
  const std::size_t events = momenta.size() / (4 * info_.particles);
  check_event_inputs(info_, events, inputs);
  // Watched (the CLI's -v, Python): batches of about a quarter second each,
  // so that progress is reported and an interruption is seen between them;
  // else one batch.
  ProgressTask task("me", "events", static_cast<double>(events));
  const bool watched = ProgressWatch::current() != nullptr;
  EventResults results;
  std::size_t batch =
      watched ? std::min<std::size_t>(events, 64 * options_.events_per_team) : events;
  for (std::size_t first = 0; first < events;) {
    const std::size_t count = std::min(batch, events - first);
    const double start = progress_clock();
    const auto part = count == events
                          ? evaluate_batch(momenta.data(), events, inputs)
                          : evaluate_batch(momenta.data() + first * 4 * info_.particles, count,
                                           EventInputs{slice(inputs.gs, first, count),
                                                       slice(inputs.rndhel, first, count),
                                                       slice(inputs.rndcol, first, count),
                                                       slice(inputs.igraph, first, count),
                                                       slice(inputs.channel, first, count)});
    results.me.insert(results.me.end(), part.me.begin(), part.me.end());
    results.selhel.insert(results.selhel.end(), part.selhel.begin(), part.selhel.end());
    results.selcol.insert(results.selcol.end(), part.selcol.begin(), part.selcol.end());
    first += count;
    task.update(static_cast<double>(first));
    const double seconds = progress_clock() - start;
    if (watched && seconds < 0.1) batch *= 2;
  }
  return results;
}

EventResults MatrixElement::evaluate_batch(const double* momenta, std::size_t events,
                                           const EventInputs& inputs) {
  // The buffers of the previous call, where it had as many events (the
  // caller holds the KokkosLock).
  Buffers& b = buffers_;
  if (b.momenta.extent(0) != events) {
    b.momenta = MomentaView<Memory>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hepex::momenta")), events,
        info_.particles, 4);
  }
  // (the same View where Memory is the host's)
  if (b.host_momenta.extent(0) != events) b.host_momenta = Kokkos::create_mirror_view(b.momenta);
  const auto& host = b.host_momenta;
  for (std::size_t e = 0; e < events; ++e)
    for (int i = 0; i < info_.particles; ++i)
      for (int mu = 0; mu < 4; ++mu) host(e, i, mu) = momenta[(e * info_.particles + i) * 4 + mu];
  Kokkos::deep_copy(b.momenta, host);
  fit(b.me, events, "hepex::me");
  EventArguments arguments;
  arguments.gs = to_device(inputs.gs, b.gs, "hepex::gs");
  arguments.rndhel = to_device(inputs.rndhel, b.rndhel, "hepex::rndhel");
  arguments.rndcol = to_device(inputs.rndcol, b.rndcol, "hepex::rndcol");
  arguments.igraph = to_device(inputs.igraph, b.igraph, "hepex::igraph");
  arguments.channel = to_device(inputs.channel, b.channel, "hepex::channel");
  fit(b.selhel, inputs.rndhel.empty() ? 0 : events, "hepex::selhel");
  fit(b.selcol, inputs.rndcol.empty() ? 0 : events, "hepex::selcol");
  arguments.selhel = b.selhel;
  arguments.selcol = b.selcol;
  evaluate(b.momenta, b.me, arguments);
  return {to_host(b.me), to_host(b.selhel), to_host(b.selcol)};
}

}  // namespace hepex::amplitudes
