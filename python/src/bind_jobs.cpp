// hepex.jobs (python/hepex/jobs.py documents it): the families' job lists
// (distributed/job.hpp) from Python, with checkpoints and, under an MPI
// launcher, over MPI_COMM_WORLD: the same jobs as `hepex rref A B ...`,
// `hepex reconstruct --file` and `hepex me --batches`.
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "hepex/amplitudes/jobs.hpp"
#include "hepex/config.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/linalg/jobs.hpp"
#include "hepex/reconstruct/jobs.hpp"
#include "python_call.hpp"

namespace hepex::python {

namespace {

// The ranks: the process alone, or MPI_COMM_WORLD (MPI initialised here if
// the program has not done it, and finalised at interpreter exit).
const distributed::Communicator& ranks(bool mpi) {
  static const distributed::Communicator alone;
  if (!mpi) return alone;
#if HEPEX_HAS_MPI
  static std::unique_ptr<distributed::Communicator> world;
  if (!world) {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) {
      int provided = 0;
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
      py::module_::import("atexit").attr("register")(py::cpp_function([] {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (!finalised) MPI_Finalize();
      }));
    }
    world = std::make_unique<distributed::Communicator>(MPI_COMM_WORLD);
  }
  return *world;
#else
  throw Error("mpi=True: this hepex was built without MPI (-DHEPEX_ENABLE_MPI=OFF)");
#endif
}

distributed::RunOptions run_options(const std::string& checkpoint, const std::string& schedule,
                                    std::size_t chunk) {
  distributed::RunOptions options;
  options.schedule = distributed::parse_schedule(schedule);
  if (chunk == 0) throw Error("chunk = 0: at least 1");
  options.chunk = chunk;
  options.checkpoint = checkpoint;
  return options;
}

template <class Result>
std::vector<Result> run_released(const distributed::Communicator& comm,
                                 distributed::Job<Result>& job,
                                 const distributed::RunOptions& options) {
  py::gil_scoped_release release;
  return distributed::run(comm, job, options);
}

py::list rref_results(const std::vector<linalg::RrefJobResult>& results) {
  py::list out;
  for (const auto& r : results) {
    py::dict d;
    d["rows"] = r.rows;
    d["cols"] = r.cols;
    d["rank"] = r.rank;
    d["pivots"] = r.pivots;
    d["seconds"] = r.seconds;
    d["matrix"] = py::bytes(r.matrix);
    out.append(d);
  }
  return out;
}

template <class F>
py::list rref_jobs_in(const F& f, const std::vector<std::string>& paths, Place place,
                      io::MatrixFormat format, const distributed::RunOptions& options, bool mpi) {
  std::vector<io::MatrixSource> inputs;
  for (const auto& p : paths) inputs.push_back(io::MatrixSource::file(p));
  io::ReadLimits limits;
  limits.max_bytes = host_memory_bytes();
  limits.copies = 3;
  linalg::RrefJobs<F> jobs(f, std::move(inputs), place, format, limits);
  return rref_results(run_released(ranks(mpi), jobs, options));
}

py::list rref_jobs(const std::vector<std::string>& paths, std::uint64_t p, double tol,
                   const std::string& field, const std::string& backend, const std::string& format,
                   const std::string& checkpoint, const std::string& schedule, std::size_t chunk,
                   bool mpi) {
  const PythonCall call;
  const auto options = run_options(checkpoint, schedule, chunk);
  const Place place = parse_backend_argument(backend);
  const io::MatrixFormat fmt = format == "coordinate" ? io::MatrixFormat::coordinate
                               : format == "npy"      ? io::MatrixFormat::npy
                                                      : io::MatrixFormat::array;
  return with_field(p, tol, field == "complex", [&](const auto& f) {
    return rref_jobs_in(f, paths, place, fmt, options, mpi);
  });
}

py::list reconstruct_jobs(const std::vector<std::string>& texts,
                          const std::vector<std::string>& names, std::size_t primes,
                          std::uint64_t seed, bool seed_given, std::size_t max_degree,
                          std::size_t threads, bool together, bool factored,
                          const std::string& checkpoint, const std::string& schedule,
                          std::size_t chunk, bool mpi) {
  const PythonCall call;
  const auto options = run_options(checkpoint, schedule, chunk);
  std::vector<io::Expression> expressions;
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    labels.push_back("expressions[" + std::to_string(i) + "]");
    try {
      expressions.push_back(io::Expression::parse(texts[i], names));
    } catch (const Error& e) {
      throw Error(labels.back() + ": " + e.what());
    }
  }
  reconstruct::ExpressionJobSettings settings;
  settings.variables = names;
  settings.options.max_primes = primes;
  settings.options.seed = seed;
  settings.options.max_degree = max_degree;
  settings.options.threads = threads;
  settings.options.max_primes_name = "primes";
  settings.together = together;
  settings.factored = factored;
  settings.probe_logs = checkpoint;
  settings.seed_given = seed_given;
  reconstruct::ExpressionJobs jobs(std::move(expressions), texts, labels, std::move(settings));
  const auto results = run_released(ranks(mpi), jobs, options);
  py::list out;
  for (std::size_t j = 0; j < results.size(); ++j) {
    const auto& r = results[j];
    py::dict d;
    d["ok"] = r.ok;
    d["inputs"] = py::make_tuple(jobs.first(j), jobs.last(j));
    d["functions"] = r.functions;
    d["error"] = r.error;
    d["seed"] = r.seed;
    d["primes"] = r.primes;
    d["probes"] = r.probes;
    d["seconds"] = r.seconds;
    d["black_box_seconds"] = r.black_box_seconds;
    py::list uses;
    for (const auto& u : r.prime_uses)
      uses.append(py::make_tuple(u.prime, reconstruct::to_string(u.role), u.probes));
    d["prime_uses"] = uses;
    out.append(d);
  }
  return out;
}

