#pragma once
// The .npy reader's element level: the header it parsed, the C++ type of
// each dtype it accepts, and one stored value made an element of a field.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <istream>
#include <limits>
#include <string>
#include <type_traits>

#include "hepex/core/matrix.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::io::detail {

// The dtypes the reader accepts (other ones are refused by the header parser).
enum class NpyType { i1, i2, i4, i8, u1, u2, u4, u8, f4, f8, c8, c16 };

struct NpyHeader {
  std::string descr;  // as written, e.g. "<u4"
  NpyType type = NpyType::u1;
  std::size_t item_bytes = 1;
  bool swap = false;  // stored in the other byte order than this machine's
  bool fortran_order = false;
  std::size_t dimensions = 2;  // 1: a vector, read as rows x 1
  std::size_t rows = 0, cols = 0;
};

// Parses the magic string, version and header dict; the stream is left at
// the first byte of the data. hepex::Error naming the file on any problem.
NpyHeader read_npy_header(std::istream& in, const std::string& name);
// Reads the next `bytes` bytes of the data into `to`; `before` bytes of it
// were read already (for the message when the file is short).
void read_npy_data(std::istream& in, char* to, std::size_t bytes, std::size_t before,
                   const NpyHeader& h, const std::string& name);
// Refuses bytes after the data.
void expect_npy_end(std::istream& in, const NpyHeader& h, const std::string& name);
// "NAME: a[i, j] WHAT" for the data's element `index` (in file order).
[[noreturn]] void npy_entry_error(const NpyHeader& h, std::size_t index, const std::string& name,
                                  const std::string& what);
// "NAME: dtype 'D' ...: WHY" for a dtype the field cannot take.
[[noreturn]] void npy_dtype_error(const NpyHeader& h, const std::string& name,
                                  const std::string& why);
// Writes the version 1.0 header of a rows x cols C-order array of `type`
// ("u4", "f8", ...: the byte order is this machine's).
void write_npy_header(std::ostream& out, const char* type, std::size_t rows, std::size_t cols);

template <class Real>
struct NpyComplex {
  Real re, im;
};

// Calls visit(Raw{}) with the C++ type of the dtype's values.
template <class Visit>
void visit_npy_type(NpyType type, Visit&& visit) {
  switch (type) {
    case NpyType::i1: return visit(std::int8_t{});
    case NpyType::i2: return visit(std::int16_t{});
    case NpyType::i4: return visit(std::int32_t{});
    case NpyType::i8: return visit(std::int64_t{});
    case NpyType::u1: return visit(std::uint8_t{});
    case NpyType::u2: return visit(std::uint16_t{});
    case NpyType::u4: return visit(std::uint32_t{});
    case NpyType::u8: return visit(std::uint64_t{});
    case NpyType::f4: return visit(float{});
    case NpyType::f8: return visit(double{});
    case NpyType::c8: return visit(NpyComplex<float>{});
    case NpyType::c16: return visit(NpyComplex<double>{});
  }
}

template <class Raw>
struct IsNpyComplex : std::false_type {};
template <class Real>
struct IsNpyComplex<NpyComplex<Real>> : std::true_type {};

// One value from its bytes, byte-swapped (each part of a complex on its own)
// when Swap.
template <class Raw, bool Swap>
Raw load_npy(const unsigned char* bytes) {
  Raw x;
  if constexpr (!Swap) {
    std::memcpy(&x, bytes, sizeof(Raw));
  } else {
    constexpr std::size_t part = IsNpyComplex<Raw>::value ? sizeof(Raw) / 2 : sizeof(Raw);
    unsigned char swapped[sizeof(Raw)];
    for (std::size_t k = 0; k < sizeof(Raw); k += part) {
      std::reverse_copy(bytes + k, bytes + k + part, swapped + k);
    }
    std::memcpy(&x, swapped, sizeof(Raw));
  }
  return x;
}

// Whether field F takes values of type Raw: Z/p integers, real fields
// integers and reals, complex fields all.
template <class F, class Raw>
constexpr bool npy_converts() {
  if constexpr (F::is_exact) {
    return std::is_integral<Raw>::value;
  } else if constexpr (std::is_same<typename F::value_type, typename F::real_type>::value) {
    return !IsNpyComplex<Raw>::value;
  } else {
    return true;
  }
}

// Integers reduced mod p (negative ones to p - |x| mod p, as Matrix Market's
// reader does); only values outside [0, p) are reduced.
template <class Word, class Raw>
bool npy_element(const field::Zp<Word>& f, Raw x, Word& y) {
  if (x >= 0 && static_cast<std::uint64_t>(x) < f.modulus()) {
    y = static_cast<Word>(x);
  } else if constexpr (std::is_signed<Raw>::value) {
    y = f.from_int(x);
  } else {
    y = f.from_uint(x);
  }
  return true;
}

// Whether a value stored as the field's own type is an element as it is
// (then read_npy leaves it in place).
template <class Word>
bool npy_kept(const field::Zp<Word>& f, Word x) {
  return x < f.modulus();
}
template <class Real>
bool npy_kept(const field::RealField<Real>&, Real x) {
  return std::isfinite(x);
}

// x as Real, or false when it is not exactly one (an integer of more
// significant bits than Real's mantissa) or not finite.
template <class Real, class Raw>
bool npy_real(Raw x, Real& y) {
  if constexpr (std::is_integral<Raw>::value) {
    std::uint64_t bits = x < 0 ? 0 - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x);
    while (bits != 0 && (bits & 1) == 0) bits >>= 1;
    y = static_cast<Real>(x);
    return (bits >> std::numeric_limits<Real>::digits) == 0;
  } else {
    y = static_cast<Real>(x);
    return std::isfinite(y);
  }
}

template <class Real, class Raw>
bool npy_element(const field::RealField<Real>&, Raw x, Real& y) {
  return npy_real(x, y);
}

template <class Real, class Raw>
bool npy_element(const field::ComplexField<Real>&, Raw x, Kokkos::complex<Real>& y) {
  Real re = 0, im = 0;
  bool ok;
  if constexpr (IsNpyComplex<Raw>::value) {
    ok = npy_real(x.re, re) && npy_real(x.im, im);
  } else {
    ok = npy_real(x, re);
  }
  y = Kokkos::complex<Real>(re, im);
  return ok;
}

// Why npy_element refused x.
template <class Raw>
std::string npy_refusal(Raw x) {
  if constexpr (std::is_integral<Raw>::value) {
    return "= " + std::to_string(x) + " has no exact floating-point value of this precision";
  } else {
    return "is not finite (NaN, Inf or out of range)";
  }
}

// Converts `count` values of the data, from element `first` on (file order),
// into a's storage (at the row-major place of each: the file may be in
// Fortran order). `bytes` may be a's own storage when the types have one size:
// each value is loaded before its place is written.
template <class F, class Raw, bool Swap>
void convert_npy(const F& f, const unsigned char* bytes, std::size_t first, std::size_t count,
                 const NpyHeader& h, Matrix<typename F::value_type>& a, const std::string& name) {
  for (std::size_t k = 0; k < count; ++k) {
    const Raw x = load_npy<Raw, Swap>(bytes + k * sizeof(Raw));
    const std::size_t index = first + k;
    typename F::value_type y;
    if (!npy_element(f, x, y)) npy_entry_error(h, index, name, npy_refusal(x));
    const std::size_t at = h.fortran_order ? (index % h.rows) * h.cols + index / h.rows : index;
    a.data[at] = y;
  }
}

}  // namespace hepex::io::detail
