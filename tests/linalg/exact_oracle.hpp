#pragma once
// Exact linear algebra over Q(i) with GMP: the independent oracle for the
// floating-point fields (Real64/32, Complex128/64). Every float and double
// is a rational, so a floating-point matrix converts exactly; on integer-
// valued (Gaussian-integer) matrices of known rank, scaled by powers of two,
// the exact RREF, rank and pivots are what the floating-point reduction must
// reproduce to rounding.

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <type_traits>
#include <vector>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/matrix.hpp"

namespace hepex::test {

struct GaussianRational {
  mpq_class re, im;
  bool is_zero() const { return re == 0 && im == 0; }
};

inline GaussianRational operator*(const GaussianRational& a, const GaussianRational& b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
inline GaussianRational operator-(const GaussianRational& a, const GaussianRational& b) {
  return {a.re - b.re, a.im - b.im};
}
inline GaussianRational operator+(const GaussianRational& a, const GaussianRational& b) {
  return {a.re + b.re, a.im + b.im};
}
inline GaussianRational inverse(const GaussianRational& a) {
  const mpq_class norm = a.re * a.re + a.im * a.im;
  return {a.re / norm, -a.im / norm};
}

// Real and complex scalars of the floating-point fields.
template <class T>
struct ScalarParts {
  static constexpr bool complex = false;
  static double re(T x) { return static_cast<double>(x); }
  static double im(T) { return 0; }
  static T make(double re, double) { return static_cast<T>(re); }
};
template <class R>
struct ScalarParts<Kokkos::complex<R>> {
  static constexpr bool complex = true;
  static double re(const Kokkos::complex<R>& x) { return static_cast<double>(x.real()); }
  static double im(const Kokkos::complex<R>& x) { return static_cast<double>(x.imag()); }
  static Kokkos::complex<R> make(double re, double im) {
    return Kokkos::complex<R>(static_cast<R>(re), static_cast<R>(im));
  }
};

template <class T>
GaussianRational exact(const T& x) {
  return {mpq_class(ScalarParts<T>::re(x)), mpq_class(ScalarParts<T>::im(x))};
}
template <class T>
std::complex<long double> as_complex(const T& x) {
  return {ScalarParts<T>::re(x), ScalarParts<T>::im(x)};
}
inline std::complex<long double> as_complex(const GaussianRational& x) {
  return {x.re.get_d(), x.im.get_d()};
}

template <class T>
Matrix<GaussianRational> exact_matrix(const Matrix<T>& a) {
  Matrix<GaussianRational> e(a.rows, a.cols);
  for (std::size_t i = 0; i < a.data.size(); ++i) e.data[i] = exact(a.data[i]);
  return e;
}

struct ExactRref {
  Matrix<GaussianRational> r;
  std::vector<int> pivots;
  std::size_t rank() const { return pivots.size(); }
};

// Gauss-Jordan over Q(i): the first non-zero entry as pivot (exact, so any
// choice gives the unique RREF).
inline ExactRref exact_rref(Matrix<GaussianRational> a) {
  ExactRref out;
  std::size_t row = 0;
  for (std::size_t col = 0; col < a.cols && row < a.rows; ++col) {
    std::size_t p = row;
    while (p < a.rows && a(p, col).is_zero()) ++p;
    if (p == a.rows) continue;
    for (std::size_t j = 0; j < a.cols; ++j) std::swap(a(row, j), a(p, j));
    const GaussianRational inv = inverse(a(row, col));
    for (std::size_t j = col; j < a.cols; ++j) a(row, j) = a(row, j) * inv;
    for (std::size_t i = 0; i < a.rows; ++i) {
      if (i == row || a(i, col).is_zero()) continue;
      const GaussianRational factor = a(i, col);
      for (std::size_t j = col; j < a.cols; ++j) a(i, j) = a(i, j) - factor * a(row, j);
    }
    out.pivots.push_back(static_cast<int>(col));
    ++row;
  }
  out.r = std::move(a);
  return out;
}

// A = L R with L (m x rank), R (rank x n) of integers (Gaussian integers for
// complex T) in [-range, range], then row i scaled by 2^k_i, k_i in
// [-shift, shift]: exact in T while |entries| 2^shift < 2^24 (float).
// `dominance` is added to L(k, k) and R(k, k), k < rank: diagonally dominant
// leading blocks keep float's reduction well conditioned, so that its rank
// decisions at the default tolerance are the exact ones.
template <class T>
Matrix<T> integer_matrix_of_rank(std::size_t m, std::size_t n, std::size_t rank, int range,
                                 int shift, std::mt19937_64& rng, int dominance = 0) {
  using P = ScalarParts<T>;
  auto draw = [&] { return static_cast<long long>(rng() % (2 * range + 1)) - range; };
  std::vector<std::complex<long long>> l(m * rank), r(rank * n);
  for (auto& x : l) x = {draw(), P::complex ? draw() : 0};
  for (auto& x : r) x = {draw(), P::complex ? draw() : 0};
  for (std::size_t k = 0; k < rank; ++k) {
    if (k < m) l[k * rank + k] += dominance;
    if (k < n) r[k * n + k] += dominance;
  }
  Matrix<T> a(m, n);
  for (std::size_t i = 0; i < m; ++i) {
    const double scale =
        std::ldexp(1.0, shift > 0 ? static_cast<int>(rng() % (2 * shift + 1)) - shift : 0);
    for (std::size_t j = 0; j < n; ++j) {
      std::complex<long long> sum = 0;
      for (std::size_t k = 0; k < rank; ++k) sum += l[i * rank + k] * r[k * n + j];
      a(i, j) =
          P::make(static_cast<double>(sum.real()) * scale, static_cast<double>(sum.imag()) * scale);
    }
  }
  return a;
}

// max |got - want| / max(1, max |want|): the normwise relative error of a
// floating-point result against the exact one.
template <class T>
double relative_error(const Matrix<T>& got, const Matrix<GaussianRational>& want) {
  long double worst = 0, size = 1;
  for (std::size_t i = 0; i < got.data.size(); ++i) {
    const auto w = as_complex(want.data[i]);
    worst = std::max(worst, std::abs(as_complex(got.data[i]) - w));
    size = std::max(size, std::abs(w));
  }
  return static_cast<double>(worst / size);
}

}  // namespace hepex::test
