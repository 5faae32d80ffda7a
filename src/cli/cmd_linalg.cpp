// `hepex rref | rank | nullspace | solve`: Gaussian elimination on Matrix
// Market files (CLI.md, "Linear algebra").
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/distributed/checkpoint.hpp"
#include "hepex/io/matrix_market.hpp"
#include "hepex/linalg/echelon.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "job_options.hpp"
#include "mpi_session.hpp"
#include "number_options.hpp"
#include "output.hpp"

namespace hepex::cli {

namespace {

struct LinalgOptions {
  std::string prime;
  std::string field;
  double tolerance = 1e-10;
  std::string backend = has_accelerator ? "device" : "host";
  std::string out_path;
  std::string json_path;
  std::string method = "auto";
  bool verbose = false;
  std::vector<std::string> inputs;
  JobCliOptions jobs;  // rref with several inputs
};

// Calls action(field) with the field the options select: Zp32 for P < 2^31,
// Zp64 for P < 2^63, Real64 or Complex128 with the tolerance.
template <class Action>
void with_field(const LinalgOptions& o, Action&& action) {
  if (!o.prime.empty() && !o.field.empty()) throw Error("give either --prime or --field, not both");
  if (!o.prime.empty()) {
    const std::uint64_t p = parse_prime_option(o.prime);
    if (p < (std::uint64_t{1} << 31)) {
      action(field::Zp32(p));
    } else {
      action(field::Zp64(p));
    }
  } else if (o.field == "real") {
    action(field::Real64(o.tolerance));
  } else if (o.field == "complex") {
    action(field::Complex128(o.tolerance));
  } else {
    throw Error("choose the field: --prime P (2 <= P < 2^63) or --field real|complex");
  }
}

// The device's memory when the work runs there (no input may be larger).
std::size_t device_memory_limit(Backend backend) {
  const auto found = devices();
  if (backend == Backend::device && !found.empty()) return found.front().memory_bytes;
  return std::numeric_limits<std::size_t>::max();
}

// The memory for the work and the copies of an input it needs: the
// elimination commands hold the input, its working copy and the result.
constexpr std::size_t elimination_copies = 3;

io::ReadLimits read_limits(Backend backend, std::size_t copies) {
  io::ReadLimits limits;
  limits.max_bytes = std::min(host_memory_bytes(), device_memory_limit(backend));
  limits.copies = copies;
  return limits;
}

// Refuses, before the work, an output of rows x cols entries that cannot fit.
template <class F>
void check_output_fits(const char* what, std::size_t rows, std::size_t cols, Backend backend) {
  const std::size_t limit = read_limits(backend, 1).max_bytes, entry = sizeof(typename F::value_type);
  if (cols == 0 || rows <= limit / entry / cols) return;
  std::ostringstream message;
  message << std::setprecision(3) << what << " has " << rows << " x " << cols << " entries, "
          << static_cast<double>(rows) * static_cast<double>(cols) * entry / (1u << 30)
          << " GiB, more than the " << static_cast<double>(limit) / (1u << 30)
          << " GiB of memory";
  throw Error(message.str());
}

// Reads a whole input ("-" is stdin) before any device work.
template <class F>
Matrix<typename F::value_type> read_input(const std::string& path, const F& f, Backend backend,
                                          std::size_t copies = elimination_copies) {
  const io::ReadLimits limits = read_limits(backend, copies);
  if (path == "-") return io::read_matrix_market(std::cin, "<stdin>", f, limits);
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open the file");
  return io::read_matrix_market(in, path, f, limits);
}

// The same from text already read (stdin under MPI: rank 0 read it).
template <class F>
Matrix<typename F::value_type> read_text_input(const std::string& text, const std::string& name,
                                               const F& f, Backend backend) {
  std::istringstream in(text);
  return io::read_matrix_market(in, name, f, read_limits(backend, elimination_copies));
}

template <class F>
std::string matrix_text(const Matrix<typename F::value_type>& a, const F& f) {
  std::ostringstream out;
  io::write_matrix_market(out, a, f);
  return out.str();
}

// Each input file is one job (CLI.md "Many jobs, many ranks"): its RREF as
// Matrix Market text and its summary, as JSON {"text", "summary"}. Several
// inputs give their outputs one after the other, in input order.
void run_rref(const LinalgOptions& o) {
  const auto& comm = communicator();
  const bool several = o.inputs.size() > 1;
  if (several && std::count(o.inputs.begin(), o.inputs.end(), "-") > 0) {
    throw Error("stdin ('-') can only be the single input");
  }
  auto outputs = open_outputs(o.out_path, o.json_path, comm);
  const std::string stdin_text = o.inputs[0] == "-" ? read_on_rank0("-", comm) : std::string();
  std::ostringstream identity;
  identity << "rref\n" << o.prime << ' ' << o.field << ' ' << o.tolerance << '\n';
  // The inputs by content (read once more only when checkpointing).
  if (!o.jobs.checkpoint.empty()) {
    for (const auto& path : o.inputs)
      if (path != "-") identity << distributed::file_fingerprint(path) << '\n';
  }
  identity << stdin_text;
  with_field(o, [&](const auto& f) {
    const Backend backend = parse_backend(o.backend);
    linalg::RrefOptions options;
    if (o.verbose && comm.rank() == 0) options.progress = &std::cerr;
    const auto run = [&](const std::vector<std::size_t>& jobs) {
      std::vector<std::string> out;
      for (const std::size_t j : jobs) {
        auto a = o.inputs[j] == "-" ? read_text_input(stdin_text, "<stdin>", f, backend)
                                    : read_input(o.inputs[j], f, backend);
        Kokkos::Timer timer;
        const auto r = linalg::rref(f, a, backend, options);
        const double seconds = timer.seconds();
        const nlohmann::json summary{{"input", o.inputs[j]}, {"rows", a.rows},
                                     {"cols", a.cols},       {"rank", r.rank},
                                     {"pivots", r.pivots},   {"seconds", seconds}};
        out.push_back(nlohmann::json{{"text", matrix_text(a, f)}, {"summary", summary}}.dump());
      }
      return out;
    };
    const auto results = distributed::run_jobs(comm, o.inputs.size(), run,
                                               job_options(o.jobs, identity.str()));
    if (comm.rank() != 0) return;
    std::string text;
    nlohmann::json summaries = nlohmann::json::array();
    for (const auto& r : results) {
      const auto job = nlohmann::json::parse(r);
      text += job.at("text").template get<std::string>();
      summaries.push_back(job.at("summary"));
    }
    emit(outputs.out, text);
    nlohmann::json summary{{"command", "rref"}, {"backend", o.backend}, {"ranks", comm.size()}};
    if (several) {
      summary["matrices"] = summaries;
    } else {
      summary.update(summaries[0]);
    }
    emit_json(outputs.json, summary);
  });
}

void run_rank(const LinalgOptions& o) {
  auto outputs = open_outputs(o.out_path, o.json_path);
  with_field(o, [&](const auto& f) {
    const Backend backend = parse_backend(o.backend);
    const auto r = linalg::rank(f, read_input(o.inputs.at(0), f, backend), backend);
    emit(outputs.out, std::to_string(r) + "\n");
    emit_json(outputs.json, {{"command", "rank"}, {"rank", r}});
  });
}

void run_nullspace(const LinalgOptions& o) {
  auto outputs = open_outputs(o.out_path, o.json_path);
  with_field(o, [&](const auto& f) {
    const Backend backend = parse_backend(o.backend);
    const auto a = read_input(o.inputs.at(0), f, backend);
    // At least cols - rows basis vectors of cols entries each.
    check_output_fits<std::decay_t<decltype(f)>>("the null space", a.cols,
                                                  a.cols - std::min(a.rows, a.cols), backend);
    const auto n = linalg::nullspace(f, a, backend);
    emit(outputs.out, matrix_text(n, f));
    emit_json(outputs.json, {{"command", "nullspace"}, {"dimension", n.cols}});
  });
}

void run_solve(const LinalgOptions& o) {
  auto outputs = open_outputs(o.out_path, o.json_path);
  with_field(o, [&](const auto& f) {
    const Backend backend = parse_backend(o.backend);
    const auto a = read_input(o.inputs.at(0), f, backend);
    const auto b = read_input(o.inputs.at(1), f, backend);
    if (a.rows != b.rows) {
      throw Error(o.inputs[0] + " has " + std::to_string(a.rows) + " rows but " + o.inputs[1] +
                  " has " + std::to_string(b.rows));
    }
    const auto s = linalg::solve(f, a, b, backend);
    emit_json(outputs.json, {{"command", "solve"}, {"consistent", s.consistent},
                             {"nullspace_dimension", s.nullspace.cols}});
    if (!s.consistent) throw Error("inconsistent", ErrorKind::negative_answer);
    emit(outputs.out, matrix_text(s.particular, f));
  });
}

// Calls action(field) for a Z/p field; --field is refused.
template <class Action>
void with_prime_field(const LinalgOptions& o, Action&& action) {
  if (o.prime.empty()) throw Error("gemm works modulo a prime: give --prime P (2 <= P < 2^63)");
  with_field(o, [&](const auto& f) {
    if constexpr (std::decay_t<decltype(f)>::is_exact) action(f);
  });
}

void run_gemm(const LinalgOptions& o) {
  const linalg::GemmMethod method = linalg::parse_gemm_method(o.method);
  auto outputs = open_outputs(o.out_path, o.json_path);
  with_prime_field(o, [&](const auto& f) {
    const Backend backend = parse_backend(o.backend);
    // Checked before reading: a method that is not exact for P is an error.
    const linalg::GemmMethod resolved =
        linalg::resolve_gemm_method(method, f.modulus(), runs_on(backend));
    const auto a = read_input(o.inputs.at(0), f, backend, 1);
    const auto b = read_input(o.inputs.at(1), f, backend, 1);
    if (a.cols != b.rows) {
      throw Error(o.inputs[0] + " has " + std::to_string(a.cols) + " columns but " +
                  o.inputs[1] + " has " + std::to_string(b.rows) + " rows");
    }
    check_output_fits<std::decay_t<decltype(f)>>("the product", a.rows, b.cols, backend);
    Kokkos::Timer timer;
    const auto c = linalg::modgemm(f, a, b, method, backend);
    const double seconds = timer.seconds();
    emit(outputs.out, matrix_text(c, f));
    emit_json(outputs.json, {{"command", "gemm"}, {"method", linalg::gemm_method_name(resolved)},
                   {"m", a.rows}, {"k", a.cols}, {"n", b.cols}, {"seconds", seconds}});
  });
}

CLI::App* add_linalg_subcommand(CLI::App& app, const std::string& name,
                                const std::string& description, std::size_t inputs,
                                std::shared_ptr<LinalgOptions> o) {
  auto* cmd = app.add_subcommand(name, description);
  cmd->add_option("--prime", o->prime, "work modulo the prime P, 2 <= P < 2^63");
  cmd->add_option("--field", o->field, "real or complex (floating point)")
      ->check(CLI::IsMember({"real", "complex"}));
  cmd->add_option("--tol", o->tolerance, "floating point: entries below this are zero")
      ->check(finite_positive());
  cmd->add_option("--backend", o->backend, "host or device")
      ->check(CLI::IsMember({"host", "device"}));
  cmd->add_option("--out", o->out_path, "write the result to FILE instead of stdout");
  cmd->add_option("--json", o->json_path, "write a JSON summary to FILE");
  cmd->add_flag("-v,--verbose", o->verbose, "progress on stderr");
  cmd->add_option("inputs", o->inputs, inputs == 1 ? "A.mtx ('-' for stdin)" : "A.mtx b.mtx")
      ->required()
      ->expected(static_cast<int>(inputs));
  return cmd;
}

}  // namespace

void add_linalg_commands(CLI::App& app) {
  auto rref = std::make_shared<LinalgOptions>();
  auto* rref_cmd =
      add_linalg_subcommand(app, "rref", "reduced row echelon form (Matrix Market array)", 1, rref);
  rref_cmd->get_option("inputs")->expected(1, 1 << 20)->description(
      "A.mtx ('-' for stdin); several: one job each, outputs in order");
  add_job_options(*rref_cmd, rref->jobs, 1);
  rref_cmd->callback([rref] { run_rref(*rref); });
  auto rank = std::make_shared<LinalgOptions>();
  add_linalg_subcommand(app, "rank", "rank of a matrix", 1, rank)->callback([rank] {
    run_rank(*rank);
  });
  auto nullspace = std::make_shared<LinalgOptions>();
  add_linalg_subcommand(app, "nullspace", "basis of the right null space, as columns", 1,
                        nullspace)
      ->callback([nullspace] { run_nullspace(*nullspace); });
  auto solve = std::make_shared<LinalgOptions>();
  add_linalg_subcommand(app, "solve", "a particular solution x of A x = b (free variables 0)",
                        2, solve)
      ->callback([solve] { run_solve(*solve); });
  auto gemm = std::make_shared<LinalgOptions>();
  add_linalg_subcommand(app, "gemm", "C = A B mod P (Matrix Market array)", 2, gemm)
      ->callback([gemm] { run_gemm(*gemm); })
      ->add_option("--method", gemm->method, "auto, fp64, multiword, int64 or int8")
      ->check(CLI::IsMember({"auto", "fp64", "multiword", "int8", "int64"}));
}

}  // namespace hepex::cli
