// `hepex reconstruct`: rational functions over Q from expressions evaluated
// as black boxes mod 64-bit primes (docs/cli.md, "Reconstruction").
#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string_view>

#include "commands.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/host_threads.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/io/expression_file.hpp"
#include "hepex/reconstruct/jobs.hpp"
#include "hepex/reconstruct/rational.hpp"
#include "job_options.hpp"
#include "mpi_session.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "progress_lines.hpp"

namespace hepex::cli {

namespace {

struct ReconstructOptions {
  std::string vars;
  std::string function;
  std::string file;
  std::size_t primes = 40;
  std::string seed;  // empty: a random one, reported in --json
  std::size_t max_degree = 1000;
  std::size_t threads = 0;  // 0: every core this process may run on
  std::string out_path;
  std::string json_path;
  bool verbose = false;
  bool together = false;             // one black box of every expression
  bool factored = false;             // the factored form where it is shorter
  std::string factor_scan = "auto";  // auto, on, off
  std::string backend = has_accelerator ? "device" : "host";  // checked by the option
  JobCliOptions jobs;
};

// The input expressions: --function, or those of --file (io/expression_file.hpp:
// one a line, or over several lines while a parenthesis is open; a trailing
// ';' dropped), each with the line it starts on.
std::vector<io::ExpressionText> input_expressions(const ReconstructOptions& o,
                                                  const distributed::Communicator& comm) {
  if (!o.function.empty()) return {{o.function, 0}};
  const std::string name = o.file == "-" ? "<stdin>" : o.file;
  auto expressions = io::split_expressions(read_on_rank0(o.file, comm), name);
  if (expressions.empty()) throw Error(name + ": no expressions (one per line)");
  return expressions;
}

// "--function" or "FILE:LINE" (the line where input j starts).
std::string input_name(const ReconstructOptions& o, const std::vector<io::ExpressionText>& inputs,
                       std::size_t j) {
  if (o.file.empty()) return "--function";
  return (o.file == "-" ? std::string("<stdin>") : o.file) + ":" + std::to_string(inputs[j].line);
}

// Parses every input before any evaluation; errors name the input and column.
std::vector<io::Expression> parse_expressions(const ReconstructOptions& o,
                                              const std::vector<io::ExpressionText>& inputs,
                                              const std::vector<std::string>& names) {
  std::vector<io::Expression> expressions;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    try {
      expressions.push_back(io::Expression::parse(inputs[i].text, names));
    } catch (const Error& e) {
      throw Error(input_name(o, inputs, i) + ": " + e.what());
    }
  }
  return expressions;
}

// --seed, or a random seed for this run (the same on every rank).
std::uint64_t run_seed(const ReconstructOptions& o, const distributed::Communicator& comm) {
  if (!o.seed.empty()) return std::stoull(o.seed);
  std::string word;
  if (comm.rank() == 0) {
    std::random_device device;
    const std::uint64_t seed = (std::uint64_t{device()} << 32) ^ device();
    word = std::to_string(seed);
  }
  comm.broadcast(word);
  return std::stoull(word);
}

// Each expression is one job (docs/cli.md "Many jobs, many ranks").
void run_reconstruct(const ReconstructOptions& o) {
  if (o.function.empty() == o.file.empty()) {
    throw Error("give exactly one of --function EXPR and --file F");
  }
  const auto& comm = communicator();
  const auto names = io::parse_variable_list(o.vars);
  const auto inputs = input_expressions(o, comm);
  const auto expressions = parse_expressions(o, inputs, names);
  auto outputs = open_outputs(o.out_path, o.json_path, comm);
  reconstruct::ReconstructOptions options;
  options.max_primes = o.primes;
  options.seed = run_seed(o, comm);
  options.max_degree = o.max_degree;
  options.threads = o.threads;
  options.max_primes_name = "--primes";
  options.max_degree_name = "--max-degree";
  using Scan = reconstruct::ReconstructOptions::FactorScan;
  options.factor_scan = o.factor_scan == "on"    ? Scan::on
                        : o.factor_scan == "off" ? Scan::off
                                                 : Scan::automatic;
  const auto watch = verbose_progress(o.verbose, comm.rank());
  if (o.verbose && comm.rank() == 0) {
    options.progress = &std::cerr;
    std::cerr << "reconstruct: seed " << options.seed << "\n";
  }
  reconstruct::ExpressionJobSettings settings;
  settings.variables = names;
  settings.options = options;
  settings.together = o.together;
  settings.factored = o.factored;
  settings.probe_logs = o.jobs.checkpoint;
  settings.seed_given = !o.seed.empty();
  std::vector<std::string> texts, input_names;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    texts.push_back(inputs[i].text);
    input_names.push_back(input_name(o, inputs, i));
  }
  reconstruct::ExpressionJobs jobs(expressions, std::move(texts), input_names, std::move(settings));
  Kokkos::Timer timer;
  const auto results = distributed::run(comm, jobs, run_options(o.jobs));
  const double seconds = timer.seconds();
  if (comm.rank() != 0) return;

