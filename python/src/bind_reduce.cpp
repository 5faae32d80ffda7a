// hepex.reduce: IBP reduction of a linear system of integrals to masters
// (hepex/reduce/reduce.hpp). The Python layer reads the files; here the
// texts are parsed (errors name file, line and column, before any work)
// and reduced with the GIL released.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/host_threads.hpp"
#include "hepex/reconstruct/factored_form.hpp"
#include "hepex/reduce/reduce.hpp"
#include "hepex/reduce/system.hpp"
#include "python_call.hpp"

namespace hepex::python {

namespace py = pybind11;

namespace {

// (targets, masters, table as texts [target][master] ("0" where absent),
// master_targets, preferred masters that are not masters, stats dict).
py::tuple reduce_system(const std::string& system_text, const std::string& system_name,
                        const std::vector<std::string>& names, const std::string& targets_text,
                        const std::string& targets_name, const std::string& order_text,
                        const std::string& order_name, const std::string& masters_text,
                        const std::string& masters_name, const std::string& checkpoint,
                        bool seed_given, std::size_t primes, std::uint64_t seed,
                        std::size_t max_degree, bool factored, const py::object& progress,
                        std::size_t threads) {
  if (primes < 1) throw Error("primes = 0: at least one prime is needed");
  if (max_degree < 1) throw Error("max_degree = 0 must be at least 1");
  // One pool of host threads for reading and for reduce().
  std::unique_ptr<HostThreads> pool;
  if (resolve_host_threads(threads) > 1) pool = std::make_unique<HostThreads>(threads);
  const auto system = reduce::read_system(system_text, system_name, names, pool.get());
  const auto targets = reduce::read_integral_list(targets_text, targets_name);
  if (targets.integrals.empty()) throw Error(targets_name + ": no targets");
  reduce::require_in_system(system, targets, targets_name, "target");
  reduce::ReduceOptions options;
  options.targets = targets.integrals;
  if (!order_name.empty())
    options.order = reduce::read_integral_list(order_text, order_name).integrals;
  if (!masters_name.empty()) {
    const auto masters = reduce::read_integral_list(masters_text, masters_name);
    reduce::require_in_system(system, masters, masters_name, "preferred master");
    options.preferred_masters = masters.integrals;
  }
  options.checkpoint = checkpoint;
  options.seed_given = seed_given;
  options.remove_checkpoint = false;  // kept: a rerun replays it
  options.reconstruction.max_primes = primes;
  options.reconstruction.seed = seed;
  options.reconstruction.max_degree = max_degree;
  options.reconstruction.max_primes_name = "primes";
  options.reconstruction.max_degree_name = "max_degree";
  options.reconstruction.threads = threads;
  options.reconstruction.pool = pool.get();
  const PythonCall call(progress);
  reduce::Reduction r;
  {
    py::gil_scoped_release release;
    r = reduce::reduce(system, options);
  }
  std::vector<std::string> target_texts, master_texts;
  for (const auto& t : r.targets) target_texts.push_back(t.text());
  for (const auto& m : r.masters) master_texts.push_back(m.text());
  std::vector<std::vector<std::string>> table(r.table.size());
  for (std::size_t t = 0; t < r.table.size(); ++t) {
    for (const auto& q : r.table[t]) {
      table[t].push_back(q.num.terms() == 0 ? std::string("0")
                         : factored         ? reconstruct::to_shorter_string(q, names)
                                            : reconstruct::to_string(q, names));
    }
  }
  py::dict stats;
  stats["equations"] = r.equations;
  stats["equations_used"] = r.equations_needed;
  stats["integrals"] = r.integrals;
  stats["probes"] = r.probes;
  stats["primes"] = r.primes;
  stats["seed"] = r.seed;
  stats["threads"] = resolve_host_threads(threads);
  stats["replay_instructions"] = r.instructions;
  stats["replay_registers"] = r.registers;
  stats["learn_seconds"] = r.learn_seconds;
  stats["probe_seconds"] = r.probe_seconds;
  stats["algebra_seconds"] = r.algebra_seconds;
  stats["check_seconds"] = r.check_seconds;
  stats["replayed_probes"] = r.replayed;
  std::vector<std::string> unmet;
  for (const auto& m : r.unmet_preferred) unmet.push_back(m.text());
  return py::make_tuple(target_texts, master_texts, table, r.master_targets, unmet, stats);
}

}  // namespace

void bind_reduce(py::module_& m) {
  m.def("reduce_system", &reduce_system, py::arg("system_text"), py::arg("system_name"),
        py::arg("variables"), py::arg("targets_text"), py::arg("targets_name"),
        py::arg("order_text"), py::arg("order_name"), py::arg("masters_text"),
        py::arg("masters_name"), py::arg("checkpoint"), py::arg("seed_given"), py::arg("primes"),
        py::arg("seed"), py::arg("max_degree"), py::arg("factored"), py::arg("progress"),
        py::arg("threads"));
}

}  // namespace hepex::python
