#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0: numpy.lib.format), read
// into and written from hepex matrices over any field.
//
// Reading takes a 2-D array (a 1-D one is a column vector, n x 1) in C or
// Fortran order, little- or big-endian (byte-swapped), of dtype
//   Z/p:      int8-int64, uint8-uint64 (reduced mod p like Matrix Market's
//             integers: negative ones to p - |x| mod p);
//   real:     float32, float64, and integers that the field's floating point
//             holds exactly;
//   complex:  complex64, complex128 and the real ones.
// Every problem is a hepex::Error naming the file, raised before anything is
// returned: a bad magic string, version, header or dtype (object arrays
// included), more than two dimensions, a matrix larger than the limits, data
// shorter or longer than the shape, a non-finite or inexact floating-point
// entry (with its a[i, j], 0-based).
//
// Writing gives a version 1.0 file in C order of the field's own type: <u4
// (Zp32), <u8 (Zp64), <f4, <f8, <c8, <c16 ('>' on a big-endian machine).

#include <fstream>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/huge_pages.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/io/detail/npy_elements.hpp"
#include "hepex/io/matrix_market.hpp"  // ReadLimits, detail::check_fits

namespace hepex::io {

namespace detail {
// A rows x cols matrix of `zero` on huge pages where the kernel has them:
// with 4 KiB pages, first touching a 16384^2 matrix of words faults 262144
// times, most of the time its reading takes (core/huge_pages.hpp).
template <class T>
Matrix<T> fresh_matrix(std::size_t rows, std::size_t cols, const T& zero) {
  Matrix<T> a;
  a.rows = rows;
  a.cols = cols;
  a.data.reserve(rows * cols);  // allocated, not touched
  advise_huge_pages(a.data.data(), rows * cols * sizeof(T));
  a.data.resize(rows * cols, zero);
  return a;
}

// The data of h's shape and type, converted into a (already of h's shape).
template <class F, class Raw, bool Swap>
void read_npy_values(std::istream& in, const F& f, const NpyHeader& h,
                     Matrix<typename F::value_type>& a, const std::string& name) {
  using T = typename F::value_type;
  const std::size_t count = h.rows * h.cols;
  if (sizeof(Raw) == sizeof(T) && !h.fortran_order) {
    // One read straight into the storage, converted in place.
    auto* storage = reinterpret_cast<unsigned char*>(a.data.data());
    read_npy_data(in, reinterpret_cast<char*>(storage), count * sizeof(Raw), 0, h, name);
    if constexpr (std::is_same<Raw, T>::value && !Swap) {
      // Already the matrix's type: only blocks holding a value that is not
      // an element as it is (a vectorised check) are converted.
      constexpr std::size_t block = 4096;
      for (std::size_t first = 0; first < count; first += block) {
        const std::size_t n = std::min(block, count - first);
        bool kept = true;
        for (std::size_t k = first; k < first + n; ++k) kept &= npy_kept(f, a.data[k]);
        if (!kept) convert_npy<F, Raw, false>(f, storage + first * sizeof(T), first, n, h, a, name);
      }
    } else {
      convert_npy<F, Raw, Swap>(f, storage, 0, count, h, a, name);
    }
    return;
  }
  constexpr std::size_t chunk = std::size_t{1} << 16;  // values per read
  std::vector<unsigned char> bytes(std::min(count, chunk) * sizeof(Raw));
  for (std::size_t first = 0; first < count; first += chunk) {
    const std::size_t n = std::min(chunk, count - first);
    read_npy_data(in, reinterpret_cast<char*>(bytes.data()), n * sizeof(Raw), first * sizeof(Raw),
                  h, name);
    convert_npy<F, Raw, Swap>(f, bytes.data(), first, n, h, a, name);
  }
}

// The error for a dtype that the field F cannot take.
template <class F>
[[noreturn]] void refuse_npy_dtype(const NpyHeader& h, const std::string& name) {
  npy_dtype_error(h, name,
                  F::is_exact ? "a modular run reads integer dtypes (int8-int64, uint8-uint64)"
                              : "complex entries in a real run (use --field complex)");
}

template <class Word>
const char* npy_type_name(const field::Zp<Word>&) {
  return sizeof(Word) == 4 ? "u4" : "u8";
}
template <class Real>
const char* npy_type_name(const field::RealField<Real>&) {
  return sizeof(Real) == 4 ? "f4" : "f8";
}
template <class Real>
const char* npy_type_name(const field::ComplexField<Real>&) {
  return sizeof(Real) == 4 ? "c8" : "c16";
}
}  // namespace detail

// Reads a .npy file from `in`; `name` is used in messages ("A.npy: ...").
template <class F>
Matrix<typename F::value_type> read_npy(std::istream& in, const std::string& name, const F& field,
                                        const ReadLimits& limits = {}) {
  using T = typename F::value_type;
  const detail::NpyHeader h = detail::read_npy_header(in, name);
  Matrix<T> a;
  detail::visit_npy_type(h.type, [&](auto raw) {
    using Raw = decltype(raw);
    if constexpr (!detail::npy_converts<F, Raw>()) {
      detail::refuse_npy_dtype<F>(h, name);
    } else {
      detail::check_fits(h.rows, h.cols, sizeof(T), name, limits);
      a = detail::fresh_matrix(h.rows, h.cols, field.zero());
      if (h.swap) {
        detail::read_npy_values<F, Raw, true>(in, field, h, a, name);
      } else {
        detail::read_npy_values<F, Raw, false>(in, field, h, a, name);
      }
    }
  });
  detail::expect_npy_end(in, h, name);
  return a;
}

// The same from the file at `path`.
template <class F>
Matrix<typename F::value_type> read_npy(const std::string& path, const F& field,
                                        const ReadLimits& limits = {}) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open the file");
  return read_npy(in, path, field, limits);
}

// Writes a as a .npy file to `out`; hepex::Error "NAME: ..." if the stream
// fails.
template <class F>
void write_npy(std::ostream& out, const Matrix<typename F::value_type>& a, const F& field,
               const std::string& name = "the .npy output") {
  detail::write_npy_header(out, detail::npy_type_name(field), a.rows, a.cols);
  out.write(reinterpret_cast<const char*>(a.data.data()),
            static_cast<std::streamsize>(a.data.size() * sizeof(typename F::value_type)));
  out.flush();
  if (!out) throw Error(name + ": writing the .npy data failed");
}

// The same to the file at `path` (created or replaced).
template <class F>
void write_npy(const std::string& path, const Matrix<typename F::value_type>& a, const F& field) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(path + ": cannot open the file for writing");
  write_npy(out, a, field, path);
  out.close();
  if (!out) throw Error(path + ": writing the .npy data failed");
}

}  // namespace hepex::io
