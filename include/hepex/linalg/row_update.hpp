#pragma once
// The elimination step's inner operation, y <- y - c*x for a fixed factor c of
// one row (Linac section 3.2, "Row reduce"). Over Z/p the factor is fixed for a
// whole row, so Shoup's precomputed quotient makes each update one
// multiply-high, two multiplies and an addition.

#include "hepex/field/zp.hpp"

namespace hepex::linalg {

template <class F>
class RowUpdate {
 public:
  using T = typename F::value_type;
  KOKKOS_INLINE_FUNCTION RowUpdate(const F& f, const T& c) : f_(f), minus_c_(f.neg(c)) {}
  KOKKOS_INLINE_FUNCTION T operator()(const T& y, const T& x) const {
    return f_.fma(minus_c_, x, y);
  }

 private:
  F f_;
  T minus_c_;
};

template <class Word>
class RowUpdate<field::Zp<Word>> {
 public:
  KOKKOS_INLINE_FUNCTION RowUpdate(const field::Zp<Word>& f, Word c)
      : f_(f), minus_c_(f.neg(c)), minus_c_shoup_(f.shoup(f.neg(c))) {}
  KOKKOS_INLINE_FUNCTION Word operator()(Word y, Word x) const {
    return f_.add(y, f_.mul_shoup(x, minus_c_, minus_c_shoup_));
  }

 private:
  field::Zp<Word> f_;
  Word minus_c_;
  Word minus_c_shoup_;
};

}  // namespace hepex::linalg
