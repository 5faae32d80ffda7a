// hepex.modgemm, krylov_sequences and berlekamp_massey: the modular products
// of Gröbner-basis and Sparse-FGLM codes.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "hepex/linalg/krylov.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "matrix_arguments.hpp"
#include "python_call.hpp"

namespace hepex::python {

namespace {

template <class T>
using ConstHostView = Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace,
                                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

void check_shapes(const Shape& a, const Shape& b) {
  if (a.cols != b.rows) {
    throw Error("a has " + std::to_string(a.cols) + " columns but b has " + std::to_string(b.rows) +
                " rows");
  }
}

// A numpy operand as f's values: the array itself when it already holds
// them, else a converted copy kept in `storage`.
template <class Word>
const Word* operand(const py::array& a, const field::Zp<Word>& f, const std::string& what,
                    std::vector<Word>& storage) {
  if (usable_in_place(a, f)) return static_cast<const Word*>(a.data());
  storage.resize(matrix_shape(a, what).size());
  load(a, f, storage.data(), what);
  return storage.data();
}

template <class Word>
py::array modgemm_numpy(const field::Zp<Word>& f, const py::array& a, const py::array& b,
                        linalg::GemmMethod method, Place backend) {
  const Shape sa = matrix_shape(a, "a"), sb = matrix_shape(b, "b");
  check_shapes(sa, sb);
  linalg::resolve_gemm_method(method, f.modulus(), runs_on(backend));  // refuses inexact ones
  std::vector<Word> a_storage, b_storage;
  const Word* pa = operand(a, f, "a", a_storage);
  const Word* pb = operand(b, f, "b", b_storage);
  Word* pc = nullptr;
  py::array c = new_matrix<Word>({sa.rows, sb.cols}, pc);
  auto run = [&](auto space) {
    using Memory = typename decltype(space)::memory_space;
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible) {
      linalg::modgemm(space, f, ConstDeviceMatrix<Word, Memory>(pa, sa.rows, sa.cols),
                      ConstDeviceMatrix<Word, Memory>(pb, sb.rows, sb.cols),
                      DeviceMatrix<Word, Memory>(pc, sa.rows, sb.cols), method);
    } else {
      DeviceMatrix<Word, Memory> da("hepex::python::a", sa.rows, sa.cols),
          db("hepex::python::b", sb.rows, sb.cols), dc("hepex::python::c", sa.rows, sb.cols);
      Kokkos::deep_copy(da, ConstHostView<Word>(pa, sa.rows, sa.cols));
      Kokkos::deep_copy(db, ConstHostView<Word>(pb, sb.rows, sb.cols));
      linalg::modgemm(space, f, ConstDeviceMatrix<Word, Memory>(da),
                      ConstDeviceMatrix<Word, Memory>(db), dc, method);
      Kokkos::deep_copy(Kokkos::View<Word**, Kokkos::LayoutRight, Kokkos::HostSpace,
                                     Kokkos::MemoryTraits<Kokkos::Unmanaged>>(pc, sa.rows, sb.cols),
                        dc);
    }
  };
  {
    py::gil_scoped_release release;
    runs_on(backend) == Place::device ? run(DeviceSpace()) : run(HostSpace());
  }
  return c;
}

// Both operands on the GPU: C stays there.
template <class Word>
DeviceArray modgemm_gpu(const field::Zp<Word>& f, const DeviceInput& a, const DeviceInput& b,
                        linalg::GemmMethod method) {
  check_shapes(a.shape, b.shape);
  linalg::resolve_gemm_method(method, f.modulus(), Place::device);
  const auto da = device_copy(a, f, "a");
  const auto db = device_copy(b, f, "b");
  DeviceMatrix<Word, DeviceMemory> dc("hepex::python::c", a.shape.rows, b.shape.cols);
  {
    py::gil_scoped_release release;
    linalg::modgemm(DeviceSpace(), f, ConstDeviceMatrix<Word, DeviceMemory>(da),
                    ConstDeviceMatrix<Word, DeviceMemory>(db), dc, method);
  }
  return DeviceArray(dc);
}

py::object modgemm(const py::object& a, const py::object& b, std::uint64_t p,
                   const std::string& method_name, const std::string& backend,
                   const py::object& progress) {
  const auto method = linalg::parse_gemm_method(method_name);
  const Place where = parse_backend_argument(backend);
  const PythonCall call(progress);
  const Argument arg_a = argument(a, "a"), arg_b = argument(b, "b");
  if (arg_a.device.has_value() != arg_b.device.has_value()) {
    throw Error("a and b: one is a GPU array and the other is not; give both on the same side");
  }
  return with_field(p, 1.0, false, [&](const auto& f) -> py::object {
    if constexpr (std::decay_t<decltype(f)>::is_exact) {
      if (arg_a.device) {
        if (backend == "host")
          throw Error("a: GPU arrays run on the device; backend='host' needs numpy arrays");
        return py::cast(modgemm_gpu(f, *arg_a.device, *arg_b.device, method));
      }
      return modgemm_numpy(f, *arg_a.host, *arg_b.host, method, where);
    } else {
      throw Error("modgemm works modulo a prime: give p");
    }
  });
}

// s[j][i] = r^T T^i e_j as a (columns of E) x length array.
py::array krylov_sequences(const py::array& t, const py::array& r, const py::array& e,
                           std::size_t length, std::uint64_t p, const std::string& products,
                           const std::string& backend) {
  const Place where = parse_backend_argument(backend);
  const PythonCall call;
  if (products != "stepwise" && products != "doubling") {
    throw Error("products '" + products + "' is not stepwise or doubling");
  }
  const auto how =
      products == "stepwise" ? linalg::KrylovProducts::stepwise : linalg::KrylovProducts::doubling;
  return with_field(p, 1.0, false, [&](const auto& f) -> py::array {
    if constexpr (std::decay_t<decltype(f)>::is_exact) {
      using Word = typename std::decay_t<decltype(f)>::value_type;
      if (r.ndim() != 1) throw Error("r: a vector (1-D), not " + std::to_string(r.ndim()) + "-D");
      const auto mt = to_matrix(t, f, "t"), me = to_matrix(e, f, "e");
      const auto vr = to_matrix(r, f, "r").data;
      std::vector<std::vector<Word>> s;
      {
        py::gil_scoped_release release;
        s = linalg::krylov_sequences(f, mt, vr, me, length, where, how);
      }
      Matrix<Word> out(s.size(), length);
      for (std::size_t j = 0; j < s.size(); ++j)
        std::copy(s[j].begin(), s[j].end(), out.data.begin() + j * length);
      return to_array(out);
    } else {
      throw Error("krylov_sequences works modulo a prime: give p");
    }
  });
}

py::array berlekamp_massey(const py::array& sequence, std::uint64_t p) {
  return with_field(p, 1.0, false, [&](const auto& f) -> py::array {
    if constexpr (std::decay_t<decltype(f)>::is_exact) {
      using Word = typename std::decay_t<decltype(f)>::value_type;
      if (sequence.ndim() != 1)
        throw Error("sequence: 1-D, not " + std::to_string(sequence.ndim()) + "-D");
      const auto s = to_matrix(sequence, f, "sequence").data;
      const auto c = linalg::berlekamp_massey(f, s);
      Matrix<Word> out(c.size(), 1);
      out.data = c;
      return to_array(out).attr("reshape")(c.size());
    } else {
      throw Error("berlekamp_massey works modulo a prime: give p");
    }
  });
}

}  // namespace

void bind_gemm(py::module_& m) {
  m.def("modgemm", &modgemm, py::arg("a"), py::arg("b"), py::arg("p"), py::arg("method"),
        py::arg("backend"), py::arg("progress"));
  m.def("krylov_sequences", &krylov_sequences, py::arg("t"), py::arg("r"), py::arg("e"),
        py::arg("length"), py::arg("p"), py::arg("products"), py::arg("backend"));
  m.def("berlekamp_massey", &berlekamp_massey, py::arg("sequence"), py::arg("p"));
}

}  // namespace hepex::python
