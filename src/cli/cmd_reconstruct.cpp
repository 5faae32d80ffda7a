// `hepex reconstruct`: rational functions over Q from expressions evaluated
// as black boxes mod 64-bit primes (CLI.md, "Reconstruction").
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "hepex/core/error.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/rational.hpp"

namespace hepex::cli {

namespace {

struct ReconstructOptions {
  std::string vars;
  std::string function;
  std::string file;
  std::size_t primes = 40;
  std::uint64_t seed = 20261122;
  std::size_t max_degree = 200;
  std::string json_path;
  bool verbose = false;
};

// Parses every input before any evaluation; errors name the input and column.
std::vector<io::Expression> read_expressions(const ReconstructOptions& o,
                                             const std::vector<std::string>& names) {
  std::vector<io::Expression> expressions;
  auto parse = [&](const std::string& text, const std::string& where) {
    try {
      expressions.push_back(io::Expression::parse(text, names));
    } catch (const Error& e) {
      throw Error(where + ": " + e.what());
    }
  };
  if (!o.function.empty()) {
    parse(o.function, "--function");
    return expressions;
  }
  std::ifstream file;
  if (o.file != "-") {
    file.open(o.file);
    if (!file) throw Error(o.file + ": cannot open the file");
  }
  std::istream& in = o.file == "-" ? std::cin : file;
  const std::string name = o.file == "-" ? "<stdin>" : o.file;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    parse(line, name + ":" + std::to_string(number));
  }
  if (expressions.empty()) throw Error(name + ": no expressions (one per line)");
  return expressions;
}

void run_reconstruct(const ReconstructOptions& o) {
  if (o.function.empty() == o.file.empty()) {
    throw Error("give exactly one of --function EXPR and --file F");
  }
  const auto names = io::parse_variable_list(o.vars);
  auto expressions = read_expressions(o, names);
  const std::size_t count = expressions.size();
  const auto box = reconstruct::expression_black_box(std::move(expressions), names.size());
  reconstruct::ReconstructOptions options;
  options.max_primes = o.primes;
  options.seed = o.seed;
  options.max_degree = o.max_degree;
  if (o.verbose) options.progress = &std::cerr;
  Kokkos::Timer timer;
  const auto result = reconstruct::reconstruct(*box, options);
  const double seconds = timer.seconds();
  std::string text;
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& f : result.functions) {
    const std::string line = reconstruct::to_string(f, names);
    text += line + "\n";
    lines.push_back(line);
  }
  std::cout << text;
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    const nlohmann::json summary{{"command", "reconstruct"}, {"variables", names},
                                 {"functions", count},       {"primes", result.primes},
                                 {"seed", o.seed},           {"seconds", seconds},
                                 {"results", lines}};
    if (!out || !(out << summary.dump(2) << '\n')) {
      throw Error("--json: cannot write '" + o.json_path + "'");
    }
  }
}

}  // namespace

void add_reconstruct_command(CLI::App& app) {
  auto o = std::make_shared<ReconstructOptions>();
  auto* cmd = app.add_subcommand(
      "reconstruct", "rational functions over Q from expressions evaluated mod 64-bit primes");
  cmd->add_option("--vars", o->vars, "variable names, comma separated (x,y,z)")->required();
  cmd->add_option("--function", o->function, "one expression");
  cmd->add_option("--file", o->file, "one expression per line ('-' for stdin)");
  cmd->add_option("--primes", o->primes, "primes to try at most (exit 3 beyond)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
  cmd->add_option("--seed", o->seed, "random seed of the probe points");
  cmd->add_option("--max-degree", o->max_degree, "largest degree per variable and in total")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  cmd->add_option("--json", o->json_path, "write a JSON summary to FILE");
  cmd->add_flag("-v,--verbose", o->verbose, "progress on stderr (variable, terms, primes)");
  cmd->callback([o] { run_reconstruct(*o); });
}

}  // namespace hepex::cli
