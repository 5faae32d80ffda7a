#pragma once
// Matrix Market files (`%%MatrixMarket matrix array|coordinate
// integer|real|complex general`), read into and written from hepex matrices
// over any field. Every problem is a hepex::Error naming the file and line,
// raised before anything is returned.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <istream>
#include <ostream>
#include <string>

#include <gmpxx.h>

#include "hepex/core/error.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/field/big_integer.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::io {

enum class EntryKind { integer, real, complex };

// The parser's view of one file: the declared shape and entry kind, then every
// stored entry (0-based indices; `imag` is empty unless the kind is complex).
struct MatrixMarketSink {
  std::function<void(std::size_t rows, std::size_t cols, EntryKind kind)> begin;
  std::function<void(std::size_t i, std::size_t j, const std::string& real, const std::string& imag,
                     std::size_t line)>
      entry;
};

// Parses the header, size line and entries (array: column-major, all of them;
// coordinate: 1-based "i j value" lines, each position at most once, the rest
// zero). `name` is used in messages ("A.mtx:17: ...").
void parse_matrix_market(std::istream& in, const std::string& name, const MatrixMarketSink& sink);

// The memory a caller has for the matrix, in bytes, and how many copies of
// it the work needs (for "does not fit" before any allocation); max_bytes 0
// means no limit. With device_bytes (the device's memory) the work also
// holds one copy on the device and, when given, device_workspace(rows,
// cols, entry bytes) more there.
struct ReadLimits {
  std::size_t max_bytes = 0;
  std::size_t copies = 1;
  std::size_t device_bytes = 0;
  std::size_t (*device_workspace)(std::size_t, std::size_t, std::size_t) = nullptr;
};

namespace detail {
[[noreturn]] void entry_error(const std::string& name, std::size_t line, const std::string& what);
bool is_integer_token(const std::string& token);
double parse_finite_double(const std::string& token, const std::string& name, std::size_t line);
void check_fits(std::size_t rows, std::size_t cols, std::size_t entry_bytes,
                const std::string& name, const ReadLimits& limits);

// One token as an element of the field.
template <class Word>
Word convert(const field::Zp<Word>& f, EntryKind kind, const std::string& re, const std::string&,
             const std::string& name, std::size_t line) {
  if (kind == EntryKind::complex) entry_error(name, line, "complex entries in a modular run");
  if (!is_integer_token(re)) entry_error(name, line, "entry '" + re + "' is not an integer");
  // Base 10 explicitly: GMP's default base 0 would read "010" as octal 8.
  return field::from_big(f, mpz_class(re[0] == '+' ? re.substr(1) : re, 10));
}
template <class Real>
Real convert(const field::RealField<Real>&, EntryKind kind, const std::string& re,
             const std::string&, const std::string& name, std::size_t line) {
  if (kind == EntryKind::complex) {
    entry_error(name, line, "complex entries in a real run (use --field complex)");
  }
  return static_cast<Real>(parse_finite_double(re, name, line));
}
template <class Real>
Kokkos::complex<Real> convert(const field::ComplexField<Real>&, EntryKind kind,
                              const std::string& re, const std::string& im, const std::string& name,
                              std::size_t line) {
  const double imag = kind == EntryKind::complex ? parse_finite_double(im, name, line) : 0.0;
  return {static_cast<Real>(parse_finite_double(re, name, line)), static_cast<Real>(imag)};
}
}  // namespace detail

template <class F>
Matrix<typename F::value_type> read_matrix_market(std::istream& in, const std::string& name,
                                                  const F& field, const ReadLimits& limits = {}) {
  using T = typename F::value_type;
  Matrix<T> a;
  EntryKind kind = EntryKind::integer;
  MatrixMarketSink sink;
  sink.begin = [&](std::size_t rows, std::size_t cols, EntryKind k) {
    detail::check_fits(rows, cols, sizeof(T), name, limits);
    kind = k;
    a = Matrix<T>(rows, cols, field.zero());
  };
  sink.entry = [&](std::size_t i, std::size_t j, const std::string& re, const std::string& im,
                   std::size_t line) {
    a(i, j) = detail::convert(field, kind, re, im, name, line);
  };
  parse_matrix_market(in, name, sink);
  return a;
}

namespace detail {
template <class Word>
void write_entry(std::ostream& out, const field::Zp<Word>&, Word x) {
  out << x;
}
template <class Real>
void write_entry(std::ostream& out, const field::RealField<Real>&, Real x) {
  out << x;
}
template <class Real>
void write_entry(std::ostream& out, const field::ComplexField<Real>&,
                 const Kokkos::complex<Real>& x) {
  out << x.real() << ' ' << x.imag();
}
template <class F>
const char* kind_name(const F&) {
  if constexpr (F::is_exact) {
    return "integer";
  } else if constexpr (std::is_same<typename F::value_type, typename F::real_type>::value) {
    return "real";
  } else {
    return "complex";
  }
}
template <class F>
void write_banner(std::ostream& out, const char* format, const F& field) {
  out << "%%MatrixMarket matrix " << format << ' ' << kind_name(field) << " general\n";
  out.precision(17);
}
}  // namespace detail

// Writes `array` format (column-major), floating point with full precision.
template <class F>
void write_matrix_market(std::ostream& out, const Matrix<typename F::value_type>& a,
                         const F& field) {
  detail::write_banner(out, "array", field);
  out << a.rows << ' ' << a.cols << '\n';
  for (std::size_t j = 0; j < a.cols; ++j) {
    for (std::size_t i = 0; i < a.rows; ++i) {
      detail::write_entry(out, field, a(i, j));
      out << '\n';
    }
  }
}

// Writes `coordinate` format: the entries that are not exactly zero, as
// 1-based "i j value" lines in row-major order.
template <class F>
void write_matrix_market_coordinate(std::ostream& out, const Matrix<typename F::value_type>& a,
                                    const F& field) {
  const auto nonzero = [&](const typename F::value_type& x) { return !(x == field.zero()); };
  detail::write_banner(out, "coordinate", field);
  out << a.rows << ' ' << a.cols << ' ' << std::count_if(a.data.begin(), a.data.end(), nonzero)
      << '\n';
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (std::size_t j = 0; j < a.cols; ++j) {
      if (!nonzero(a(i, j))) continue;
      out << i + 1 << ' ' << j + 1 << ' ';
      detail::write_entry(out, field, a(i, j));
      out << '\n';
    }
  }
}

}  // namespace hepex::io
