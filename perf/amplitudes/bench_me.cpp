// `hepex_bench me`: matrix-element throughput against the batch size, per
// process, precision and colour-sum method, as in the CUDACPP kernel-splitting
// paper's Fig. 4 (MEs/s against the number of events per launch).
//
// Timed: MatrixElement::evaluate from momenta already in the execution
// space's memory to |M|^2 there, ending with a fence (the helicity kernels,
// the colour sum and the sum over helicities). Not timed: RAMBO, reported
// apart, and the MatrixElement's construction (its good-helicity probe).
// In a GPU build this is the device; in a host build (Serial) the same
// command measures one CPU core.
//
// --in-flight K: K MatrixElements, each on its own execution-space instance,
// evaluate a batch each (evaluate_async, then all fenced), as K generator
// jobs sharing one GPU would; MEs/s counts the K batches. The `empty us`
// column is the floor of one synchronous evaluation: an empty team kernel
// with the same teams and threads, launched and fenced the same way.
#include <algorithm>
#include <cmath>
#include <ctime>
#include <iostream>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "bench_output.hpp"
#include "benches.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/amplitudes/rambo.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/progress.hpp"
#include "hepex/core/runtime.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "progress_lines.hpp"
#include "table.hpp"

namespace hepex::bench {

namespace {

using namespace hepex::amplitudes;

struct MeBenchOptions {
  std::vector<std::string> processes{"gg_ttgg", "gg_ttggg"};
  std::vector<std::string> precisions{"double", "mixed"};
  std::vector<std::string> colour_sums{"kernel"};
  std::vector<std::string> simds{"auto"};
  std::vector<std::string> choices{"off"};
  std::vector<std::size_t> batches;  // empty: 32, 64, ..., 2^20
  int warmup = 2;
  int repeats = 10;
  double budget = 20;  // seconds per point, warm-up and repeats together
  std::uint64_t seed = 20261122;
  double sqrt_s = 1500;
  int streams = 1;
  int in_flight = 1;
  int team_size = 0;
  int events_per_team = 0;
  std::string json_path;
  bool verbose = false;
};

std::vector<std::size_t> default_batches() {
  std::vector<std::size_t> batches;
  for (std::size_t n = 32; n <= (std::size_t{1} << 20); n *= 2) batches.push_back(n);
  return batches;
}

// CPU seconds of the calling thread (CLOCK_THREAD_CPUTIME_ID).
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const std::size_t n = x.size();
  return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

// Median seconds of launching an empty kernel of `teams` x `team_size` with
// the engine's policy (launch bounds, lightweight launch) and fencing it.
double empty_launch_seconds(std::size_t teams, int team_size, int runs) {
  using Policy = Kokkos::TeamPolicy<DeviceSpace, Kokkos::LaunchBounds<512, 1>,
                                    Kokkos::Experimental::WorkItemProperty::HintLightWeight_t>;
  std::vector<double> seconds;
  Kokkos::Timer timer;
  for (int r = 0; r < runs; ++r) {
    timer.reset();
    Kokkos::parallel_for("hepex::bench_empty_launch",
                         Policy(DeviceSpace(), static_cast<int>(teams), team_size),
                         KOKKOS_LAMBDA(const Policy::member_type&){});
    DeviceSpace().fence();
    seconds.push_back(timer.seconds());
  }
  return median(seconds);
}

// The evaluations kept in flight must have given what one evaluation alone
// gives (the same kernel in the same order: the same bits).
void check_in_flight(MatrixElement& me, const MomentaView<MatrixElement::Memory>& momenta,
                     const std::vector<Kokkos::View<double*, MatrixElement::Memory>>& values,
                     const MatrixElement::EventArguments& arguments) {
  Kokkos::View<double*, MatrixElement::Memory> alone("hepex::bench_me_alone", momenta.extent(0));
  me.evaluate(momenta, alone, arguments);
  const auto want = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), alone);
  for (std::size_t k = 0; k < values.size(); ++k) {
    const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values[k]);
    for (std::size_t e = 0; e < got.extent(0); ++e) {
      if (got(e) != want(e)) {
        throw Error("me: evaluation " + std::to_string(k) + " of those in flight gave " +
                        std::to_string(got(e)) + " for event " + std::to_string(e) + ", alone " +
                        std::to_string(want(e)),
                    ErrorKind::runtime);
      }
    }
  }
}

