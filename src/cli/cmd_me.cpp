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
#include "hepex/amplitudes/jobs.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/amplitudes/rambo.hpp"
#include "hepex/config.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/io/momenta_file.hpp"
#include "hepex/io/select_file.hpp"
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
  std::size_t batches = 0;        // 0: one batch, time printed on stdout
  double momentum_tolerance = 0;  // 0: MomentumTolerance's defaults
  bool keep_nonfinite = false;
  std::string backend = has_accelerator ? "device" : "host";  // checked by the option
  bool verbose = false;
  JobCliOptions jobs;
};

// The --json summary of a RAMBO run (nothing without --json).
void emit_summary(const MeOptions& o, const ProcessInfo& info, const MatrixElementOptions& options,
                  const MatrixElement& me, Outputs& outputs, const std::vector<RamboBatch>& batch,
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
  check_batch_memory(o.events, info);
  MatrixElement me(process, options);
  RamboBatchSettings settings;
  settings.events = o.events;
  settings.batches = batches;
  settings.seed = o.seed;
  settings.sqrt_s = o.sqrt_s;
  if (o.verbose && comm.rank() == 0) settings.progress = &std::cerr;
  RamboBatchJobs jobs(me, settings);
  const auto start = std::chrono::steady_clock::now();
  const auto batch = distributed::run(comm, jobs, run_options(o.jobs));
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (comm.rank() != 0) return;

  std::ostream& out = outputs.out.stream();
  double sum = 0, evaluation_seconds = 0;
  for (std::size_t b = 0; b < batches; ++b) {
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

SelectFile read_select_file(const std::string& path, const ProcessInfo& info, std::size_t events) {
  std::ifstream in(path);
  if (!in) throw Error("--select: cannot read '" + path + "'");
  const io::SelectFile read = io::read_select_file(in, path);
  SelectFile file;
  file.inputs.gs = read.gs;
  file.inputs.rndhel = read.rndhel;
  file.inputs.rndcol = read.rndcol;
  file.inputs.igraph = read.igraph;
  file.inputs.channel = read.channel;
  file.lines = read.lines;
  EventInputs& inputs = file.inputs;
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
  if (!o.momenta_path.empty() && o.batches > 0)
    throw Error("--batches is for RAMBO runs, not --momenta");
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
  auto* me = app.add_subcommand("me", "LO matrix elements (the processes of --process)");
  me->add_option("--process", o->process, "one of " + amplitudes::process_names() + " (required)")
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
  me->add_option("--json", o->json_path,
                 "RAMBO runs: write a JSON summary to FILE (default: none)");
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
