#pragma once
// FLINT as the independent oracle for exact linear algebra over Z/p.

#include <flint/nmod_mat.h>

#include <cstdint>
#include <vector>

#include "hepex/core/matrix.hpp"

namespace hepex::test {

// Pivot columns read off a reduced matrix: the first non-zero of each row.
template <class Word>
std::vector<int> leading_columns(const Matrix<Word>& r) {
  std::vector<int> pivots;
  for (std::size_t i = 0; i < r.rows; ++i) {
    for (std::size_t j = 0; j < r.cols; ++j) {
      if (r(i, j) != 0) {
        pivots.push_back(static_cast<int>(j));
        break;
      }
    }
  }
  return pivots;
}

// RAII wrapper of an nmod_mat_t.
class FlintMatrix {
 public:
  FlintMatrix(std::size_t rows, std::size_t cols, std::uint64_t p) {
    nmod_mat_init(m_, static_cast<slong>(rows), static_cast<slong>(cols), p);
  }
  template <class Word>
  FlintMatrix(const Matrix<Word>& a, std::uint64_t p) : FlintMatrix(a.rows, a.cols, p) {
    for (std::size_t i = 0; i < a.rows; ++i)
      for (std::size_t j = 0; j < a.cols; ++j) nmod_mat_entry(m_, i, j) = a(i, j);
  }
  ~FlintMatrix() { nmod_mat_clear(m_); }
  FlintMatrix(const FlintMatrix&) = delete;
  FlintMatrix& operator=(const FlintMatrix&) = delete;

  nmod_mat_struct* get() { return m_; }
  template <class Word>
  Matrix<Word> to_matrix() const {
    Matrix<Word> a(static_cast<std::size_t>(m_->r), static_cast<std::size_t>(m_->c));
    for (std::size_t i = 0; i < a.rows; ++i)
      for (std::size_t j = 0; j < a.cols; ++j)
        a(i, j) = static_cast<Word>(nmod_mat_entry(m_, i, j));
    return a;
  }

 private:
  nmod_mat_t m_;
};

// A * B mod p through FLINT.
template <class Word>
Matrix<Word> flint_mul(const Matrix<Word>& a, const Matrix<Word>& b, std::uint64_t p) {
  FlintMatrix fa(a, p), fb(b, p), fc(a.rows, b.cols, p);
  nmod_mat_mul(fc.get(), fa.get(), fb.get());
  return fc.template to_matrix<Word>();
}

}  // namespace hepex::test
