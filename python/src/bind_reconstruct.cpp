// hepex.reconstruct: rational functions over Q from expressions or from a
// Python black box evaluated mod 63-bit primes.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bindings.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/rational.hpp"

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
      if (pair.size() != 2) throw Error("f(points, p) returned a tuple of " + std::to_string(pair.size()) + ", not (values, ok)");
      const auto valid = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(pair[1]);
      if (!valid || valid.ndim() != 1 || static_cast<std::size_t>(valid.shape(0)) != count) {
        throw Error("f(points, p): ok must be a boolean array of " + std::to_string(count) + " entries");
      }
      for (std::size_t i = 0; i < count; ++i) ok[i] = valid.data()[i] ? 1 : 0;
      result = pair[0];
    }
    py::array v = py::module_::import("numpy").attr("asarray")(result);
    if (v.dtype().kind() == 'O') v = reduce_objects(v, f.modulus());
    const bool shape_ok = (v.ndim() == 1 && functions_ == 1 && static_cast<std::size_t>(v.shape(0)) == count) ||
                          (v.ndim() == 2 && static_cast<std::size_t>(v.shape(0)) == count &&
                           static_cast<std::size_t>(v.shape(1)) == functions_);
    if (!shape_ok) {
      throw Error("f(points, p) for " + std::to_string(count) + " points must return " +
                  (functions_ == 1 ? std::to_string(count) + " values"
                                   : "a (" + std::to_string(count) + ", " + std::to_string(functions_) + ") array") +
                  ", not shape " + std::string(py::str(v.attr("shape"))));
    }
    values.resize(count * functions_);
    load(v, f, values.data(), "f(points, p)");
  }

 private:
  // Python ints of any size, reduced mod p by Python itself.
  static py::array reduce_objects(const py::array& v, std::uint64_t p) {
    return py::module_::import("numpy").attr("mod")(v, py::int_(p)).attr("astype")("uint64");
  }

  py::object f_;
  std::size_t variables_, functions_;
};

std::vector<std::string> answers(const reconstruct::BlackBox& box,
                                 const reconstruct::ReconstructOptions& options,
                                 const std::vector<std::string>& names) {
  reconstruct::Reconstruction r;
  {
    py::gil_scoped_release release;
    r = reconstruct::reconstruct(box, options);
  }
  std::vector<std::string> out;
  for (const auto& function : r.functions) out.push_back(reconstruct::to_string(function, names));
  return out;
}

reconstruct::ReconstructOptions options_of(std::size_t primes, std::uint64_t seed,
                                           std::size_t max_degree) {
  if (primes < 1) throw Error("primes = 0: at least one prime is needed");
  if (max_degree < 1) throw Error("max_degree = 0 must be at least 1");
  reconstruct::ReconstructOptions options;
  options.max_primes = primes;
  options.seed = seed;
  options.max_degree = max_degree;
  return options;
}

// Each expression on its own (its own probes and primes), as `hepex
// reconstruct --file` does; every expression is parsed before any work.
std::vector<std::string> reconstruct_expressions(const std::vector<std::string>& texts,
                                                 const std::vector<std::string>& names,
                                                 std::size_t primes, std::uint64_t seed,
                                                 std::size_t max_degree) {
  const auto options = options_of(primes, seed, max_degree);
  std::vector<io::Expression> expressions;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    try {
      expressions.push_back(io::Expression::parse(texts[i], names));
    } catch (const Error& e) {
      throw Error("expression " + std::to_string(i) + ": " + e.what(), e.kind());
    }
  }
  std::vector<std::string> out;
  for (auto& e : expressions) {
    const auto box = reconstruct::expression_black_box({e}, names.size());
    out.push_back(answers(*box, options, names).at(0));
  }
  return out;
}

std::vector<std::string> reconstruct_callable(const py::object& f,
                                              const std::vector<std::string>& names,
                                              std::size_t functions, std::size_t primes,
                                              std::uint64_t seed, std::size_t max_degree) {
  const PythonBlackBox box(f, names.size(), functions);
  return answers(box, options_of(primes, seed, max_degree), names);
}

}  // namespace

void bind_reconstruct(py::module_& m) {
  m.def("reconstruct_expressions", &reconstruct_expressions, py::arg("expressions"),
        py::arg("variables"), py::arg("primes"), py::arg("seed"), py::arg("max_degree"));
  m.def("reconstruct_callable", &reconstruct_callable, py::arg("f"), py::arg("variables"),
        py::arg("functions"), py::arg("primes"), py::arg("seed"), py::arg("max_degree"));
  m.def("parse_variable_list", &io::parse_variable_list, py::arg("text"));
}

}  // namespace hepex::python