// What MadEvent passes per event (--choices on): gs from alpha_s uniform in
// [0.08, 0.16], rndhel and rndcol uniform in [0, 1), igraph uniform over
// the process's configurations; selhel and selcol per evaluation in flight.
// --choices channels: as MadEvent with single-diagram enhancement and no
// MLM passes them, a channel id per event (the diagram of a configuration
// uniform over them: |M|^2 times its channel weight) and igraph 0 (the
// colour from the channel's configuration).
struct BenchChoices {
  using Memory = MatrixElement::Memory;
  std::vector<MatrixElement::EventArguments> arguments;  // per evaluation in flight

  BenchChoices(Process process, std::size_t events, int in_flight, std::uint64_t seed,
               bool channels) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> alpha(0.08, 0.16), unit(0, 1);
    std::uniform_int_distribution<int> configuration(1, configurations(process));
    const Kokkos::View<double*, Memory> gs("hepex::bench_gs", events),
        rndhel("hepex::bench_rndhel", events), rndcol("hepex::bench_rndcol", events);
    const Kokkos::View<int*, Memory> igraph("hepex::bench_igraph", events),
        channel("hepex::bench_channel", channels ? events : 0);
    const auto channel_host = Kokkos::create_mirror_view(channel);
    const auto gs_host = Kokkos::create_mirror_view(gs);
    const auto rndhel_host = Kokkos::create_mirror_view(rndhel);
    const auto rndcol_host = Kokkos::create_mirror_view(rndcol);
    const auto igraph_host = Kokkos::create_mirror_view(igraph);
    for (std::size_t e = 0; e < events; ++e) {
      gs_host(e) = std::sqrt(4 * 3.141592653589793 * alpha(rng));
      rndhel_host(e) = unit(rng);
      rndcol_host(e) = unit(rng);
      igraph_host(e) = configuration(rng);
      if (channels) {
        channel_host(e) = configuration_channel(process, igraph_host(e));
        igraph_host(e) = 0;
      }
    }
    Kokkos::deep_copy(channel, channel_host);
    Kokkos::deep_copy(gs, gs_host);
    Kokkos::deep_copy(rndhel, rndhel_host);
    Kokkos::deep_copy(rndcol, rndcol_host);
    Kokkos::deep_copy(igraph, igraph_host);
    for (int k = 0; k < in_flight; ++k) {
      arguments.push_back({gs, rndhel, Kokkos::View<int*, Memory>("hepex::bench_selhel", events),
                           rndcol, igraph,
                           Kokkos::View<int*, Memory>("hepex::bench_selcol", events), channel});
    }
  }
};

