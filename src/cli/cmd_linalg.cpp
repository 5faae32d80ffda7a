// `hepex rref | rank | nullspace | solve | gemm`: Gaussian elimination and
// products on Matrix Market and .npy files (docs/cli.md, "Linear algebra").
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string_view>

#include "commands.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/fingerprint.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/core/text_stream.hpp"
#include "hepex/distributed/checkpoint.hpp"
#include "hepex/distributed/job.hpp"
#include "hepex/io/matrix_market.hpp"
#include "hepex/io/npy.hpp"
#include "hepex/io/npy_rows.hpp"
#include "hepex/linalg/distributed_rref.hpp"
#include "hepex/linalg/echelon.hpp"
#include "hepex/linalg/jobs.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "job_options.hpp"
#include "mpi_session.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "progress_lines.hpp"

namespace hepex::cli {

namespace {

struct LinalgOptions {
  std::string prime;
  std::string field;
  double tolerance = 1e-10;
  std::string backend = has_accelerator ? "device" : "host";
  std::string out_path;
  std::string format = "auto";
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
std::size_t device_memory_limit(Place backend) {
  const auto found = devices();
  if (backend == Place::device && !found.empty()) return found.front().memory_bytes;
  return std::numeric_limits<std::size_t>::max();
}

// The memory for the work and the copies of an input it needs: the
// elimination commands hold, on the host, the input, the result and its
// output; on a device one copy, reduced in place, and rref's scratch
// (linalg::rref_device_workspace).
constexpr std::size_t elimination_copies = 3;

io::ReadLimits read_limits(Place backend, std::size_t copies) {
  io::ReadLimits limits;
  limits.copies = copies;
  limits.max_bytes = host_memory_bytes();
  if (runs_on(backend) == Place::device) {
    limits.device_bytes = device_memory_limit(backend);
    if (copies == elimination_copies) limits.device_workspace = linalg::rref_device_workspace;
  }
  return limits;
}

// Refuses, before the work, an output of rows x cols entries that cannot fit.
template <class F>
void check_output_fits(const char* what, std::size_t rows, std::size_t cols, Place backend) {
  const io::ReadLimits limits = read_limits(backend, 1);
  const std::size_t limit = limits.device_bytes != 0
                                ? std::min(limits.max_bytes, limits.device_bytes)
                                : limits.max_bytes,
                    entry = sizeof(typename F::value_type);
  if (cols == 0 || rows <= limit / entry / cols) return;
  std::ostringstream message;
  message << std::setprecision(3) << what << " has " << rows << " x " << cols << " entries, "
          << static_cast<double>(rows) * static_cast<double>(cols) * entry / (1u << 30)
          << " GiB, more than the " << static_cast<double>(limit) / (1u << 30) << " GiB of memory";
  throw Error(message.str());
}

// Reads a whole input ("-" is stdin, Matrix Market; FILE.npy is .npy) before
// any device work.
template <class F>
Matrix<typename F::value_type> read_input(const std::string& path, const F& f, Place backend,
                                          std::size_t copies = elimination_copies) {
  const io::ReadLimits limits = read_limits(backend, copies);
  if (path == "-") return io::read_matrix_market(std::cin, "<stdin>", f, limits);
  return io::read_matrix(io::MatrixSource::file(path), f, limits);
}

using OutputFormat = linalg::MatrixFormat;

// --format (auto: npy for an --out FILE.npy, array otherwise); checked
// before any input is read. A .npy file is never written to standard output.
OutputFormat output_format(const LinalgOptions& o) {
  const std::string name = o.format != "auto"            ? o.format
                           : io::is_npy_path(o.out_path) ? "npy"
                                                         : "array";
  if (name == "array") return OutputFormat::array;
  if (name == "coordinate") return OutputFormat::coordinate;
  if (o.out_path.empty()) {
    throw Error("--format npy needs --out FILE: .npy output is not written to standard output");
  }
  return OutputFormat::npy;
}

// Writes a to out and commits: straight into a file, or built once and
// written in one piece to standard output (its stream would take the text a
// character at a time).
template <class F>
void emit_matrix(OutputFile& out, const Matrix<typename F::value_type>& a, const F& f,
                 OutputFormat format) {
  if (out.is_file()) {
    io::write_matrix(out.stream(), a, f, format);
    out.commit();
    return;
  }
  TextStream text(io::output_bytes(a, f, format));
  io::write_matrix(text, a, f, format);
  emit(out, text.take());
}

// Refuses, before any elimination, a spread matrix of `total` rows whose
// block of `rows` rows of `cols` columns does not fit this rank's device
// with rref's scratch (too large even when spread: more ranks would hold
// it), or whose RREF does not fit rank 0's memory, where it is gathered.
template <class Word>
void check_spread_fits(const distributed::Communicator& comm, const std::string& name,
                       std::size_t total, std::size_t rows, std::size_t cols, Place backend) {
  if (comm.rank() == 0) check_output_fits<field::Zp<Word>>("the RREF", total, cols, Place::host);
  if (runs_on(backend) != Place::device) return;
  const std::size_t need = rows * cols * sizeof(Word) +
                           linalg::rref_device_workspace(rows, cols, sizeof(Word)),
                    have = device_memory_limit(backend);
  if (need <= have) return;
  std::ostringstream message;
  message << std::setprecision(3) << name << ": " << rows << " rows with rref's scratch need "
          << static_cast<double>(need) / (1u << 30) << " GiB on this rank's device, which has "
          << static_cast<double>(have) / (1u << 30) << " GiB: use more ranks";
  throw Error(message.str());
}

// The first rank's error, or else a rank whose fingerprint differs from rank
// 0's, as the same Error on every rank of comm (nothing when all agree).
void agree_on_input(const distributed::Communicator& comm, const std::string& input,
                    const std::string& error, const std::string& fingerprint) {
  const std::vector<std::string> parts =
      comm.gather((error.empty() ? "ok " : "error ") + (error.empty() ? fingerprint : error));
  std::string verdict;
  for (std::size_t r = 0; r < parts.size() && verdict.empty(); ++r) {
    if (parts[r].rfind("error ", 0) == 0) {
      verdict = "rank " + std::to_string(r) + ": " + parts[r].substr(6);
    } else if (parts[r] != parts[0]) {
      verdict = input + ": rank " + std::to_string(r) + " read another matrix than rank 0 (" +
                parts[r].substr(3) + " against " + parts[0].substr(3) +
                "); every rank must see the same input";
    }
  }
  comm.broadcast(verdict);
  if (!verdict.empty()) throw Error(verdict);
}

// One matrix over Z/p on several ranks (without --checkpoint): its rows are
// spread over the ranks (linalg::distributed_rref, docs/linalg.md). Each rank
// reads its block of rows: of a .npy file only those (io::read_npy_rows),
// of Matrix Market text the whole matrix, kept until its block is taken. The
// ranks must have read the same input (the file's or the matrix's
// fingerprint), and each block, with rref's scratch, must fit its rank's
// device. Rank 0 gathers the RREF and writes it as one rank would.
template <class Word>
void run_rref_spread(const LinalgOptions& o, const field::Zp<Word>& f,
                     const linalg::MatrixInput& input, OutputFormat format, Outputs& outputs) {
  const auto& comm = communicator();
  const Place backend = parse_place(o.backend);
  Matrix<Word> local;
  std::string error, print;
  try {
    const io::ReadLimits limits = read_limits(Place::host, elimination_copies);
    if (!input.is_text && io::is_npy_path(input.name)) {
      print = distributed::file_fingerprint(input.name);
      io::NpyShape shape;
      io::read_npy_rows(input.name, f, 0, 0, limits, &shape);
      const auto [first, count] = linalg::rank_rows(shape.rows, comm.rank(), comm.size());
      check_spread_fits<Word>(comm, input.name, shape.rows, count, shape.cols, backend);
      local = io::read_npy_rows(input.name, f, first, count, limits);
    } else {
      const Matrix<Word> a = io::read_matrix(input, f, limits);
      Fnv1a hash;
      hash.add_word(a.rows);
      hash.add_word(a.cols);
      hash.add(a.data.data(), a.data.size() * sizeof(Word));
      print = hash.hexadecimal();
      const auto [first, count] = linalg::rank_rows(a.rows, comm.rank(), comm.size());
      check_spread_fits<Word>(comm, input.name, a.rows, count, a.cols, backend);
      local = Matrix<Word>(count, a.cols);
      std::copy_n(a.data.begin() + static_cast<std::ptrdiff_t>(first * a.cols), count * a.cols,
                  local.data.begin());
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  agree_on_input(comm, input.name, error, print);
  linalg::DistributedRrefOptions options;
  options.place = backend;
  Kokkos::Timer timer;
  const auto r = linalg::distributed_rref(comm, f, local, options);
  const double seconds = timer.seconds();
  const Matrix<Word> reduced = linalg::gather_rref(comm, local, r);
  if (comm.rank() != 0) return;
  if (outputs.json.is_file()) {
    emit_json(outputs.json, {{"command", "rref"},
                             {"backend", o.backend},
                             {"ranks", comm.size()},
                             {"distributed", true},
                             {"panels", r.panels},
                             {"nccl", r.nccl},
                             {"input", o.inputs.at(0)},
                             {"rows", r.rows},
                             {"cols", r.cols},
                             {"rank", r.rank},
                             {"pivots", r.pivots},
                             {"seconds", seconds},
                             {"rank0_seconds_by_step",
                              {{"candidates", r.seconds.candidates},
                               {"choose", r.seconds.choose},
                               {"rows", r.seconds.rows},
                               {"messages", r.seconds.messages},
                               {"update", r.seconds.update},
                               {"back", r.seconds.back}}}});
  }
  TextStream text(io::output_bytes(reduced, f, format));
  io::write_matrix(text, reduced, f, format);
  outputs.out.write(text.take());
  outputs.out.commit();
}

// Each input file is one job (docs/cli.md "Many jobs, many ranks";
// linalg::RrefJobs): its result is its RREF in the output's format, moved
// (not copied) to the output on rank 0, with what the --json summary says of
// it. Several inputs give their outputs one after the other, in input order.
void run_rref(const LinalgOptions& o) {
  const auto& comm = communicator();
  const bool several = o.inputs.size() > 1;
  if (several && std::count(o.inputs.begin(), o.inputs.end(), "-") > 0) {
    throw Error("stdin ('-') can only be the single input");
  }
  const OutputFormat format = output_format(o);
  if (several && format == OutputFormat::npy) {
    throw Error(
        ".npy output (--format npy, or --out FILE.npy) takes one input: a .npy file "
        "holds one matrix; use --format array or coordinate for several");
  }
  auto outputs = open_outputs(o.out_path, o.json_path, comm);
  std::vector<linalg::MatrixInput> inputs;
  for (const auto& path : o.inputs) {
    inputs.push_back(path == "-"
                         ? linalg::MatrixInput::contents("<stdin>", read_on_rank0("-", comm))
                         : linalg::MatrixInput::file(path));
  }
  with_field(o, [&](const auto& f) {
    using Field = std::decay_t<decltype(f)>;
    if constexpr (Field::is_exact) {
      if (!several && !comm.alone() && o.jobs.checkpoint.empty()) {
        run_rref_spread(o, f, inputs.at(0), format, outputs);
        return;
      }
    }
    const Place backend = parse_place(o.backend);
    linalg::RrefJobs jobs(f, std::move(inputs), backend, format,
                          read_limits(backend, elimination_copies));
    Kokkos::Timer timer;
    auto results = distributed::run(comm, jobs, run_options(o.jobs));
    const double job_seconds = timer.seconds();
    if (comm.rank() != 0) return;
    // The summary first: a --json that cannot be written leaves --out as it
    // was and standard output empty.
    if (outputs.json.is_file()) {
      nlohmann::json summaries = nlohmann::json::array();
      for (std::size_t j = 0; j < results.size(); ++j) {
        const auto& r = results[j];
        summaries.push_back({{"input", o.inputs[j]},
                             {"rows", r.rows},
                             {"cols", r.cols},
                             {"rank", r.rank},
                             {"pivots", r.pivots},
                             {"seconds", r.seconds}});
      }
      nlohmann::json summary{{"command", "rref"}, {"backend", o.backend}, {"ranks", comm.size()}};
      if (several) {
        summary["matrices"] = summaries;
        summary["seconds"] = job_seconds;  // every job, on every rank, until rank 0 holds all
      } else {
        summary.update(summaries[0]);
      }
      emit_json(outputs.json, summary);
    }
    for (const auto& r : results) outputs.out.write(r.matrix);
    outputs.out.commit();
  });
}

void run_rank(const LinalgOptions& o) {
  auto outputs = open_outputs(o.out_path, o.json_path);
  with_field(o, [&](const auto& f) {
    const Place backend = parse_place(o.backend);
    const auto r = linalg::rank(f, read_input(o.inputs.at(0), f, backend), backend);
    emit_json(outputs.json, {{"command", "rank"}, {"rank", r}});
    emit(outputs.out, std::to_string(r) + "\n");
  });
}

void run_nullspace(const LinalgOptions& o) {
  const OutputFormat format = output_format(o);
  auto outputs = open_outputs(o.out_path, o.json_path);
  with_field(o, [&](const auto& f) {
    const Place backend = parse_place(o.backend);
    const auto a = read_input(o.inputs.at(0), f, backend);
    // At least cols - rows basis vectors of cols entries each.
    check_output_fits<std::decay_t<decltype(f)>>("the null space", a.cols,
                                                 a.cols - std::min(a.rows, a.cols), backend);
    const auto n = linalg::nullspace(f, a, backend);
    emit_json(outputs.json, {{"command", "nullspace"}, {"dimension", n.cols}});
    emit_matrix(outputs.out, n, f, format);
  });
}

void run_solve(const LinalgOptions& o) {
  const OutputFormat format = output_format(o);
  auto outputs = open_outputs(o.out_path, o.json_path);
  with_field(o, [&](const auto& f) {
    const Place backend = parse_place(o.backend);
    const auto a = read_input(o.inputs.at(0), f, backend);
    const auto b = read_input(o.inputs.at(1), f, backend);
    if (a.rows != b.rows) {
      throw Error(o.inputs[0] + " has " + std::to_string(a.rows) + " rows but " + o.inputs[1] +
                  " has " + std::to_string(b.rows));
    }
    const auto s = linalg::solve(f, a, b, backend);
    emit_json(outputs.json, {{"command", "solve"},
                             {"consistent", s.consistent},
                             {"nullspace_dimension", s.nullspace.cols}});
    if (!s.consistent) throw Error("inconsistent", ErrorKind::negative_answer);
    emit_matrix(outputs.out, s.particular, f, format);
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
  const OutputFormat format = output_format(o);
  auto outputs = open_outputs(o.out_path, o.json_path);
  with_prime_field(o, [&](const auto& f) {
    const Place backend = parse_place(o.backend);
    // Checked before reading: a method that is not exact for P is an error.
    const linalg::GemmMethod resolved =
        linalg::resolve_gemm_method(method, f.modulus(), runs_on(backend));
    const auto a = read_input(o.inputs.at(0), f, backend, 1);
    const auto b = read_input(o.inputs.at(1), f, backend, 1);
    if (a.cols != b.rows) {
      throw Error(o.inputs[0] + " has " + std::to_string(a.cols) + " columns but " + o.inputs[1] +
                  " has " + std::to_string(b.rows) + " rows");
    }
    check_output_fits<std::decay_t<decltype(f)>>("the product", a.rows, b.cols, backend);
    Kokkos::Timer timer;
    const auto c = linalg::modgemm(f, a, b, method, backend);
    const double seconds = timer.seconds();
    emit_json(outputs.json, {{"command", "gemm"},
                             {"method", linalg::gemm_method_name(resolved)},
                             {"m", a.rows},
                             {"k", a.cols},
                             {"n", b.cols},
                             {"seconds", seconds}});
    emit_matrix(outputs.out, c, f, format);
  });
}

CLI::App* add_linalg_subcommand(CLI::App& app, const std::string& name,
                                const std::string& description, std::size_t inputs,
                                std::shared_ptr<LinalgOptions> o, bool modular_only = false) {
  auto* cmd = app.add_subcommand(name, description);
  cmd->add_option("--prime", o->prime,
                  modular_only ? "work modulo the prime P, 2 <= P < 2^63 (no default: "
                                 "required)"
                               : "work modulo the prime P, 2 <= P < 2^63 (no default: give "
                                 "--prime or --field)");
  if (!modular_only) {
    cmd->add_option("--field", o->field,
                    "real (float64) or complex (complex128), instead of --prime (default: none)")
        ->check(CLI::IsMember({"real", "complex"}));
    cmd->add_option("--tol", o->tolerance, "--field: entries of magnitude below this are zero")
        ->check(finite_positive());
  }
  cmd->add_option("--backend", o->backend,
                  "host or device execution space (default: device if the build has one)")
      ->check(CLI::IsMember({"host", "device"}));
  cmd->add_option("--out", o->out_path, "write the result to FILE (default: standard output)");
  if (name != "rank") {
    cmd->add_option("--format", o->format,
                    "auto (npy when --out ends in .npy, else array), array or coordinate "
                    "(Matrix Market), npy (needs --out FILE)")
        ->check(CLI::IsMember({"auto", "array", "coordinate", "npy"}));
  }
  cmd->add_option("--json", o->json_path, "write a JSON summary to FILE (default: none)");
  cmd->add_flag("-v,--verbose", o->verbose,
                "progress on stderr every 2 s: columns or rows done, rate, ETA (default: a "
                "line every 30 s of a long run)");
  cmd->add_option("inputs", o->inputs,
                  inputs == 1 ? "A.mtx or A.npy ('-': Matrix Market on stdin)"
                              : "A.mtx b.mtx (or .npy files)")
      ->required()
      ->expected(static_cast<int>(inputs));
  return cmd;
}

}  // namespace

void add_linalg_commands(CLI::App& app) {
  auto rref = std::make_shared<LinalgOptions>();
  auto* rref_cmd = add_linalg_subcommand(app, "rref", "reduced row echelon form", 1, rref);
  rref_cmd->get_option("inputs")
      ->expected(1, 1 << 20)
      ->description(
          "A.mtx or A.npy ('-': Matrix Market on stdin); several: one job each, outputs in order");
  add_job_options(*rref_cmd, rref->jobs, 1);
  rref_cmd->callback([rref] {
    const auto watch = verbose_progress(rref->verbose, communicator().rank());
    run_rref(*rref);
  });
  auto rank = std::make_shared<LinalgOptions>();
  add_linalg_subcommand(app, "rank", "rank of a matrix", 1, rank)->callback([rank] {
    const auto watch = verbose_progress(rank->verbose, 0);
    run_rank(*rank);
  });
  auto nullspace = std::make_shared<LinalgOptions>();
  add_linalg_subcommand(app, "nullspace", "basis of the right null space, as columns", 1, nullspace)
      ->callback([nullspace] {
        const auto watch = verbose_progress(nullspace->verbose, 0);
        run_nullspace(*nullspace);
      });
  auto solve = std::make_shared<LinalgOptions>();
  add_linalg_subcommand(app, "solve", "a particular solution x of A x = b (free variables 0)", 2,
                        solve)
      ->callback([solve] {
        const auto watch = verbose_progress(solve->verbose, 0);
        run_solve(*solve);
      });
  auto gemm = std::make_shared<LinalgOptions>();
  add_linalg_subcommand(app, "gemm", "C = A B mod P", 2, gemm, true)
      ->callback([gemm] {
        const auto watch = verbose_progress(gemm->verbose, 0);
        run_gemm(*gemm);
      })
      ->add_option("--method", gemm->method,
                   "auto, fp64, multiword, int64 or int8 (one that is not exact for P is "
                   "refused)")
      ->check(CLI::IsMember({"auto", "fp64", "multiword", "int8", "int64"}));
}

}  // namespace hepex::cli