  // Each answer goes to the output as its job made it; the JSON summary is
  // made only if asked for.
  const bool json = outputs.json.is_file();
  nlohmann::json per_function = nlohmann::json::array(), shared_work;
  std::size_t primes = 0, probes = 0, failed = 0;
  for (std::size_t j = 0; j < results.size(); ++j) {
    const auto& r = results[j];
    primes = std::max(primes, r.primes);
    probes += r.probes;
    nlohmann::json prime_list = nlohmann::json::array();
    for (const auto& u : r.prime_uses) {
      prime_list.push_back(
          {{"prime", u.prime}, {"role", reconstruct::to_string(u.role)}, {"probes", u.probes}});
    }
    const nlohmann::json work = {{"seed", r.seed},
                                 {"primes", r.primes},
                                 {"prime_list", prime_list},
                                 {"probes", r.probes},
                                 {"seconds", r.seconds},
                                 {"black_box_seconds", r.black_box_seconds},
                                 {"algebra_seconds", r.seconds - r.black_box_seconds}};
    for (std::size_t i = jobs.first(j); i < jobs.last(j); ++i) {
      nlohmann::json entry = {{"input", input_names[i]}};
      if (!o.together) entry.update(work);
      if (!r.ok) {
        // A line that is no answer, and cannot be taken for one.
        const std::string why = input_names[i] + ": " + r.error;
        outputs.out.write("# not reconstructed: " + why + "\n");
        std::cerr << "hepex: " << why << '\n';
        entry["error"] = r.error;
        if (json) per_function.push_back(std::move(entry));
        ++failed;
        continue;
      }
      const std::string& answer = r.functions.at(i - jobs.first(j));
      outputs.out.write(answer);
      outputs.out.write("\n");
      if (!json) continue;
      entry["result"] = answer;
      per_function.push_back(std::move(entry));
    }
    if (o.together && json) shared_work = work;
  }
  nlohmann::json summary = {
      {"command", "reconstruct"},   {"variables", names},
      {"functions", inputs.size()}, {"failed", failed},
      {"primes", primes},           {"probes", probes},
      {"seed", options.seed},       {"threads", resolve_host_threads(options.threads)},
      {"ranks", comm.size()},       {"seconds", seconds},
      {"results", per_function}};
  if (o.together) summary["together"] = shared_work;
  emit_json(outputs.json, summary);
  outputs.out.commit();
  if (failed > 0) {
    throw Error(std::to_string(failed) + " of " + std::to_string(inputs.size()) +
                    " functions not reconstructed (lines marked '# not reconstructed')",
                ErrorKind::negative_answer);
  }
}

}  // namespace

void add_reconstruct_command(CLI::App& app) {
  auto o = std::make_shared<ReconstructOptions>();
  auto* cmd = app.add_subcommand(
      "reconstruct", "rational functions over Q from expressions evaluated mod 63-bit primes");
  cmd->add_option("--vars", o->vars, "variable names, comma separated (x,y,z; required)")
      ->required();
  cmd->add_option("--function", o->function, "one expression (no default: give this or --file)");
  cmd->add_option("--file", o->file,
                  "one expression per line, or over several lines while a parenthesis is open; a "
                  "trailing ';' is dropped ('-' for stdin); one job each (no default: give this "
                  "or --function)");
  cmd->add_option("--primes", o->primes, "primes to try at most (exit 3 beyond)")
      ->check(whole_number(1, 10000));
  cmd->add_option("--seed", o->seed,
                  "seed of the random primes and probe points (default: a random one, reported "
                  "with -v and in --json)")
      ->check(whole_number())
      ->default_str("random");
  cmd->add_flag("--together", o->together,
                "all expressions of --file as one black box, one job: every probe serves every "
                "function, as the coefficients of one system share their solves (default: one job "
                "each)");
  cmd->add_option("--factor-scan", o->factor_scan,
                  "univariate factors divided out first: auto (in the variables whose hyperplane "
                  "x = 0 makes a denominator vanish), on (every variable), off")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  cmd->add_flag("--factored", o->factored,
                "each function in factored form (a constant times irreducible factors with "
                "multiplicities, FLINT's factorisation) where that is shorter than the expanded "
                "form (default: expanded)");
  cmd->add_option("--host-threads", o->threads,
                  "host threads for the reconstruction's algebra; the black box is called from one "
                  "(default: every core this process may run on, e.g. 1 under taskset -c 1)")
      ->check(whole_number(1, 4096))
      ->default_str("cores");
  cmd->add_option("--max-degree", o->max_degree, "largest degree per variable and in total")
      ->check(whole_number(1, 100000));
  cmd->add_option("--backend", o->backend,
                  "the default execution space: device if the build has one (host only in "
                  "builds without)")
      ->check(default_space_backend("reconstruct"));
  cmd->add_option("--out", o->out_path, "write the functions to FILE (default: standard output)");
  cmd->add_option("--json", o->json_path, "write a JSON summary to FILE (default: none)");
  cmd->add_flag("-v,--verbose", o->verbose,
                "progress on stderr: the seed, variables, terms, probes and their rate every "
                "2 s, time per further prime (default: a line every 30 s of a long run)");
  add_job_options(*cmd, o->jobs, 16);
  cmd->callback([o] { run_reconstruct(*o); });
}

}  // namespace hepex::cli
