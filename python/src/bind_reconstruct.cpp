// hepex.reconstruct: rational functions over Q from expressions or from a
// Python black box evaluated mod 63-bit primes.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bindings.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/factored_form.hpp"
#include "hepex/reconstruct/probe_log.hpp"
#include "hepex/reconstruct/rational.hpp"
#include "python_call.hpp"

namespace hepex::python {

namespace {

// A vectorised Python callable as a black box: f(points, p) with points a
// (count, variables) uint64 array of residues returns the values, a (count,)
// or (count, functions) integer array (reduced here), or a pair (values, ok)
// whose boolean ok is False at points where the functions are undefined.
class PythonBlackBox : public reconstruct::BlackBox {
 public:
  PythonBlackBox(py::object f, std::size_t variables, std::size_t functions)
      : f_(std::move(f)), variables_(variables), functions_(functions) {}
  ~PythonBlackBox() override {
    py::gil_scoped_acquire gil;
    f_ = py::object();
  }
  std::size_t variables() const override { return variables_; }
  std::size_t functions() const override { return functions_; }

  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& points,
                std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) const override {
    py::gil_scoped_acquire gil;
    py::array_t<std::uint64_t> x({count, variables_});
    std::copy(points.begin(), points.end(), x.mutable_data());
    py::object result = f_(x, f.modulus());
    ok.assign(count, 1);
    if (py::isinstance<py::tuple>(result)) {
      const py::tuple pair = result;
      if (pair.size() != 2)
        throw Error("f(points, p) returned a tuple of " + std::to_string(pair.size()) +
                    ", not (values, ok)");
      const auto valid =
          py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(pair[1]);
      if (!valid || valid.ndim() != 1 || static_cast<std::size_t>(valid.shape(0)) != count) {
        throw Error("f(points, p): ok must be a boolean array of " + std::to_string(count) +
                    " entries");
      }
      for (std::size_t i = 0; i < count; ++i) ok[i] = valid.data()[i] ? 1 : 0;
      result = pair[0];
    }
    py::array v = py::module_::import("numpy").attr("asarray")(result);
    if (v.dtype().kind() == 'O') {
      // Python ints and exact fractions, read mod p by the Python layer; a
      // fraction whose denominator p divides is a point where f is undefined.
      const py::tuple read =
          py::module_::import("hepex").attr("_object_residues")(v, f.modulus(), "f(points, p)");
      v = read[0];
      const auto defined =
          py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(read[1]);
      for (std::size_t i = 0; i < count && i < static_cast<std::size_t>(defined.size()); ++i) {
        if (!defined.data()[i]) ok[i] = 0;
      }
    } else if (v.dtype().kind() == 'f' || v.dtype().kind() == 'c') {
      throw Error("f(points, p) returned " + std::string(py::str(v.dtype())) +
                  " values: values mod p must be integers (or exact fractions such as "
                  "fractions.Fraction, as dtype=object)");
    }
    const bool shape_ok =
        (v.ndim() == 1 && functions_ == 1 && static_cast<std::size_t>(v.shape(0)) == count) ||
        (v.ndim() == 2 && static_cast<std::size_t>(v.shape(0)) == count &&
         static_cast<std::size_t>(v.shape(1)) == functions_);
    if (!shape_ok) {
      throw Error("f(points, p) for " + std::to_string(count) + " points must return " +
                  (functions_ == 1 ? std::to_string(count) + " values"
                                   : "a (" + std::to_string(count) + ", " +
                                         std::to_string(functions_) + ") array") +
                  ", not shape " + std::string(py::str(v.attr("shape"))));
    }
    values.resize(count * functions_);
    load(v, f, values.data(), "f(points, p)");
  }

