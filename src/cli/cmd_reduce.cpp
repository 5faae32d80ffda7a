// `hepex reduce`: IBP reduction of a linear system of integrals to master
// integrals (docs/cli.md "IBP reduction", docs/reduce.md).
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "commands.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/host_threads.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reduce/reduce.hpp"
#include "job_options.hpp"
#include "mpi_session.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "progress_lines.hpp"

namespace hepex::cli {

namespace {

struct ReduceCliOptions {
  std::string system, vars, targets, order, masters, checkpoint, out_path, json_path, seed;
  std::size_t primes = 40, max_degree = 1000, threads = 0;
  bool factored = false, verbose = false;
};

void run_reduce(const ReduceCliOptions& o) {
  // Under mpiexec every rank reads, checks and learns; the probe batches are
  // spread over the ranks and rank 0 reconstructs and writes the table.
  const auto& comm = communicator();
  const auto names = io::parse_variable_list(o.vars);
  const auto read_start = std::chrono::steady_clock::now();
  // One pool of host threads for reading and for reduce() (its replay and
  // the reconstruction's algebra).
  std::unique_ptr<HostThreads> pool;
  if (resolve_host_threads(o.threads) > 1) pool = std::make_unique<HostThreads>(o.threads);
  // Every input read and checked before any work.
  const auto system =
      reduce::read_system(read_on_rank0(o.system, comm), o.system, names, pool.get());
  const auto targets = reduce::read_integral_list(read_on_rank0(o.targets, comm), o.targets);
  reduce::require_in_system(system, targets, o.targets, "target");
  reduce::ReduceOptions options;
  options.targets = targets.integrals;
  if (!o.order.empty()) {
    const auto order = reduce::read_integral_list(read_on_rank0(o.order, comm), o.order);
    options.order = order.integrals;
  }
  if (!o.masters.empty()) {
    const auto masters = reduce::read_integral_list(read_on_rank0(o.masters, comm), o.masters);
    reduce::require_in_system(system, masters, o.masters, "preferred master");
    options.preferred_masters = masters.integrals;
  }
  if (!o.checkpoint.empty()) {
    std::error_code error;
    std::filesystem::create_directories(o.checkpoint, error);
    if (!std::filesystem::is_directory(o.checkpoint))
      throw Error("--checkpoint " + o.checkpoint + ": cannot create the directory");
    options.checkpoint = o.checkpoint + "/probes-reduce";
    options.seed_given = !o.seed.empty();
    options.remove_checkpoint = false;  // removed once the table is written
  }
  auto outputs = open_outputs(o.out_path, o.json_path, comm);
  const double read_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - read_start).count();
  options.communicator = &comm;
  options.reconstruction.max_primes = o.primes;
  options.reconstruction.max_primes_name = "--primes";
  options.reconstruction.max_degree = o.max_degree;
  options.reconstruction.max_degree_name = "--max-degree";
  options.reconstruction.threads = o.threads;
  options.reconstruction.pool = pool.get();
  if (o.seed.empty()) {
    std::random_device device;
    options.reconstruction.seed = (std::uint64_t{device()} << 32) ^ device();
  } else {
    options.reconstruction.seed = std::stoull(o.seed);
  }
  const auto watch = verbose_progress(o.verbose, comm.rank());
  if (o.verbose && comm.rank() == 0) {
    options.reconstruction.progress = &std::cerr;
    std::cerr << "reduce: " << system.equations.size() << " equations, " << system.integrals.size()
              << " integrals, " << targets.integrals.size() << " targets; seed "
              << options.reconstruction.seed << "\n";
  }
  const auto r = reduce::reduce(system, options);
  if (r.served) return;  // rank 0 writes the table
  for (const auto& m : r.unmet_preferred) {
    std::cerr << "hepex: warning: preferred master " << m.text()
              << " is not a master (the system reduces it to the others)\n";
  }
  for (const std::size_t t : r.master_targets) {
    std::cerr << "hepex: warning: target " << r.targets[t].text()
              << " is a master integral (no equation reduces it)\n";
  }
  std::ostringstream table;
  reduce::write_table(table, r, names, o.factored);
  outputs.out.write(table.str());
  nlohmann::json masters = nlohmann::json::array();
  for (const auto& m : r.masters) masters.push_back(m.text());
  nlohmann::json summary = {{"command", "reduce"},
                            {"system", o.system},
                            {"variables", names},
                            {"equations", r.equations},
                            {"equations_used", r.equations_needed},
                            {"integrals", r.integrals},
                            {"targets", targets.integrals.size()},
                            {"masters", masters},
                            {"probes", r.probes},
                            {"primes", r.primes},
                            {"replay_instructions", r.instructions},
                            {"replay_registers", r.registers},
                            {"ranks", comm.size()},
                            {"threads", resolve_host_threads(o.threads)},
                            {"seed", r.seed},
                            {"read_seconds", read_seconds},
                            {"learn_seconds", r.learn_seconds},
                            {"probe_seconds", r.probe_seconds},
                            {"algebra_seconds", r.algebra_seconds},
                            {"check_seconds", r.check_seconds}};
  if (!o.checkpoint.empty()) summary["replayed_probes"] = r.replayed;
  emit_json(outputs.json, summary);
  outputs.out.commit();
  if (!o.checkpoint.empty()) std::filesystem::remove(o.checkpoint + "/probes-reduce");
  if (o.verbose) {
    std::cerr << "reduce: " << r.masters.size() << " masters, " << r.equations_needed << " of "
              << r.equations << " equations used, " << r.probes << " probes, " << r.primes
              << " primes; replay " << r.instructions << " instructions, " << r.registers
              << " registers a point; read " << read_seconds << " s, learn " << r.learn_seconds
              << " s, probes " << r.probe_seconds << " s, algebra " << r.algebra_seconds
              << " s, check " << r.check_seconds << " s\n";
  }
}

}  // namespace

