#pragma once
// numpy arrays in and out of the Python module: the shape of a matrix
// argument, its entries as elements of a hepex field (integers reduced mod p,
// floating point checked finite), and new arrays for results. Every problem
// is a hepex::Error naming the argument, as the CLI names its file.

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::python {

namespace py = pybind11;

// A matrix argument's shape: 2-D as it is, 1-D as one column.
struct Shape {
  std::size_t rows = 0, cols = 0;
  std::size_t size() const { return rows * cols; }
};
Shape matrix_shape(const py::array& a, const std::string& what);

// The numpy element type of a hepex field's values (Kokkos::complex<double>
// has std::complex<double>'s layout).
template <class T>
struct NumpyType {
  using type = T;
};
template <>
struct NumpyType<Kokkos::complex<double>> {
  using type = std::complex<double>;
};

// A new C-ordered rows x cols array of T (uninitialised) and its data; out
// of memory is a hepex::Error (RuntimeFailure), as everywhere else.
template <class T>
py::array new_matrix(const Shape& s, T*& data) {
  try {
    py::array_t<typename NumpyType<T>::type> out({s.rows, s.cols});
    data = reinterpret_cast<T*>(out.mutable_data());
    return std::move(out);
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_MemoryError)) throw;
    throw Error("out of memory: the result, " + std::to_string(s.rows) + " x " +
                    std::to_string(s.cols) + " entries of " + std::to_string(sizeof(T)) +
                    " bytes, does not fit in the host's memory",
                ErrorKind::runtime);
  }
}

// The entries of `a` (row-major, shape s) as field elements into out.
// Z/p: any integer dtype, negative values and values >= p reduced as the
// Matrix Market reader does; Real64: float64 or an integer dtype (exact
// below 2^53), finite; Complex128: complex128, float64 or integers, finite.
void load(const py::array& a, const field::Zp32& f, std::uint32_t* out, const std::string& what);
void load(const py::array& a, const field::Zp64& f, std::uint64_t* out, const std::string& what);
void load(const py::array& a, const field::Real64& f, double* out, const std::string& what);
void load(const py::array& a, const field::Complex128& f, Kokkos::complex<double>* out,
          const std::string& what);

// Whether `a` already holds f's values as they are (the value type's dtype,
// C order, every entry reduced and finite), so that it can be read in place.
bool usable_in_place(const py::array& a, const field::Zp32& f);
bool usable_in_place(const py::array& a, const field::Zp64& f);
bool usable_in_place(const py::array& a, const field::Real64& f);
bool usable_in_place(const py::array& a, const field::Complex128& f);

// A host matrix from an argument (a copy).
template <class F>
Matrix<typename F::value_type> to_matrix(const py::array& a, const F& f, const std::string& what) {
  const Shape s = matrix_shape(a, what);
  Matrix<typename F::value_type> m(s.rows, s.cols);
  load(a, f, m.data.data(), what);
  return m;
}

// A host matrix as a new array.
template <class T>
py::array to_array(const Matrix<T>& m) {
  T* data = nullptr;
  py::array out = new_matrix<T>({m.rows, m.cols}, data);
  std::copy(m.data.begin(), m.data.end(), data);
  return out;
}

// The field a call works in: Z/p for p > 0 (Zp32 below 2^31, else Zp64),
// otherwise Real64 or, for a complex argument, Complex128 with tolerance tol.
// action(field) is called with it.
template <class Action>
auto with_field(std::uint64_t p, double tol, bool complex, Action&& action) {
  if (p > 0) {
    if (p < (std::uint64_t{1} << 31)) return action(field::Zp32(p));
    return action(field::Zp64(p));
  }
  if (!(tol > 0) || tol == HUGE_VAL)
    throw Error("tol = " + std::to_string(tol) + " must be finite and > 0");
  if (complex) return action(field::Complex128(tol));
  return action(field::Real64(tol));
}

// "auto" (the device if the build has one), "host" or "device".
Place parse_backend_argument(const std::string& name);

}  // namespace hepex::python