// One configuration's sweep: a row per batch until the next batch would
// exceed the budget or the memory.
void sweep(Process process, Precision precision, ColourSumMethod method, Simd simd,
           const std::string& choice, const MeBenchOptions& o, Table& table, nlohmann::json& rows,
           nlohmann::json& peaks) {
  const bool choosing = choice != "off", channels = choice == "channels";
  const auto& info = process_info(process);
  MatrixElementOptions options;
  options.precision = precision;
  options.colour_sum = method;
  options.streams = o.streams;
  options.team_size = o.team_size;
  options.events_per_team = o.events_per_team;
  options.simd = simd;
  const auto instances = o.in_flight == 1 ? std::vector<DeviceSpace>{DeviceSpace()}
                                          : compat::partition_instances(DeviceSpace(), o.in_flight);
  std::vector<std::unique_ptr<MatrixElement>> engines;
  for (const auto& instance : instances) {
    engines.push_back(std::make_unique<MatrixElement>(process, options, instance));
  }
  MatrixElement& me = *engines.front();
  const char* sum_name = method == ColourSumMethod::blas ? "blas" : "kernel";
  const char* simd_used = simd_name(me.options().simd);
  const std::string shape =
      std::to_string(me.options().team_size) + "x" + std::to_string(me.options().events_per_team);
  double best = 0, last_seconds = 0;
  std::size_t last_events = 0;
  std::vector<std::pair<std::size_t, double>> rates;
  for (const std::size_t n : o.batches) {
    if (last_events != 0 &&
        last_seconds * double(n) / double(last_events) * (o.warmup + o.repeats) > o.budget) {
      break;
    }
    std::vector<double> seconds, cpu_seconds;
    double rambo_seconds = 0;
    try {
      using Memory = MatrixElement::Memory;
      const std::size_t particles = info.particles;
      const MomentaView<Memory> momenta[2] = {
          MomentaView<Memory>("hepex::bench_momenta", n, particles, 4),
          MomentaView<Memory>("hepex::bench_momenta", n, particles, 4)};
      std::vector<Kokkos::View<double*, Memory>> values;
      for (int k = 0; k < o.in_flight; ++k) values.emplace_back("hepex::bench_me", n);
      const auto choices = choosing ? BenchChoices(process, n, o.in_flight, o.seed, channels)
                                    : BenchChoices(process, 0, 0, o.seed, false);
      const auto arguments = [&](int k) {
        return choosing ? choices.arguments[k] : MatrixElement::EventArguments{};
      };
      Kokkos::fence();
      Kokkos::Timer timer;
      rambo(DeviceSpace(), momenta[0], o.sqrt_s, o.seed);
      Kokkos::fence();
      rambo_seconds = timer.seconds();
      rambo(DeviceSpace(), momenta[1], o.sqrt_s, o.seed + 1);
      Kokkos::fence();
      for (int r = 0; r < o.warmup + o.repeats; ++r) {
        const double cpu_start = thread_cpu_seconds();
        timer.reset();
        for (int k = 0; k < o.in_flight; ++k)
          engines[k]->evaluate_async(momenta[r % 2], values[k], arguments(k));
        for (const auto& engine : engines) engine->fence();
        if (r >= o.warmup) {
          seconds.push_back(timer.seconds());
          cpu_seconds.push_back(thread_cpu_seconds() - cpu_start);
        }
      }
      if (o.in_flight > 1)
        check_in_flight(*engines.front(), momenta[(o.warmup + o.repeats - 1) % 2], values,
                        arguments(0));
    } catch (const std::bad_alloc&) {
      std::cout << info.name << ' ' << precision_name(precision) << ' ' << sum_name << ": " << n
                << " events do not fit in memory; the sweep stops there\n";
      break;
    }
    const double t = median(seconds), cpu = median(cpu_seconds);
    const double events = double(n) * o.in_flight;
    const double rate = events / t;
    const double empty =
        empty_launch_seconds(me.launch_teams(n), me.options().team_size, o.warmup + o.repeats);
    best = std::max(best, rate);
    rates.emplace_back(n, rate);
    last_seconds = t;
    last_events = n;
    const auto [fastest, slowest] = std::minmax_element(seconds.begin(), seconds.end());
    table.add_row({info.name, precision_name(precision), sum_name, choice, simd_used, shape,
                   std::to_string(n), std::to_string(o.in_flight), fixed(t * 1e6, 1),
                   fixed(cpu * 1e6, 1), fixed(rate, 0), fixed(events / *slowest, 0),
                   fixed(events / *fastest, 0), fixed(empty * 1e6, 1),
                   fixed(rambo_seconds * 1e6, 1)});
    rows.push_back({{"process", info.name},
                    {"precision", precision_name(precision)},
                    {"colour_sum", sum_name},
                    {"choices", choosing},
                    {"channels", channels},
                    {"channels", channels},
                    {"simd", simd_used},
                    {"team_size", me.options().team_size},
                    {"events_per_team", me.options().events_per_team},
                    {"streams", o.streams},
                    {"in_flight", o.in_flight},
                    {"events", n},
                    {"median_seconds", t},
                    {"seconds", seconds},
                    {"thread_cpu_seconds", median(cpu_seconds)},
                    {"mes_per_second", rate},
                    {"empty_launch_seconds", empty},
                    {"rambo_seconds", rambo_seconds}});
  }
  if (rates.empty()) return;
  // The smallest batch that reaches 90% of the sweep's peak.
  const auto at90 = std::find_if(rates.begin(), rates.end(),
                                 [&](const auto& r) { return r.second >= 0.9 * best; });
  peaks.push_back({{"process", info.name},
                   {"precision", precision_name(precision)},
                   {"colour_sum", sum_name},
                   {"choices", choosing},
                   {"channels", channels},
                   {"simd", simd_used},
                   {"peak_mes_per_second", best},
                   {"events_at_90_percent", at90->first}});
}

