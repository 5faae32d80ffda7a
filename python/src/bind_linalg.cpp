// hepex.rref, nullspace, solve and build_matrix (hepex/__init__.py documents
// them): Gaussian elimination over Z/p, float64 and complex128 on numpy or
// GPU matrices.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "hepex/linalg/echelon.hpp"
#include "hepex/linalg/matrix_builder.hpp"
#include "matrix_arguments.hpp"
#include "python_call.hpp"

namespace hepex::python {

namespace {

using HostMemory = Kokkos::HostSpace;
template <class T>
using HostView =
    Kokkos::View<T**, Kokkos::LayoutRight, HostMemory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// The RREF of `source` (row-major host memory, shape s) into `out` (may be
// the same memory) on the backend: in place on the host, or through one
// device matrix.
template <class F, class T = typename F::value_type>
linalg::RrefResult rref_host_memory(const F& f, const T* source, T* out, const Shape& s,
                                    Place backend) {
  if (runs_on(backend) == Place::host) {
    if (source != out) std::copy(source, source + s.size(), out);
    return linalg::rref(HostSpace(), f,
                        DeviceMatrix<T, HostSpace::memory_space>(out, s.rows, s.cols));
  }
  DeviceMatrix<T, DeviceMemory> d(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hepex::python::a")), s.rows,
      s.cols);
  Kokkos::deep_copy(d, HostView<const T>(source, s.rows, s.cols));
  const auto r = linalg::rref(DeviceSpace(), f, d);
  Kokkos::deep_copy(HostView<T>(out, s.rows, s.cols), d);
  return r;
}

// (R, rank, pivots) for a numpy matrix: R a new array. The input is read in
// place when it already holds reduced values of the right dtype (then the
// work on a device needs no host copy of it), else converted once.
template <class F>
py::tuple rref_numpy(const F& f, const py::array& a, Place backend) {
  using T = typename F::value_type;
  const Shape s = matrix_shape(a, "a");
  T* out = nullptr;
  py::array result = new_matrix<T>(s, out);
  const bool in_place = runs_on(backend) == Place::device && usable_in_place(a, f);
  if (!in_place) load(a, f, out, "a");
  const T* source = in_place ? static_cast<const T*>(a.data()) : out;
  linalg::RrefResult r;
  {
    py::gil_scoped_release release;
    r = rref_host_memory(f, source, out, s, backend);
  }
  return py::make_tuple(result, r.rank, r.pivots);
}

// In place: `a` itself becomes its RREF (Linac's users with matrices of tens
// of GB keep one copy on the host). It must already hold f's values as
// they are (usable_in_place) and be writable; else an error says what to
// pass, before any work.
template <class F>
py::tuple rref_numpy_in_place(const F& f, py::array& a, Place backend) {
  using T = typename F::value_type;
  const Shape s = matrix_shape(a, "a");
  if (a.ndim() != 2) throw Error("a: in_place takes a 2-D array");
  if (!a.writeable()) throw Error("a: in_place needs a writable array (this one is read-only)");
  if (!usable_in_place(a, f)) {
    throw Error(std::string("a: in_place needs a C-contiguous ") + typestr<T>() + " array of " +
                (F::is_exact ? "entries already reduced below p" : "finite entries") +
                " (this field's type); convert it once, or call rref without in_place");
  }
  T* data = static_cast<T*>(a.mutable_data());
  linalg::RrefResult r;
  {
    py::gil_scoped_release release;
    r = rref_host_memory(f, data, data, s, backend);
  }
  return py::make_tuple(a, r.rank, r.pivots);
}

// The same for a GPU matrix: R stays on the device (a DeviceArray).
template <class F>
py::tuple rref_gpu(const F& f, const DeviceInput& in) {
  auto d = device_copy(in, f, "a");
  linalg::RrefResult r;
  {
    py::gil_scoped_release release;
    r = linalg::rref(DeviceSpace(), f, d);
  }
  return py::make_tuple(DeviceArray(d), r.rank, r.pivots);
}

py::tuple rref(const py::object& a, std::uint64_t p, double tol, const std::string& backend,
               const py::object& progress, bool in_place) {
  const Place where = parse_backend_argument(backend);
  const PythonCall call(progress);
  const Argument arg = argument(a, "a");
  if (in_place) {
    if (arg.device) throw Error("a: in_place takes numpy arrays (GPU arrays: not yet)");
    py::array host = *arg.host;
    return with_field(p, tol, arg.is_complex(),
                      [&](const auto& f) { return rref_numpy_in_place(f, host, where); });
  }
  if (arg.device) {
    if (backend == "host")
      throw Error("a: a GPU array runs on the device; backend='host' needs a numpy array");
    return with_field(p, tol, arg.is_complex(),
                      [&](const auto& f) { return rref_gpu(f, *arg.device); });
  }
  return with_field(p, tol, arg.is_complex(),
                    [&](const auto& f) { return rref_numpy(f, *arg.host, where); });
}

py::array nullspace(const py::object& a, std::uint64_t p, double tol, const std::string& backend,
                    const py::object& progress) {
  const Place where = parse_backend_argument(backend);
  const PythonCall call(progress);
  const Argument arg = argument(a, "a");
  return with_field(p, tol, arg.is_complex(), [&](const auto& f) {
    auto m = host_matrix(arg, f, "a");
    decltype(m) n;
    {
      py::gil_scoped_release release;
      n = linalg::nullspace(f, std::move(m), where);
    }
    return to_array(n);
  });
}

// (x or None, null-space basis, consistent).
py::tuple solve(const py::object& a, const py::object& b, std::uint64_t p, double tol,
                const std::string& backend, const py::object& progress) {
  const Place where = parse_backend_argument(backend);
  const PythonCall call(progress);
  const Argument arg_a = argument(a, "a"), arg_b = argument(b, "b");
  const bool complex = arg_a.is_complex() || arg_b.is_complex();
  return with_field(p, tol, complex, [&](const auto& f) {
    const auto ma = host_matrix(arg_a, f, "a");
    const auto mb = host_matrix(arg_b, f, "b");
    if (ma.rows != mb.rows) {
      throw Error("a has " + std::to_string(ma.rows) + " rows but b has " +
                  std::to_string(mb.rows));
    }
    std::optional<decltype(linalg::solve(f, ma, mb, where))> s;
    {
      py::gil_scoped_release release;
      s = linalg::solve(f, ma, mb, where);
    }
    py::object x = s->consistent ? py::object(to_array(s->particular)) : py::object(py::none());
    return py::make_tuple(x, to_array(s->nullspace), s->consistent);
  });
}

// One ansatz matrix: A(s, m) = prefactor(s) * prod of samples(s, v) over the
// variable indices v of monomial m.
py::array build_matrix(const py::array& samples, const std::vector<std::vector<int>>& monomials,
                       std::uint64_t p, double tol, const py::object& prefactors,
                       const std::string& backend) {
  const Place where = parse_backend_argument(backend);
  const PythonCall call;
  const bool complex =
      samples.dtype().kind() == 'c' ||
      (!prefactors.is_none() && py::array::ensure(prefactors).dtype().kind() == 'c');
  return with_field(p, tol, complex, [&](const auto& f) {
    using T = typename std::decay_t<decltype(f)>::value_type;
    linalg::AnsatzSystem<T> system;
    system.monomials = monomials;
    const auto points = to_matrix(samples, f, "samples");
    if (!prefactors.is_none()) {
      const py::array pre = py::array::ensure(prefactors);
      if (pre.ndim() != 1)
        throw Error("prefactors: one per sample (1-D), not " + std::to_string(pre.ndim()) + "-D");
      system.prefactors = to_matrix(pre, f, "prefactors").data;
    }
    std::vector<Matrix<T>> built;
    {
      py::gil_scoped_release release;
      built = linalg::build_matrices(f, points, {system}, where);
    }
    return to_array(built.at(0));
  });
}

}  // namespace

void bind_linalg(py::module_& m) {
  m.def("rref", &rref, py::arg("a"), py::arg("p"), py::arg("tol"), py::arg("backend"),
        py::arg("progress"), py::arg("in_place"));
  m.def("nullspace", &nullspace, py::arg("a"), py::arg("p"), py::arg("tol"), py::arg("backend"),
        py::arg("progress"));
  m.def("solve", &solve, py::arg("a"), py::arg("b"), py::arg("p"), py::arg("tol"),
        py::arg("backend"), py::arg("progress"));
  m.def("build_matrix", &build_matrix, py::arg("samples"), py::arg("monomials"), py::arg("p"),
        py::arg("tol"), py::arg("prefactors"), py::arg("backend"));
}

}  // namespace hepex::python
