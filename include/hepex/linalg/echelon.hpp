#pragma once
// What one row reduction gives (Linac section 5): rank, pivot columns, the
// canonical null-space basis, a rank factorisation, and the solutions of
// linear systems. The reduction runs on the chosen backend; reading the
// results off the RREF is O(n^2) host work.

#include <vector>

#include "hepex/linalg/rref.hpp"

namespace hepex::linalg {

// Canonical null-space basis of a matrix with n columns from its RREF `r` and
// pivots (Linac eq. 9): one column per free (non-pivot) column c, in
// increasing order, with x_c = -1, x_{pivot j} = r(j, c), other entries 0, so
// that A x = sum_j r(j,c) A_{pivot j} - A_c = 0. Uses only the first n columns
// of r.
template <class F>
Matrix<typename F::value_type> nullspace_from_rref(const F& field,
                                                   const Matrix<typename F::value_type>& r,
                                                   const std::vector<int>& pivots, std::size_t n) {
  std::vector<bool> is_pivot(n, false);
  for (int p : pivots) {
    if (static_cast<std::size_t>(p) < n) is_pivot[static_cast<std::size_t>(p)] = true;
  }
  std::vector<std::size_t> free_columns;
  for (std::size_t c = 0; c < n; ++c) {
    if (!is_pivot[c]) free_columns.push_back(c);
  }
  Matrix<typename F::value_type> basis(n, free_columns.size(), field.zero());
  for (std::size_t k = 0; k < free_columns.size(); ++k) {
    const std::size_t c = free_columns[k];
    basis(c, k) = field.neg(field.one());
    for (std::size_t j = 0; j < pivots.size(); ++j) {
      if (static_cast<std::size_t>(pivots[j]) < n) basis(pivots[j], k) = r(j, c);
    }
  }
  return basis;
}

template <class F>
std::size_t rank(const F& field, Matrix<typename F::value_type> a, Place backend = Place::device) {
  return rref(field, a, backend).rank;
}

template <class F>
Matrix<typename F::value_type> nullspace(const F& field, Matrix<typename F::value_type> a,
                                         Place backend = Place::device) {
  const RrefResult r = rref(field, a, backend);
  return nullspace_from_rref(field, a, r.pivots, a.cols);
}

// A = C * R with C = the pivot columns of A (m x rank) and R = the non-zero
// rows of RREF(A) (rank x n): Linac eq. 7.
template <class F>
struct RankFactorisation {
  Matrix<typename F::value_type> c;
  Matrix<typename F::value_type> r;
  std::vector<int> pivots;
};

template <class F>
RankFactorisation<F> rank_factorisation(const F& field, const Matrix<typename F::value_type>& a,
                                        Place backend = Place::device) {
  Matrix<typename F::value_type> reduced = a;
  const RrefResult rr = rref(field, reduced, backend);
  RankFactorisation<F> out;
  out.pivots = rr.pivots;
  out.c = Matrix<typename F::value_type>(a.rows, rr.rank);
  out.r = Matrix<typename F::value_type>(rr.rank, a.cols);
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (std::size_t k = 0; k < rr.rank; ++k) out.c(i, k) = a(i, rr.pivots[k]);
  }
  for (std::size_t k = 0; k < rr.rank; ++k) {
    for (std::size_t j = 0; j < a.cols; ++j) out.r(k, j) = reduced(k, j);
  }
  return out;
}

// Solutions of A X = B (Linac section 5.2), from RREF([A | B]).
template <class F>
struct Solution {
  bool consistent = false;                    // some X exists
  Matrix<typename F::value_type> particular;  // n x k, free variables 0 (if consistent)
  Matrix<typename F::value_type> nullspace;   // n x (n - rank A): X + N y solves too
};

template <class F>
Solution<F> solve(const F& field, const Matrix<typename F::value_type>& a,
                  const Matrix<typename F::value_type>& b, Place backend = Place::device) {
  if (a.rows != b.rows) {
    throw Error("solve: A has " + std::to_string(a.rows) + " rows but b has " +
                std::to_string(b.rows));
  }
  const std::size_t n = a.cols, k = b.cols;
  Matrix<typename F::value_type> augmented(a.rows, n + k);
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (std::size_t j = 0; j < n; ++j) augmented(i, j) = a(i, j);
    for (std::size_t j = 0; j < k; ++j) augmented(i, n + j) = b(i, j);
  }
  const RrefResult r = rref(field, augmented, backend);
  Solution<F> s;
  // Consistent iff no pivot lies in the augmented columns (Linac eq. 13).
  s.consistent = r.pivots.empty() || static_cast<std::size_t>(r.pivots.back()) < n;
  s.nullspace = nullspace_from_rref(field, augmented, r.pivots, n);
  if (s.consistent) {
    s.particular = Matrix<typename F::value_type>(n, k, field.zero());
    for (std::size_t j = 0; j < r.pivots.size(); ++j) {
      for (std::size_t l = 0; l < k; ++l) s.particular(r.pivots[j], l) = augmented(j, n + l);
    }
  }
  return s;
}

}  // namespace hepex::linalg