py::list me_batches(const std::string& process, std::size_t events, std::size_t batches,
                    std::uint64_t seed, double sqrt_s, const std::string& precision,
                    const std::string& checkpoint, const std::string& schedule, std::size_t chunk,
                    bool mpi) {
  const PythonCall call;
  const auto options = run_options(checkpoint, schedule, chunk);
  const auto which = amplitudes::parse_process(process);
  amplitudes::check_batch_memory(events, amplitudes::process_info(which));
  amplitudes::MatrixElementOptions me_options;
  me_options.precision = amplitudes::parse_precision(precision);
  amplitudes::MatrixElement me(which, me_options);
  amplitudes::RamboBatchSettings settings;
  settings.events = events;
  settings.batches = batches;
  settings.seed = seed;
  settings.sqrt_s = sqrt_s;
  amplitudes::RamboBatchJobs jobs(me, settings);
  const auto results = run_released(ranks(mpi), jobs, options);
  py::list out;
  for (const auto& r : results) {
    py::dict d;
    d["sum"] = r.sum;
    d["mean"] = r.sum / static_cast<double>(events);
    d["seconds"] = r.seconds;
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_jobs(py::module_& m) {
  m.def("rref_jobs", &rref_jobs, py::arg("paths"), py::arg("p"), py::arg("tol"), py::arg("field"),
        py::arg("backend"), py::arg("format"), py::arg("checkpoint"), py::arg("schedule"),
        py::arg("chunk"), py::arg("mpi"));
  m.def("reconstruct_jobs", &reconstruct_jobs, py::arg("texts"), py::arg("names"),
        py::arg("primes"), py::arg("seed"), py::arg("seed_given"), py::arg("max_degree"),
        py::arg("threads"), py::arg("together"), py::arg("factored"), py::arg("checkpoint"),
        py::arg("schedule"), py::arg("chunk"), py::arg("mpi"));
  m.def("me_batches", &me_batches, py::arg("process"), py::arg("events"), py::arg("batches"),
        py::arg("seed"), py::arg("sqrt_s"), py::arg("precision"), py::arg("checkpoint"),
        py::arg("schedule"), py::arg("chunk"), py::arg("mpi"));
}

}  // namespace hepex::python