void add_reduce_command(CLI::App& app) {
  auto o = std::make_shared<ReduceCliOptions>();
  auto* cmd = app.add_subcommand(
      "reduce", "IBP reduction: target integrals as master integrals with rational coefficients");
  cmd->add_option("system", o->system,
                  "the equations: a Mathematica list {eq, ...} (NeatIBP, LiteRed) or Kira's format "
                  "(one term a line, equations separated by blank lines)")
      ->required();
  cmd->add_option("--vars", o->vars, "the parameters, comma separated (d,s,t; required)")
      ->required();
  cmd->add_option("--targets", o->targets,
                  "the integrals to reduce: a list {F[..], ...} or one a line (required)")
      ->required();
  cmd->add_option("--order", o->order,
                  "the integral order, most complex first, as NeatIBP's OrderedIntegrals.txt "
                  "(default: Laporta's: lines, dots, numerator powers)");
  cmd->add_option(
      "--masters", o->masters,
      "preferred masters, a list or one a line: put last in the order, so that they are "
      "masters wherever the system allows (default: none)");
  cmd->add_option("--checkpoint", o->checkpoint,
                  "keep every probe in DIR/probes-reduce: the same command after a kill resumes "
                  "with the killed run's seed; deleted once the table is written (default: none)");
  cmd->add_flag("--factored", o->factored,
                "coefficients in factored form where shorter (default: expanded)");
  cmd->add_option("--primes", o->primes, "primes to try at most (exit 3 beyond)")
      ->check(whole_number(1, 10000));
  cmd->add_option("--seed", o->seed, "seed of the random primes and points (default: a random one)")
      ->check(whole_number())
      ->default_str("random");
  cmd->add_option(
         "--host-threads", o->threads,
         "host threads for the reconstruction's algebra (default: every core this process may "
         "run on, e.g. 1 under taskset -c 1)")
      ->check(whole_number(1, 4096))
      ->default_str("cores");
  cmd->add_option("--max-degree", o->max_degree,
                  "largest degree of a coefficient per variable and in total")
      ->check(whole_number(1, 100000));
  cmd->add_option("--out", o->out_path, "write the table to FILE (default: standard output)");
  cmd->add_option("--json", o->json_path,
                  "write a JSON summary to FILE: masters, equations used, probes, primes, times "
                  "(default: none)");
  cmd->add_flag("-v,--verbose", o->verbose,
                "progress on stderr (default: a line every 30 s of a long run)");
  cmd->callback([o] { run_reduce(*o); });
}

}  // namespace hepex::cli
