#pragma once
// Vector spaces through row reduction (Linac sections 5.3 and 5.4):
// ColumnVectorSpace, spanned by explicit column vectors, with dimension,
// basis, containment and intersection; and function_space_basis, which finds
// a basis among k functions known only through their values at sample points.

#include <functional>
#include <vector>

#include "hepex/linalg/echelon.hpp"

namespace hepex::linalg {

namespace detail {
// [A | B] for matrices with the same number of rows.
template <class T>
Matrix<T> side_by_side(const Matrix<T>& a, const Matrix<T>& b) {
  if (a.rows != b.rows) {
    throw Error("vector spaces of different ambient dimension (" + std::to_string(a.rows) +
                " and " + std::to_string(b.rows) + ")");
  }
  Matrix<T> c(a.rows, a.cols + b.cols);
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (std::size_t j = 0; j < a.cols; ++j) c(i, j) = a(i, j);
    for (std::size_t j = 0; j < b.cols; ++j) c(i, a.cols + j) = b(i, j);
  }
  return c;
}

template <class F>
Matrix<typename F::value_type> multiply(const F& f, const Matrix<typename F::value_type>& a,
                                        const Matrix<typename F::value_type>& b) {
  Matrix<typename F::value_type> c(a.rows, b.cols, f.zero());
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t l = 0; l < a.cols; ++l)
      for (std::size_t j = 0; j < b.cols; ++j) c(i, j) = f.fma(a(i, l), b(l, j), c(i, j));
  return c;
}
}  // namespace detail

template <class F>
class ColumnVectorSpace {
 public:
  using T = typename F::value_type;

  // The span of the columns of `generators` (ambient dimension = its rows).
  ColumnVectorSpace(const F& field, const Matrix<T>& generators, Place backend = Place::device)
      : field_(field), backend_(backend) {
    Matrix<T> reduced = generators;
    const RrefResult r = rref(field_, reduced, backend_);
    // The pivot columns of the generators are independent and span the space.
    basis_ = Matrix<T>(generators.rows, r.rank);
    for (std::size_t i = 0; i < generators.rows; ++i)
      for (std::size_t k = 0; k < r.rank; ++k) basis_(i, k) = generators(i, r.pivots[k]);
  }

  std::size_t dimension() const { return basis_.cols; }
  std::size_t ambient_dimension() const { return basis_.rows; }
  const Matrix<T>& basis() const { return basis_; }

  // Whether every column of `vectors` lies in the space.
  bool contains(const Matrix<T>& vectors) const {
    return rank(field_, detail::side_by_side(basis_, vectors), backend_) == dimension();
  }
  bool contains(const ColumnVectorSpace& other) const { return contains(other.basis_); }

  // U ∩ W: the vectors B x = C y, from the null space of [B | -C] (Linac 5.3).
  ColumnVectorSpace intersection(const ColumnVectorSpace& other) const {
    Matrix<T> minus_c = other.basis_;
    for (auto& x : minus_c.data) x = field_.neg(x);
    const auto kernel = nullspace(field_, detail::side_by_side(basis_, minus_c), backend_);
    Matrix<T> x(dimension(), kernel.cols);
    for (std::size_t i = 0; i < dimension(); ++i)
      for (std::size_t k = 0; k < kernel.cols; ++k) x(i, k) = kernel(i, k);
    return ColumnVectorSpace(field_, detail::multiply(field_, basis_, x), backend_);
  }

 private:
  F field_;
  Place backend_;
  Matrix<T> basis_;
};

// Which of k functions form a basis of their span (Linac section 5.4).
// evaluate(point) returns the k function values at a point; sample(i) returns
// the i-th sample point. Samples are added `step` at a time (starting with
// `start`) until the pivot columns of the samples x k evaluation matrix are
// the same twice in a row; throws hepex::Error (negative answer) if that has
// not happened after `max_samples`.
struct FunctionSpaceOptions {
  std::size_t start = 0;  // 0: k + 1
  std::size_t step = 4;
  std::size_t max_samples = 0;  // 0: 4k + 16
};

struct FunctionSpaceBasis {
  std::vector<int> basis_functions;  // indices of the functions forming the basis
  std::size_t samples = 0;           // sample points used
};

template <class F, class Point>
FunctionSpaceBasis function_space_basis(
    const F& field, std::size_t k,
    const std::function<std::vector<typename F::value_type>(const Point&)>& evaluate,
    const std::function<Point(std::size_t)>& sample, FunctionSpaceOptions options = {},
    Place backend = Place::device) {
  using T = typename F::value_type;
  const std::size_t start = options.start ? options.start : k + 1;
  const std::size_t max_samples = options.max_samples ? options.max_samples : 4 * k + 16;
  std::vector<std::vector<T>> rows;
  std::vector<int> previous;
  bool have_previous = false;
  for (std::size_t target = start; target <= max_samples;
       target += std::max<std::size_t>(1, options.step)) {
    while (rows.size() < target) {
      rows.push_back(evaluate(sample(rows.size())));
      if (rows.back().size() != k) {
        throw Error("function_space_basis: evaluate returned " +
                    std::to_string(rows.back().size()) + " values, expected " + std::to_string(k));
      }
    }
    Matrix<T> values(rows.size(), k);
    for (std::size_t s = 0; s < rows.size(); ++s)
      for (std::size_t j = 0; j < k; ++j) values(s, j) = rows[s][j];
    const RrefResult r = rref(field, values, backend);
    if (have_previous && r.pivots == previous) return {r.pivots, rows.size()};
    previous = r.pivots;
    have_previous = true;
  }
  throw Error("function_space_basis: the basis did not stabilise within " +
                  std::to_string(max_samples) + " samples",
              ErrorKind::negative_answer);
}

}  // namespace hepex::linalg
