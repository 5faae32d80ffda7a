#include "arrays.hpp"

#include <cmath>
#include <type_traits>

#include "hepex/core/error.hpp"

namespace hepex::python {

Shape matrix_shape(const py::array& a, const std::string& what) {
  if (a.ndim() == 2)
    return {static_cast<std::size_t>(a.shape(0)), static_cast<std::size_t>(a.shape(1))};
  if (a.ndim() == 1) return {static_cast<std::size_t>(a.shape(0)), 1};
  throw Error(what + ": a matrix must have 1 or 2 dimensions, not " + std::to_string(a.ndim()));
}

Place parse_backend_argument(const std::string& name) {
  if (name == "auto") return Place::device;
  if (name == "host" || name == "device") return parse_place(name);
  throw Error("backend '" + name + "' is not auto, host or device");
}

namespace {

// The entry at flat row-major position k of a C-ordered copy.
template <class Src>
py::array_t<Src, py::array::c_style> c_ordered(const py::array& a) {
  return py::array_t<Src, py::array::c_style>::ensure(a);
}

std::string position(std::size_t k, std::size_t cols) {
  return "(" + std::to_string(k / cols) + ", " + std::to_string(k % cols) + ")";
}

[[noreturn]] void unsupported_dtype(const py::array& a, const std::string& what,
                                    const char* wanted) {
  throw Error(what + ": dtype " + std::string(py::str(a.dtype())) + " is not supported here (" +
              wanted + ")");
}

// Calls action(Src{}) with a's element type among numpy's integer types.
template <class Action>
bool with_integer_dtype(const py::array& a, Action&& action) {
  const char kind = a.dtype().kind();
  const auto size = a.dtype().itemsize();
  if (kind == 'i') {
    if (size == 1) return action(std::int8_t{}), true;
    if (size == 2) return action(std::int16_t{}), true;
    if (size == 4) return action(std::int32_t{}), true;
    if (size == 8) return action(std::int64_t{}), true;
  } else if (kind == 'u' || kind == 'b') {
    if (size == 1) return action(std::uint8_t{}), true;
    if (size == 2) return action(std::uint16_t{}), true;
    if (size == 4) return action(std::uint32_t{}), true;
    if (size == 8) return action(std::uint64_t{}), true;
  }
  return false;
}

template <class Word>
void load_residues(const py::array& a, const field::Zp<Word>& f, Word* out,
                   const std::string& what) {
  const std::uint64_t p = f.modulus();
  const bool integers = with_integer_dtype(a, [&](auto zero) {
    using Src = decltype(zero);
    const auto c = c_ordered<Src>(a);
    const Src* in = c.data();
    const std::size_t n = static_cast<std::size_t>(c.size());
    for (std::size_t k = 0; k < n; ++k) {
      const Src x = in[k];
      if constexpr (std::is_signed_v<Src>) {
        if (x < 0) {
          // Floor remainder of a negative x: p - (|x| mod p), 0 if p divides x.
          const std::uint64_t r = (std::uint64_t{0} - static_cast<std::uint64_t>(x)) % p;
          out[k] = static_cast<Word>(r == 0 ? 0 : p - r);
          continue;
        }
      }
      const auto u = static_cast<std::uint64_t>(x);
      out[k] = static_cast<Word>(u < p ? u : u % p);
    }
  });
  if (!integers) {
    unsupported_dtype(a, what, "Z/p takes integer arrays; Python ints of any size as dtype=object");
  }
}

template <class Real>
Real checked_real(Real x, std::size_t k, std::size_t cols, const std::string& what) {
  if (!std::isfinite(x)) {
    throw Error(what + ": entry " + position(k, cols) + " = " + std::to_string(x) +
                " is not finite");
  }
  return x;
}

// Real values of a float64 or integer array, through `put(k, value)`.
template <class Put>
bool for_each_real(const py::array& a, std::size_t cols, const std::string& what, Put&& put) {
  if (a.dtype().kind() == 'f' && a.dtype().itemsize() > 8) {
    // long double: the Python layer converts it when every value is a
    // double; here it is refused rather than read wrongly.
    throw Error(what + ": dtype " + std::string(py::str(a.dtype())) +
                " is wider than float64; convert it with astype(numpy.float64)");
  }
  if (a.dtype().kind() == 'f') {
    const auto c = c_ordered<double>(a);  // float32/float16 widen exactly
    for (py::ssize_t k = 0; k < c.size(); ++k) put(k, checked_real(c.data()[k], k, cols, what));
    return true;
  }
  return with_integer_dtype(a, [&](auto zero) {
    using Src = decltype(zero);
    const auto c = c_ordered<Src>(a);
    for (py::ssize_t k = 0; k < c.size(); ++k) {
      const Src x = c.data()[k];
      const double d = static_cast<double>(x);
      // Integers that double cannot hold exactly would change silently.
      if (static_cast<long double>(d) != static_cast<long double>(x)) {
        throw Error(what + ": entry " + position(k, cols) + " = " + std::to_string(x) +
                    " has no exact float64 value");
      }
      put(k, d);
    }
  });
}

}  // namespace

void load(const py::array& a, const field::Zp32& f, std::uint32_t* out, const std::string& what) {
  load_residues(a, f, out, what);
}
void load(const py::array& a, const field::Zp64& f, std::uint64_t* out, const std::string& what) {
  load_residues(a, f, out, what);
}

void load(const py::array& a, const field::Real64&, double* out, const std::string& what) {
  const Shape s = matrix_shape(a, what);
  if (a.dtype().kind() == 'c') {
    throw Error(what + ": complex entries in a real run (the dtype is " +
                std::string(py::str(a.dtype())) + ")");
  }
  if (!for_each_real(a, s.cols, what, [&](std::size_t k, double x) { out[k] = x; })) {
    unsupported_dtype(a, what, "floating point takes float64, complex128 or integer arrays");
  }
}

void load(const py::array& a, const field::Complex128&, Kokkos::complex<double>* out,
          const std::string& what) {
  const Shape s = matrix_shape(a, what);
  if (a.dtype().kind() == 'c') {
    if (a.dtype().itemsize() > 16) {
      throw Error(what + ": dtype " + std::string(py::str(a.dtype())) +
                  " is wider than complex128; convert it with astype(numpy.complex128)");
    }
    const auto c = c_ordered<std::complex<double>>(a);
    for (py::ssize_t k = 0; k < c.size(); ++k) {
      const auto z = c.data()[k];
      checked_real(z.real(), k, s.cols, what);
      checked_real(z.imag(), k, s.cols, what);
      out[k] = Kokkos::complex<double>(z.real(), z.imag());
    }
    return;
  }
  if (!for_each_real(a, s.cols, what,
                     [&](std::size_t k, double x) { out[k] = Kokkos::complex<double>(x, 0.0); })) {
    unsupported_dtype(a, what, "floating point takes float64, complex128 or integer arrays");
  }
}

namespace {
template <class T>
bool c_ordered_as(const py::array& a) {
  return py::isinstance<py::array_t<T>>(a) && (a.flags() & py::array::c_style) != 0;
}
}  // namespace

namespace {
template <class Word>
bool reduced_words(const py::array& a, Word p) {
  if (!c_ordered_as<Word>(a)) return false;
  const auto* x = static_cast<const Word*>(a.data());
  Word largest = 0;
  for (py::ssize_t k = 0; k < a.size(); ++k) largest = std::max(largest, x[k]);
  return largest < p;
}
}  // namespace

bool usable_in_place(const py::array& a, const field::Zp32& f) {
  return reduced_words(a, f.modulus());
}
bool usable_in_place(const py::array& a, const field::Zp64& f) {
  return reduced_words(a, f.modulus());
}
bool usable_in_place(const py::array& a, const field::Real64&) {
  if (!c_ordered_as<double>(a)) return false;
  const auto* x = static_cast<const double*>(a.data());
  for (py::ssize_t k = 0; k < a.size(); ++k)
    if (!std::isfinite(x[k])) return false;
  return true;
}
bool usable_in_place(const py::array& a, const field::Complex128&) {
  if (!c_ordered_as<std::complex<double>>(a)) return false;
  const auto* x = static_cast<const std::complex<double>*>(a.data());
  for (py::ssize_t k = 0; k < a.size(); ++k)
    if (!std::isfinite(x[k].real()) || !std::isfinite(x[k].imag())) return false;
  return true;
}

}  // namespace hepex::python