 private:
  py::object f_;
  std::size_t variables_, functions_;
};

// One reconstruction's answers (as text) and its work: (answers, seed,
// images, [(prime, role, probes)], probes, seconds, black-box seconds,
// error): a reconstruction that ended without an answer has answers None
// and its message in error (the Python layer raises NegativeAnswer with the
// work attached).
// A probe log (checkpoint: its path, else empty; identity: what the values
// depend on) keeps every probe; a rerun without a seed takes the log's.
struct LogUse {
  std::string path, identity;
  bool seed_given = true;
  bool factored = false;  // answers in factored form where shorter
};

py::tuple run(const reconstruct::BlackBox& box, reconstruct::ReconstructOptions options,
              const std::vector<std::string>& names, const py::object& progress,
              const LogUse& use = {}) {
  const PythonCall call(progress);
  reconstruct::Reconstruction r;
  std::string error;
  {
    py::gil_scoped_release release;
    std::optional<reconstruct::ProbeLog> log;
    if (!use.path.empty()) {
      log.emplace(box, use.path, use.identity, options.seed);
      if (!use.seed_given) options.seed = log->seed();
    }
    try {
      r = reconstruct::reconstruct(log ? static_cast<const reconstruct::BlackBox&>(*log) : box,
                                   options);
    } catch (const reconstruct::ReconstructionFailure& e) {
      r = e.partial();
      error = e.what();
    }
  }
  std::vector<std::string> texts;
  for (const auto& function : r.functions)
    texts.push_back(use.factored ? reconstruct::to_shorter_string(function, names)
                                 : reconstruct::to_string(function, names));
  py::list primes;
  for (const auto& use : r.prime_uses) {
    primes.append(py::make_tuple(use.prime, reconstruct::to_string(use.role), use.probes));
  }
  return py::make_tuple(error.empty() ? py::cast(texts) : py::object(py::none()), r.seed, r.primes,
                        primes, r.probes, r.seconds, r.black_box_seconds, error);
}

reconstruct::ReconstructOptions options_of(std::size_t primes, std::uint64_t seed,
                                           std::size_t max_degree, const std::string& factor_scan) {
  if (primes < 1) throw Error("primes = 0: at least one prime is needed");
  if (max_degree < 1) throw Error("max_degree = 0 must be at least 1");
  reconstruct::ReconstructOptions options;
  options.max_primes = primes;
  options.seed = seed;
  options.max_degree = max_degree;
  options.max_primes_name = "primes";
  options.max_degree_name = "max_degree";
  using Scan = reconstruct::ReconstructOptions::FactorScan;
  if (factor_scan == "auto") {
    options.factor_scan = Scan::automatic;
  } else if (factor_scan == "on") {
    options.factor_scan = Scan::on;
  } else if (factor_scan == "off") {
    options.factor_scan = Scan::off;
  } else {
    throw Error("factor_scan = '" + factor_scan + "' is not one of auto, on, off");
  }
  return options;
}

std::vector<io::Expression> parse_all(const std::vector<std::string>& texts,
                                      const std::vector<std::string>& names) {
  std::vector<io::Expression> expressions;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    try {
      expressions.push_back(io::Expression::parse(texts[i], names));
    } catch (const Error& e) {
      throw Error("expression " + std::to_string(i) + ": " + e.what(), e.kind());
    }
  }
  return expressions;
}

// Expressions as one black box (each on its own: one at a time; every one
// is parsed first, by parse_all).
py::tuple reconstruct_expressions(const std::vector<std::string>& texts,
                                  const std::vector<std::string>& names, std::size_t primes,
                                  std::uint64_t seed, std::size_t max_degree,
                                  const std::string& factor_scan, const py::object& progress,
                                  const std::string& checkpoint, bool seed_given, bool factored) {
  auto expressions = parse_all(texts, names);
  const auto box = reconstruct::expression_black_box(std::move(expressions), names.size());
  LogUse use{checkpoint, "python expressions\n", seed_given, factored};
  for (const auto& n : names) use.identity += n + ',';
  for (const auto& t : texts) use.identity += '\n' + t;
  return run(*box, options_of(primes, seed, max_degree, factor_scan), names, progress, use);
}

void check_expressions(const std::vector<std::string>& texts,
                       const std::vector<std::string>& names) {
  parse_all(texts, names);
}

py::tuple reconstruct_callable(const py::object& f, const std::vector<std::string>& names,
                               std::size_t functions, std::size_t primes, std::uint64_t seed,
                               std::size_t max_degree, const std::string& factor_scan,
                               const py::object& progress, const std::string& checkpoint,
                               bool seed_given, bool factored) {
  const PythonBlackBox box(f, names.size(), functions);
  // A callable cannot be fingerprinted: the log checks stored values instead.
  LogUse use{checkpoint, "python callable\n", seed_given, factored};
  for (const auto& n : names) use.identity += n + ',';
  return run(box, options_of(primes, seed, max_degree, factor_scan), names, progress, use);
}

std::vector<std::string> variable_list(const std::string& text) {
  return io::parse_variable_list(text, "variables");
}

}  // namespace

void bind_reconstruct(py::module_& m) {
  m.def("check_expressions", &check_expressions, py::arg("expressions"), py::arg("variables"));
  m.def("reconstruct_expressions", &reconstruct_expressions, py::arg("expressions"),
        py::arg("variables"), py::arg("primes"), py::arg("seed"), py::arg("max_degree"),
        py::arg("factor_scan"), py::arg("progress"), py::arg("checkpoint"), py::arg("seed_given"),
        py::arg("factored"));
  m.def("reconstruct_callable", &reconstruct_callable, py::arg("f"), py::arg("variables"),
        py::arg("functions"), py::arg("primes"), py::arg("seed"), py::arg("max_degree"),
        py::arg("factor_scan"), py::arg("progress"), py::arg("checkpoint"), py::arg("seed_given"),
        py::arg("factored"));
  m.def("parse_variable_list", &variable_list, py::arg("text"));
}

}  // namespace hepex::python
