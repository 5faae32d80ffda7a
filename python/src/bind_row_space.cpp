// hepex.RowSpace (hepex/spaces.py documents it): linalg::RowSpace over Zp32
// (p < 2^31) and Zp64, bound as _RowSpace32 and _RowSpace64; the Python
// class picks one and shapes the arguments.
#include <pybind11/stl.h>

#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "hepex/linalg/row_space.hpp"
#include "python_call.hpp"

namespace hepex::python {

namespace {

// A RowSpace with a KokkosHold before it, so that Kokkos outlives its
// memory (python_call.hpp).
template <class F>
struct PyRowSpace {
  explicit PyRowSpace(linalg::RowSpace<F>&& s) : owned(std::move(s)), space(*owned) {}
  ~PyRowSpace() {
    py::gil_scoped_release release;  // freed under the Kokkos lock, which a thread may hold
    owned.reset();
  }
  KokkosHold hold;
  std::optional<linalg::RowSpace<F>> owned;
  linalg::RowSpace<F>& space;
};

// A matrix the space computes (rref, nullspace), without the GIL, as an array.
template <class F>
py::array host_array(const PyRowSpace<F>& s,
                     Matrix<typename F::value_type> (linalg::RowSpace<F>::*compute)() const) {
  Matrix<typename F::value_type> m;
  {
    py::gil_scoped_release release;
    m = (s.space.*compute)();
  }
  return to_array(m);
}

template <class F>
void bind_space(py::module_& m, const char* name) {
  using Space = PyRowSpace<F>;
  using Word = typename F::value_type;
  py::class_<Space>(m, name)
      .def(py::init([](std::size_t columns, std::uint64_t p, const std::string& backend) {
             const PythonCall call;
             return std::make_unique<Space>(linalg::RowSpace<F>(F(static_cast<Word>(p)), columns,
                                                                parse_backend_argument(backend)));
           }),
           py::arg("columns"), py::arg("p"), py::arg("backend"))
      .def("add_rows",
           [](Space& s, const py::array& rows) {
             const auto m = to_matrix(rows, s.space.field(), "rows");
             py::gil_scoped_release release;
             return s.space.add_rows(m);
           })
      .def("contains_each",
           [](const Space& s, const py::array& rows) {
             const auto m = to_matrix(rows, s.space.field(), "rows");
             py::gil_scoped_release release;
             return s.space.contains_each(m);
           })
      .def("rref", [](const Space& s) { return host_array(s, &linalg::RowSpace<F>::rref); })
      .def("nullspace",
           [](const Space& s) { return host_array(s, &linalg::RowSpace<F>::nullspace); })
      .def("intersection",
           [](const Space& s, const Space& other) {
             py::gil_scoped_release release;
             return std::make_unique<Space>(s.space.intersection(other.space));
           })
      // The GIL is released around every call: it may wait for another
      // thread's work on the space.
      .def_property_readonly("rank",
                             [](const Space& s) {
                               py::gil_scoped_release release;
                               return s.space.rank();
                             })
      .def_property_readonly("pivots",
                             [](const Space& s) {
                               std::vector<int> pivots;
                               {
                                 py::gil_scoped_release release;
                                 pivots = s.space.pivots();
                               }
                               return pivots;
                             })
      .def_property_readonly("columns", [](const Space& s) { return s.space.columns(); })
      .def_property_readonly("backend", [](const Space& s) { return place_name(s.space.place()); });
}

}  // namespace

void bind_row_space(py::module_& m) {
  bind_space<field::Zp32>(m, "_RowSpace32");
  bind_space<field::Zp64>(m, "_RowSpace64");
}

}  // namespace hepex::python