void run_bench_me(MeBenchOptions o) {
  OutputFile json("--json", o.json_path);
  if (o.batches.empty()) o.batches = default_batches();
  for (const std::size_t n : o.batches) {
    if (n == 0) throw Error("me: --batches must be positive");
  }
  std::vector<Process> processes;
  std::vector<Precision> precisions;
  std::vector<ColourSumMethod> methods;
  std::vector<Simd> simds;
  for (const auto& name : o.processes) processes.push_back(parse_process(name));
  for (const auto& name : o.precisions) precisions.push_back(parse_precision(name));
  for (const auto& name : o.colour_sums) methods.push_back(parse_colour_sum(name));
  for (const auto& name : o.choices) {
    if (name != "off" && name != "on" && name != "channels") {
      throw Error("me: --choices '" + name + "': off, on or channels");
    }
  }
  const std::vector<std::string>& choices = o.choices;
  for (const auto& name : o.simds) {
    simds.push_back(parse_simd(name));
    resolve_simd(simds.back());  // refused here, before any work, if this CPU lacks it
  }
  std::cout << "hepex_bench me on " << DeviceSpace::name() << " (" << devices().front().name
            << "), RAMBO events at sqrt(s) = " << o.sqrt_s << " GeV\n"
            << "timed: MatrixElement::evaluate, momenta in " << DeviceSpace::name()
            << " memory -> |M|^2 there, fence included; RAMBO and setup not timed\n"
            << "MEs/s = events / median of " << o.repeats << " runs after " << o.warmup
            << " warm-ups (two momenta sets in turn); thread CPU us: the calling thread's CPU "
            << "time (all the work on a Serial build); simd: the host kernel's instruction "
            << "set; team = threads x events per team (host kernel: 1 x events per pack), "
            << o.streams << " instance(s) per evaluation; in flight: evaluations of `events` "
            << "each, on their own instances, fenced together; empty us: an empty kernel of "
            << "the same teams, launched and fenced\n\n";
  Table table({"process", "precision", "colour sum", "choices", "simd", "team", "events",
               "in flight", "median us", "thread CPU us", "MEs/s", "min MEs/s", "max MEs/s",
               "empty us", "RAMBO us"});
  nlohmann::json rows = nlohmann::json::array(), peaks = nlohmann::json::array();
  // A line every 30 s of a long sweep (main's watch): sweeps done.
  ProgressTask task("bench me", "sweeps",
                    static_cast<double>(processes.size() * precisions.size() * methods.size() *
                                        simds.size() * choices.size()));
  std::size_t swept = 0;
  for (const auto process : processes) {
    for (const auto precision : precisions) {
      for (const auto method : methods) {
        if (method == ColourSumMethod::blas && precision != Precision::double_precision) {
          std::cout << "skipped: --colour-sum blas runs in double precision only ("
                    << precision_name(precision) << ")\n";
          continue;
        }
        for (const auto simd : simds) {
          if (method == ColourSumMethod::blas && simd != Simd::automatic && simd != Simd::none) {
            std::cout << "skipped: --colour-sum blas runs the team kernel, without lanes ("
                      << simd_name(simd) << ")\n";
            continue;
          }
          for (const auto& choice : choices) {
            if (choice != "off" && method == ColourSumMethod::blas) {
              std::cout << "skipped: --choices " << choice
                        << " needs the kernel colour sum (blas)\n";
              continue;
            }
            task.set_stage(std::string(process_info(process).name) + " " +
                           precision_name(precision));
            sweep(process, precision, method, simd, choice, o, table, rows, peaks);
            task.update(static_cast<double>(++swept));
          }
        }
      }
    }
  }
  table.print(std::cout);
  std::cout << "\npeak and the smallest batch reaching 90% of it:\n";
  Table summary(
      {"process", "precision", "colour sum", "choices", "simd", "peak MEs/s", "90% at events"});
  for (const auto& p : peaks) {
    summary.add_row({p["process"].get<std::string>(), p["precision"].get<std::string>(),
                     p["colour_sum"].get<std::string>(),
                     !p["choices"].get<bool>()    ? "off"
                     : p.value("channels", false) ? "channels"
                                                  : "on",
                     p["simd"].get<std::string>(), fixed(p["peak_mes_per_second"].get<double>(), 0),
                     std::to_string(p["events_at_90_percent"].get<std::size_t>())});
  }
  summary.print(std::cout);
  emit_json(json, {{"benchmark", "me"},
                   {"device", devices().front().name},
                   {"execution_space", DeviceSpace::name()},
                   {"version", version_line()},
                   {"timed",
                    "MatrixElement::evaluate: device momenta -> device MEs, "
                    "fence included; RAMBO excluded (rambo_seconds)"},
                   {"sqrt_s", o.sqrt_s},
                   {"warmup", o.warmup},
                   {"repeats", o.repeats},
                   {"rows", rows},
                   {"peaks", peaks}});
}

}  // namespace

