// `hepex me`: LO matrix elements of g g -> t tbar + n g (docs/cli.md "Matrix elements").
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/amplitudes/rambo.hpp"
#include "hepex/config.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/io/momenta_file.hpp"
#include "hepex/io/number_lines.hpp"
#include "job_options.hpp"
#include "mpi_session.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "progress_lines.hpp"

namespace hepex::cli {

namespace {

using namespace hepex::amplitudes;

struct MeOptions {
  std::string process;
  std::size_t events = 16384;
  std::uint64_t seed = 20261122;
  double sqrt_s = 1500.0;
  std::string precision = "double";
  std::string colour_sum = "kernel";
  std::string simd = "auto";
  std::string momenta_path;
  std::string select_path;
  std::string param_card, run_card;
  std::string out_path;
  std::string json_path;
  std::size_t batches = 0;  // 0: one batch, time printed on stdout
  double momentum_tolerance = 0;  // 0: MomentumTolerance's defaults
  bool keep_nonfinite = false;
  std::string backend = has_accelerator ? "device" : "host";  // checked by the option
  bool verbose = false;
  JobCliOptions jobs;
};


// One RAMBO batch: events [batch N, (batch + 1) N) of the stream `seed`, so
// that B batches of N are the events of one run of B N. Returns the sum of
// their MEs (added on the host in event order: the same bits on any rank) and
// the seconds of the evaluation alone (momenta on the device -> MEs there).
struct BatchResult {
  double sum = 0;
  double seconds = 0;
};

BatchResult evaluate_batch(MatrixElement& me, const MeOptions& o, std::size_t batch) {
  const auto& info = me.info();
  MomentaView<MatrixElement::Memory> momenta("hepex::me_momenta", o.events, info.particles, 4);
  rambo(DeviceSpace(), momenta, o.sqrt_s, o.seed, batch * o.events,
        me.options().parameters.top_mass);
  Kokkos::View<double*, MatrixElement::Memory> values("hepex::me_values", o.events);
  DeviceSpace().fence();
  const auto start = std::chrono::steady_clock::now();
  me.evaluate(momenta, values);
  BatchResult result;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  for (std::size_t e = 0; e < o.events; ++e) result.sum += host(e);
  return result;
}

// A RAMBO batch's momenta and MEs against the memory they live in (the
// device's, and the host's for the copy of the MEs); exit 1 with the
// estimate, before any allocation, when they cannot fit.
void check_batch_memory(std::size_t events, int particles) {
  const std::size_t per_event = (4 * static_cast<std::size_t>(particles) + 1) * sizeof(double);
  std::size_t limit = host_memory_bytes();
  const auto found = devices();
  if (has_accelerator && !found.empty()) limit = std::min(limit, found.front().memory_bytes);
  if (events <= limit / per_event) return;
  std::ostringstream message;
  message << std::setprecision(3) << "--events " << events << ": a batch needs "
          << static_cast<long double>(events) * per_event / (1u << 30)
          << " GiB for its momenta and MEs, more than the " << static_cast<double>(limit) / (1u << 30)
          << " GiB of memory";
  throw Error(message.str());
}

std::string hexfloat(double x) {
  std::ostringstream text;
  text << std::hexfloat << x;
  return text.str();
}

// The --json summary of a RAMBO run (nothing without --json).
void emit_summary(const MeOptions& o, const ProcessInfo& info, const MatrixElementOptions& options,
                  const MatrixElement& me, Outputs& outputs, const std::vector<BatchResult>& batch,
                  bool batched, double wall, double evaluation_seconds, double mean) {
  if (!outputs.json.is_file()) return;
  const auto& comm = communicator();
  const std::size_t batches = batch.size();
  const double events = static_cast<double>(batches) * static_cast<double>(o.events);
  nlohmann::json means = nlohmann::json::array();
  for (const auto& b : batch) means.push_back(b.sum / static_cast<double>(o.events));
  emit_json(outputs.json, {{"command", "me"},
                           {"process", info.name},
                           {"events", o.events},
                           {"batches", batches},
                           {"ranks", comm.size()},
                           {"sqrt_s", o.sqrt_s},
                           {"seed", o.seed},
                           {"precision", precision_name(options.precision)},
                           {"colour_sum", o.colour_sum},
                           {"simd", simd_name(me.options().simd)},
                           {"good_helicities", me.good_helicities().size()},
                           {"execution_space", DeviceSpace::name()},
                           {"seconds", batched ? wall : evaluation_seconds},
                           {"evaluation_seconds", evaluation_seconds},
                           {"mes_per_second", events / (batched ? wall : evaluation_seconds)},
                           {"mean_me", mean},
                           {"batch_mean_me", means},
                           {"me_units", info.me_units}});
}

// RAMBO runs: --batches B (default 1) jobs of --events N each, spread over the
// MPI ranks (docs/cli.md "Many jobs, many ranks"). A job's result is the exact sum
// of its MEs and its evaluation time. With --batches the standard output holds
// only what does not depend on the run (per-batch and overall mean ME), so it
// is byte-identical for any rank count; times and throughput go to stderr and
// --json. Without it, the single batch prints its time as before.
void run_rambo_batches(const MeOptions& o, Process process, const MatrixElementOptions& options,
                       Outputs& outputs) {
  const auto& comm = communicator();
  const auto& info = process_info(process);
  const bool batched = o.batches > 0;
  const std::size_t batches = batched ? o.batches : 1;
  check_batch_memory(o.events, info.particles);
  MatrixElement me(process, options);
  std::ostringstream identity;
  identity << "me\n" << info.name << ' ' << o.events << ' ' << o.seed << ' ' << hexfloat(o.sqrt_s)
           << ' ' << precision_name(options.precision) << ' ' << o.colour_sum << ' ' << batches
           << ' ' << simd_name(me.options().simd)  // lane widths round differently
           << ' ' << hexfloat(options.parameters.top_mass) << ' '
           << hexfloat(options.parameters.top_width) << ' ' << hexfloat(options.parameters.alpha_s);
  const auto run = [&](const std::vector<std::size_t>& jobs) {
    std::vector<std::string> results;
    for (const std::size_t b : jobs) {
      const BatchResult r = evaluate_batch(me, o, b);
      results.push_back(hexfloat(r.sum) + ' ' + hexfloat(r.seconds));
      if (o.verbose && comm.rank() == 0) {
        std::cerr << "me: batch " << b + 1 << " of " << batches << ": " << o.events
                  << " events in " << r.seconds << " s\n";
      }
    }
    return results;
  };
  const auto start = std::chrono::steady_clock::now();
  const auto results =
      distributed::run_jobs(comm, batches, run, job_options(o.jobs, identity.str()));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (comm.rank() != 0) return;

  std::ostream& out = outputs.out.stream();
  std::vector<BatchResult> batch(batches);
  double sum = 0, evaluation_seconds = 0;
  for (std::size_t b = 0; b < batches; ++b) {
    std::istringstream fields(results[b]);
    std::string a, c;
    fields >> a >> c;
    batch[b] = {std::strtod(a.c_str(), nullptr), std::strtod(c.c_str(), nullptr)};
    if (!std::isfinite(batch[b].sum) && !o.keep_nonfinite) {
      throw Error("batch " + std::to_string(b) + ": the sum of its MEs is " +
                  std::to_string(batch[b].sum) + " (--keep-nonfinite prints it anyway)");
    }
    sum += batch[b].sum;
    evaluation_seconds += batch[b].seconds;
  }
  const double events = static_cast<double>(batches) * static_cast<double>(o.events);
  const double mean = sum / events;
  out << "process " << info.name << ", ";
  if (batched) out << batches << " batches of ";
  out << o.events << " RAMBO events at sqrt(s) = " << o.sqrt_s << " GeV, seed " << o.seed
      << ", precision " << precision_name(options.precision) << ", colour sum " << o.colour_sum
      << ", " << me.good_helicities().size() << "/" << info.helicity_combinations
      << " good helicities, " << DeviceSpace::name();
  if (HEPEX_HAS_ME_LANES) {
    out << ", simd " << simd_name(me.options().simd) << " (" << me.options().events_per_team
        << " events per pack)";
  }
  out << '\n';
  std::ostringstream times;
  times << std::setprecision(6) << "time " << (batched ? wall : evaluation_seconds)
        << " s, throughput " << events / (batched ? wall : evaluation_seconds) << " MEs/s";
  if (batched) {
    times << " (" << comm.size() << " ranks, wall clock incl. RAMBO; evaluation alone "
          << evaluation_seconds << " s summed over batches)";
    for (std::size_t b = 0; b < batches; ++b) {
      out << std::setprecision(10) << "batch " << b << ": mean ME "
          << batch[b].sum / static_cast<double>(o.events) << ' ' << info.me_units << '\n';
    }
    std::cerr << times.str() << '\n';
  } else {
    out << times.str() << '\n';
  }
  out << std::setprecision(10) << "mean ME " << mean << ' ' << info.me_units << '\n';
  // The summary first: a --json that cannot be written leaves --out as it
  // was and standard output empty (it is held until then).
  emit_summary(o, info, options, me, outputs, batch, batched, wall, evaluation_seconds, mean);
  outputs.out.commit();
}

// --select: per event "gs rndhel rndcol", "gs rndhel rndcol igraph" or "gs
// rndhel rndcol igraph channel" (the same form on every line), in the order
// of the --momenta events; checked (messages name the line) before any work.
struct SelectFile {
  EventInputs inputs;
  std::vector<std::size_t> lines;
};

SelectFile read_select_file(const std::string& path, const ProcessInfo& info,
                            std::size_t events) {
  std::ifstream in(path);
  if (!in) throw Error("--select: cannot read '" + path + "'");
  SelectFile file;
  EventInputs& inputs = file.inputs;
  const auto lines = io::read_number_lines(in, path);
  for (const auto& line : lines) {
    const auto where = path + ":" + std::to_string(line.line) + ": ";
    const std::size_t columns = lines.front().values.size();
    if (columns < 3 || columns > 5 || line.values.size() != columns) {
      throw Error(where + std::to_string(line.values.size()) + " numbers, expected " +
                  (columns == 5   ? "5 (gs rndhel rndcol igraph channel, as the first line)"
                   : columns == 4 ? "4 (gs rndhel rndcol igraph, as the first line)"
                                  : "3 (gs rndhel rndcol), 4 (... igraph) or 5 (... igraph channel)"));
    }
    inputs.gs.push_back(line.values[0]);
    inputs.rndhel.push_back(line.values[1]);
    inputs.rndcol.push_back(line.values[2]);
    if (columns >= 4) {
      const double igraph = line.values[3];
      if (!(igraph >= 0 && igraph <= 1e9) || igraph != std::floor(igraph)) {
        throw Error(where + "igraph " + std::to_string(igraph) + " is not a whole number >= 0");
      }
      inputs.igraph.push_back(static_cast<int>(igraph));
    }
    if (columns == 5) {
      const double channel = line.values[4];
      if (!(channel >= 0 && channel <= 1e9) || channel != std::floor(channel)) {
        throw Error(where + "channel " + std::to_string(channel) + " is not a whole number >= 0");
      }
      inputs.channel.push_back(static_cast<int>(channel));
    }
    file.lines.push_back(line.line);
  }
  if (file.lines.size() != events) {
    throw Error("--select " + path + ": " + std::to_string(file.lines.size()) + " lines for " +
                std::to_string(events) + " events of --momenta");
  }
  try {
    check_event_inputs(info, events, inputs);
  } catch (const EventInputError& e) {
    throw Error(path + ":" + std::to_string(file.lines[e.event()]) + ": " + e.detail());
  }
  return file;
}

// --momenta: the events of a file, each checked (messages name its line),
// then one line per event: the momenta and the ME, or with --select the ME
// and the chosen helicity and colour flow. A non-finite ME (an event too
// close to a soft or collinear singularity) is an error naming the line
// unless --keep-nonfinite.
void run_given_events(const MeOptions& o, Process process, const MatrixElementOptions& options,
                      Outputs& outputs) {
  const auto& info = process_info(process);
  const std::string name = o.momenta_path == "-" ? "stdin" : o.momenta_path;
  io::MomentaFile events;
  if (o.momenta_path == "-") {
    events = io::read_momenta_file(std::cin, name, info.particles);
  } else {
    std::ifstream in(o.momenta_path);
    if (!in) throw Error("--momenta: cannot read '" + o.momenta_path + "'");
    events = io::read_momenta_file(in, name, info.particles);
  }
  const auto& momenta = events.momenta;
  const auto line = [&](std::size_t e) { return name + ":" + std::to_string(events.lines[e]); };
  MomentumTolerance tolerance;
  if (o.momentum_tolerance > 0) tolerance = {o.momentum_tolerance, o.momentum_tolerance};
  try {
    check_momenta(info, momenta.data(), momenta.size(), MomentumCheck::on_shell, tolerance,
                  options.parameters.top_mass);
  } catch (const MomentumError& e) {
    throw Error(line(e.event()) + ": " + e.detail());
  }
  const std::size_t count = events.lines.size();
  const bool select = !o.select_path.empty();
  const SelectFile choices = select ? read_select_file(o.select_path, info, count) : SelectFile{};
  MatrixElement me(process, options);
  const auto start = std::chrono::steady_clock::now();
  const auto results = me.evaluate(momenta, choices.inputs, MomentumCheck::on_shell, tolerance);
  if (o.verbose) {
    std::cerr << "me: " << count << " events of " << name << " in "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
              << " s\n";
  }
  const auto& values = results.me;
  for (std::size_t e = 0; e < values.size() && !o.keep_nonfinite; ++e) {
    if (!std::isfinite(values[e])) {
      throw Error(line(e) + ": the ME is " + std::to_string(values[e]) +
                  " (the event is too close to a soft or collinear singularity; "
                  "--keep-nonfinite writes it anyway)");
    }
  }
  const std::size_t per_event = 4 * info.particles;
  std::ostream& out = outputs.out.stream();
  out << std::setprecision(std::numeric_limits<double>::max_digits10);
  for (std::size_t e = 0; e < values.size(); ++e) {
    if (select) {
      out << values[e] << ' ' << results.selhel[e] << ' ' << results.selcol[e] << '\n';
      continue;
    }
    for (std::size_t k = 0; k < per_event; ++k) out << momenta[e * per_event + k] << ' ';
    out << values[e] << '\n';
  }
  outputs.out.commit();
}

void run_me(const MeOptions& o) {
  const Process process = parse_process(o.process);
  const auto& info = process_info(process);
  MatrixElementOptions options;
  options.precision = parse_precision(o.precision);
  options.colour_sum = parse_colour_sum(o.colour_sum);
  options.simd = parse_simd(o.simd);
  if (!o.param_card.empty()) options.parameters = read_param_card(o.param_card);
  if (!o.run_card.empty()) options.run = read_run_card(o.run_card);
  if (!o.momenta_path.empty() && o.batches > 0) throw Error("--batches is for RAMBO runs, not --momenta");
  if (!o.select_path.empty() && o.momenta_path.empty()) {
    throw Error("--select chooses helicities and colours for the events of --momenta");
  }
  const bool rank0 = communicator().rank() == 0;
  // Given events are one job, done by rank 0 (it alone sees stdin under mpiexec).
  if (!o.momenta_path.empty() && !rank0) return;

  if (!o.momenta_path.empty() && !o.json_path.empty()) {
    throw Error("--json is for RAMBO runs, not --momenta");
  }
  // Opened before any work; written only at the end, so --out may even name
  // the --momenta file.
  auto outputs = o.momenta_path.empty() ? open_outputs(o.out_path, o.json_path, communicator())
                                        : open_outputs(o.out_path, "");

  if (!o.momenta_path.empty()) {
    run_given_events(o, process, options, outputs);
    return;
  }

  run_rambo_batches(o, process, options, outputs);
}

}  // namespace

void add_me_command(CLI::App& app) {
  auto o = std::make_shared<MeOptions>();
  auto* me = app.add_subcommand("me", "LO matrix elements of g g -> t tbar + 0..3 gluons");
  me->add_option("--process", o->process, "gg_tt, gg_ttg, gg_ttgg or gg_ttggg (required)")
      ->required();
  me->add_option("--events", o->events, "number of RAMBO events (without --momenta)")
      ->check(whole_number(1));
  me->add_option("--seed", o->seed, "RAMBO random seed")->check(whole_number());
  me->add_option("--sqrts", o->sqrt_s, "collision energy sqrt(s) [GeV]")->check(finite_positive());
  me->add_option("--precision", o->precision, "double, float or mixed");
  me->add_option("--colour-sum", o->colour_sum, "kernel or blas (blas: double only)");
  me->add_option("--backend", o->backend,
                 "the default execution space: device if the build has one (host only in "
                 "builds without)")
      ->check(default_space_backend("me"));
  me->add_flag("-v,--verbose", o->verbose,
               "progress on stderr: each batch's events and time (default: off)");
  me->add_option("--simd", o->simd,
                 "host kernel instruction set: auto (the widest this CPU has), none, sse, avx2 "
                 "or avx512");
  me->add_option("--momenta", o->momenta_path,
                 "events to evaluate, one per line ('-': stdin; default: RAMBO events)");
  me->add_option("--select", o->select_path,
                 "--momenta: per event a line 'gs rndhel rndcol [igraph [channel]]' (strong "
                 "coupling, uniform random numbers in [0, 1), MadEvent's diagram configuration "
                 "and channel id); writes 'ME selhel selcol' per event: the ME at that gs (times "
                 "the channel's multichannel weight) and the helicity and colour flow chosen as "
                 "MadGraph does (default: none)");
  me->add_option("--param-card", o->param_card,
                 "MadGraph param_card.dat: top mass and width (MT, WT) and alpha_s (aS) "
                 "(default: none, i.e. 173, 1.4915, 0.118)");
  me->add_option("--run-card", o->run_card,
                 "MadGraph run_card.dat: the collider's s and tmin_for_channel of the channel "
                 "weights (default: none, i.e. no regulator, no t cut)");
  me->add_option("--out", o->out_path, "write to FILE (default: standard output)");
  me->add_option("--momentum-tolerance", o->momentum_tolerance,
                 "--momenta: relative tolerance of the momentum conservation and mass-shell "
                 "checks (default 0: 1e-9 and 1e-6)")
      ->check(finite_non_negative());
  me->add_flag("--keep-nonfinite", o->keep_nonfinite,
               "write non-finite MEs (events at a singularity) instead of failing (default: "
               "off)");
  me->add_option("--json", o->json_path, "RAMBO runs: write a JSON summary to FILE (default: none)");
  me->add_option("--batches", o->batches,
                 "RAMBO runs: B jobs of --events each (spread over MPI ranks; default 0: one "
                 "batch, its time on stdout)")
      ->check(whole_number(0, std::size_t{1} << 30));
  add_job_options(*me, o->jobs, 1);
  me->callback([o] {
    const auto watch = verbose_progress(o->verbose, communicator().rank());
    run_me(*o);
  });
}

}  // namespace hepex::cli
