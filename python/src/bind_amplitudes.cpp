// hepex.MatrixElement: LO |M|^2 of g g -> t tbar + gluons for (events,
// particles, 4) momenta, with MadEvent's helicity and colour choices.
#include <pybind11/stl.h>

#include <memory>

#include "arrays.hpp"
#include "bindings.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/amplitudes/param_card.hpp"
#include "python_call.hpp"

namespace hepex::python {

namespace {

using namespace amplitudes;

// A 1-D per-event argument (None: not given) of `events` entries.
template <class T>
std::vector<T> per_event(const py::object& a, const char* what, std::size_t events) {
  if (a.is_none()) return {};
  const auto v = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(a);
  if (!v || v.ndim() != 1 || static_cast<std::size_t>(v.shape(0)) != events) {
    throw Error(std::string(what) + ": one value per event (" + std::to_string(events) +
                "), a 1-D array");
  }
  return std::vector<T>(v.data(), v.data() + events);
}

class PyMatrixElement {
 public:
  PyMatrixElement(const std::string& process, const std::string& precision,
                  const std::string& colour_sum, const std::string& simd,
                  const std::string& param_card, const std::string& run_card) {
    MatrixElementOptions options;
    options.precision = parse_precision(precision);
    options.colour_sum = parse_colour_sum(colour_sum);
    options.simd = parse_simd(simd);
    if (!param_card.empty()) options.parameters = read_param_card(param_card);
    if (!run_card.empty()) options.run = read_run_card(run_card);
    const PythonCall call;
    py::gil_scoped_release release;  // the probe batch finds the good helicities
    me_ = std::make_unique<MatrixElement>(parse_process(process), options);
  }

  const ProcessInfo& info() const { return me_->info(); }

  // me per event, or (me, selhel, selcol) when rndhel or rndcol is given.
  py::object evaluate(const py::array& momenta, const py::object& gs, const py::object& rndhel,
                      const py::object& rndcol, const py::object& igraph, const py::object& channel,
                      double tolerance, const py::object& progress) {
    const PythonCall call(progress);
    const auto& process = info();
    if (momenta.dtype().kind() != 'f') {
      throw Error("momenta: a float array of (events, " + std::to_string(process.particles) +
                  ", 4) values (E, px, py, pz) in GeV, not dtype " +
                  std::string(py::str(momenta.dtype())));
    }
    if (momenta.ndim() != 3 || momenta.shape(1) != process.particles || momenta.shape(2) != 4) {
      throw Error("momenta: shape (events, " + std::to_string(process.particles) + ", 4) for " +
                  process.name + ", not " + std::string(py::str(momenta.attr("shape"))));
    }
    const auto events = static_cast<std::size_t>(momenta.shape(0));
    const auto p = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(momenta);
    std::vector<double> values(p.data(), p.data() + p.size());
    EventInputs inputs;
    inputs.gs = per_event<double>(gs, "gs", events);
    inputs.rndhel = per_event<double>(rndhel, "rndhel", events);
    inputs.rndcol = per_event<double>(rndcol, "rndcol", events);
    inputs.igraph = per_event<int>(igraph, "igraph", events);
    inputs.channel = per_event<int>(channel, "channel", events);
    MomentumTolerance check;
    if (tolerance > 0) check = {tolerance, tolerance};
    EventResults r;
    {
      py::gil_scoped_release release;
      r = me_->evaluate(values, inputs, MomentumCheck::on_shell, check);
    }
    py::array_t<double> me(r.me.size());
    std::copy(r.me.begin(), r.me.end(), me.mutable_data());
    if (rndhel.is_none() && rndcol.is_none()) return std::move(me);
    auto as_array = [](const std::vector<int>& v) -> py::object {
      if (v.empty()) return py::none();
      py::array_t<int> a(v.size());
      std::copy(v.begin(), v.end(), a.mutable_data());
      return std::move(a);
    };
    return py::make_tuple(me, as_array(r.selhel), as_array(r.selcol));
  }

  std::vector<int> good_helicities() const { return me_->good_helicities(); }

 private:
  KokkosHold hold_;  // first: Kokkos outlives the MatrixElement's memory
  std::unique_ptr<MatrixElement> me_;
};

}  // namespace

void bind_amplitudes(py::module_& m) {
  m.def("processes", [] {
    py::list all;
    for (const Process p : all_processes()) {
      const ProcessInfo& info = process_info(p);
      py::dict d;
      d["name"] = info.name;
      d["madgraph"] = info.madgraph;
      d["particles"] = info.particles;
      d["pdg"] = std::vector<int>(info.pdg, info.pdg + info.particles);
      d["colour_flows"] = info.colour_flows;
      d["helicity_combinations"] = info.helicity_combinations;
      d["averaging"] = info.averaging;
      d["me_units"] = info.me_units;
      d["diagrams"] = diagrams(p);
      d["configurations"] = configurations(p);
      d["madevent"] = info.madevent;
      all.append(d);
    }
    return all;
  });
  py::class_<PyMatrixElement>(m, "MatrixElement")
      .def(py::init<const std::string&, const std::string&, const std::string&, const std::string&,
                    const std::string&, const std::string&>(),
           py::arg("process"), py::arg("precision"), py::arg("colour_sum"), py::arg("simd"),
           py::arg("param_card"), py::arg("run_card"))
      .def("evaluate", &PyMatrixElement::evaluate, py::arg("momenta"), py::arg("gs"),
           py::arg("rndhel"), py::arg("rndcol"), py::arg("igraph"), py::arg("channel"),
           py::arg("tolerance"), py::arg("progress"))
      .def_property_readonly("process",
                             [](const PyMatrixElement& e) { return std::string(e.info().name); })
      .def_property_readonly("particles",
                             [](const PyMatrixElement& e) { return e.info().particles; })
      .def_property_readonly(
          "configurations",
          [](const PyMatrixElement& e) { return configurations(e.info().process); })
      .def_property_readonly("diagrams",
                             [](const PyMatrixElement& e) { return diagrams(e.info().process); })
      .def_property_readonly(
          "me_units", [](const PyMatrixElement& e) { return std::string(e.info().me_units); })
      .def_property_readonly("good_helicities", &PyMatrixElement::good_helicities);
}

}  // namespace hepex::python