void add_me_bench(CLI::App& app) {
  auto o = std::make_shared<MeBenchOptions>();
  auto* me = app.add_subcommand("me", "matrix-element throughput against the batch size");
  me->add_option("--processes", o->processes, "some of " + amplitudes::process_names())
      ->delimiter(',');
  me->add_option("--precisions", o->precisions, "double, mixed, float")->delimiter(',');
  me->add_option("--colour-sums", o->colour_sums, "kernel, blas (double only)")->delimiter(',');
  me->add_option("--simd", o->simds,
                 "host kernel instruction sets: auto, none, sse, avx2, avx512 (default auto)")
      ->delimiter(',');
  me->add_option("--choices", o->choices,
                 "off, on, channels: also the per-event coupling and the helicity and colour "
                 "choices (random gs, rndhel, rndcol, igraph per event, as MadEvent passes them); "
                 "channels: with a channel id per event and igraph 0, as MadEvent with "
                 "single-diagram enhancement (the ME times the channel weight; default off)")
      ->delimiter(',');
  me->add_option("--batches", o->batches, "events per evaluation (default 32, 64, ..., 2^20)")
      ->delimiter(',')
      ->check(whole_number());
  me->add_option("--warmup", o->warmup, "untimed runs per batch")->check(CLI::Range(0, 100));
  me->add_option("--repeats", o->repeats, "timed runs per batch (the median is reported)")
      ->check(CLI::Range(1, 1000));
  me->add_option("--budget", o->budget,
                 "seconds per batch: a sweep stops before a batch predicted to take longer")
      ->check(finite_positive());
  me->add_option("--seed", o->seed, "RAMBO random seed")->check(whole_number());
  me->add_option("--sqrts", o->sqrt_s, "collision energy sqrt(s) [GeV]")->check(finite_positive());
  me->add_option("--streams", o->streams, "execution-space instances the units are dealt over")
      ->check(CLI::Range(1, 64));
  me->add_option("--in-flight", o->in_flight,
                 "evaluations of one batch each kept in flight, each on its own instance")
      ->check(CLI::Range(1, 64));
  me->add_option("--team-size", o->team_size, "threads per team (0: the measured default)")
      ->check(CLI::Range(0, 1024));
  me->add_option("--events-per-team", o->events_per_team,
                 "events per team (0: the measured default)")
      ->check(CLI::Range(0, 1 << 20));
  me->add_option("--json", o->json_path, "write the results to FILE (default: none)");
  me->add_flag("-v,--verbose", o->verbose,
               "progress on stderr every 2 s: sweeps done, ETA (default: a line every 30 s)");
  me->callback([o] {
    const auto watch = verbose_progress(o->verbose, 0);
    run_bench_me(*o);
  });
}

}  // namespace hepex::bench
