#pragma once
// The span of rows added over time, on the host or the device (a host API
// over RowEchelon, row_echelon.hpp): add sample rows, ask whether vectors
// lie in the span, read the reduced row echelon form, its pivots and null
// space, intersect two spans. Over Z/p (Zp32, Zp64). What Linac's users do
// with ColumnVectorSpace and VectorSpaceOfFunctions (docs/linalg.md, "Growing
// row spaces"), without a new elimination per added block of samples.

#include <cstddef>
#include <memory>
#include <vector>

#include "hepex/core/matrix.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::linalg {

template <class F>
class RowSpace {
 public:
  using T = typename F::value_type;

  // The zero space of vectors with `columns` entries, kept on `place`.
  RowSpace(const F& field, std::size_t columns, Place place = Place::device);
  ~RowSpace();
  RowSpace(RowSpace&&) noexcept;
  RowSpace& operator=(RowSpace&&) noexcept;

  // Adds rows (k x columns, entries reduced below p); returns how much the
  // rank grew. Work: two products of k x rank x (columns - rank) and
  // rank x (growth) x (columns - rank), and an elimination of k rows.
  std::size_t add_rows(const Matrix<T>& rows);
  // Whether each row lies in the span.
  std::vector<bool> contains_each(const Matrix<T>& rows) const;
  // Whether every row lies in the span.
  bool contains(const Matrix<T>& rows) const;

  std::size_t columns() const;
  std::size_t rank() const;
  std::vector<int> pivots() const;  // pivot columns, increasing
  Matrix<T> rref() const;           // rank x columns
  Matrix<T> nullspace() const;      // columns x (columns - rank): E x = 0 (Linac eq. 9)
  // The span of the vectors in both (from the null space of
  // [E1; -E2]^T, Linac section 5.3), on this space's place.
  RowSpace intersection(const RowSpace& other) const;

  Place place() const;
  const F& field() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class RowSpace<field::Zp32>;
extern template class RowSpace<field::Zp64>;

}  // namespace hepex::linalg
