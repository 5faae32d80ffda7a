// RowSpace (row_space.hpp): the host API over RowEchelon, on the host or the
// device space, instantiated here once for Zp32 and Zp64.
#include "hepex/linalg/row_space.hpp"

#include <mutex>
#include <string>

#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/linalg/echelon.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "hepex/linalg/row_echelon.hpp"

namespace hepex::linalg {

namespace {

// What RowSpace needs of a RowEchelon, whatever its execution space.
template <class F>
struct Echelon {
  using T = typename F::value_type;
  virtual ~Echelon() = default;
  virtual std::size_t add_rows(const Matrix<T>& rows) = 0;
  virtual std::vector<bool> contains(const Matrix<T>& rows) = 0;
  virtual std::size_t rank() const = 0;
  virtual std::vector<int> pivots() const = 0;
  virtual Matrix<T> rref() const = 0;
};

template <class Space, class F>
struct EchelonOn final : Echelon<F> {
  using T = typename F::value_type;
  using Memory = typename Space::memory_space;
  RowEchelon<Space, F> echelon;
  EchelonOn(const F& f, std::size_t columns) : echelon(Space(), f, columns) {}

  static ConstDeviceMatrix<T, Memory> on_space(const Matrix<T>& rows,
                                               DeviceMatrix<T, Memory>& keep) {
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible) {
      return ConstDeviceMatrix<T, Memory>(rows.data.data(), rows.rows, rows.cols);
    } else {
      keep = to_device<Memory>(rows, "hepex::row_space::rows");
      return keep;
    }
  }
  std::size_t add_rows(const Matrix<T>& rows) override {
    DeviceMatrix<T, Memory> keep;
    return echelon.add_rows(on_space(rows, keep));
  }
  std::vector<bool> contains(const Matrix<T>& rows) override {
    DeviceMatrix<T, Memory> keep;
    return echelon.contains(on_space(rows, keep));
  }
  std::size_t rank() const override { return echelon.rank(); }
  std::vector<int> pivots() const override { return echelon.pivots(); }
  Matrix<T> rref() const override { return to_host(echelon.rref()); }
};

}  // namespace

template <class F>
struct RowSpace<F>::Impl {
  F field;
  std::size_t columns;
  Place place;
  mutable std::mutex mutex;  // one call at a time on this object
  std::unique_ptr<Echelon<F>> echelon;
};

template <class F>
RowSpace<F>::RowSpace(const F& field, std::size_t columns, Place place)
    : impl_(std::make_unique<Impl>()) {
  const KokkosLock lock;
  impl_->field = field;
  impl_->columns = columns;
  impl_->place = runs_on(place);
  if (impl_->place == Place::device) {
    impl_->echelon = std::make_unique<EchelonOn<DeviceSpace, F>>(field, columns);
  } else {
    impl_->echelon = std::make_unique<EchelonOn<HostSpace, F>>(field, columns);
  }
}

template <class F>
RowSpace<F>::~RowSpace() {
  if (impl_ == nullptr) return;
  const KokkosLock lock;  // the Views are freed under the lock as well
  impl_.reset();
}
template <class F>
RowSpace<F>::RowSpace(RowSpace&&) noexcept = default;
template <class F>
RowSpace<F>& RowSpace<F>::operator=(RowSpace&& other) noexcept {
  const KokkosLock lock;  // the Views this one held are freed here
  impl_ = std::move(other.impl_);
  return *this;
}

namespace {
// Rows must match the space and hold residues below p: checked before work.
template <class F>
void check_rows(const F& f, const Matrix<typename F::value_type>& rows, std::size_t columns,
                const char* what) {
  if (rows.cols != columns) {
    throw Error(std::string(what) + ": rows of " + std::to_string(rows.cols) +
                " entries for a space of vectors with " + std::to_string(columns));
  }
  for (std::size_t i = 0; i < rows.rows; ++i) {
    for (std::size_t j = 0; j < rows.cols; ++j) {
      if (rows(i, j) >= f.modulus()) {
        throw Error(std::string(what) + ": rows(" + std::to_string(i) + ", " + std::to_string(j) +
                    ") = " + std::to_string(rows(i, j)) +
                    " is not reduced below p = " + std::to_string(f.modulus()));
      }
    }
  }
}
}  // namespace

template <class F>
std::size_t RowSpace<F>::add_rows(const Matrix<T>& rows) {
  const std::lock_guard guard(impl_->mutex);
  check_rows(impl_->field, rows, impl_->columns, "add_rows");
  return impl_->echelon->add_rows(rows);
}

template <class F>
std::vector<bool> RowSpace<F>::contains_each(const Matrix<T>& rows) const {
  const std::lock_guard guard(impl_->mutex);
  check_rows(impl_->field, rows, impl_->columns, "contains");
  return impl_->echelon->contains(rows);
}

template <class F>
bool RowSpace<F>::contains(const Matrix<T>& rows) const {
  for (const bool in : contains_each(rows)) {
    if (!in) return false;
  }
  return true;
}

template <class F>
std::size_t RowSpace<F>::columns() const {
  return impl_->columns;
}
template <class F>
std::size_t RowSpace<F>::rank() const {
  const std::lock_guard guard(impl_->mutex);
  return impl_->echelon->rank();
}
template <class F>
std::vector<int> RowSpace<F>::pivots() const {
  const std::lock_guard guard(impl_->mutex);
  return impl_->echelon->pivots();
}
template <class F>
Matrix<typename F::value_type> RowSpace<F>::rref() const {
  const std::lock_guard guard(impl_->mutex);
  return impl_->echelon->rref();
}
template <class F>
Matrix<typename F::value_type> RowSpace<F>::nullspace() const {
  const std::lock_guard guard(impl_->mutex);
  return nullspace_from_rref(impl_->field, impl_->echelon->rref(), impl_->echelon->pivots(),
                             impl_->columns);
}
template <class F>
Place RowSpace<F>::place() const {
  return impl_->place;
}
template <class F>
const F& RowSpace<F>::field() const {
  return impl_->field;
}

// x lies in both spans when x = a E1 = b E2, i.e. (a, b) [E1; -E2] = 0: (a, b)
// in the null space of M = [E1^T | -E2^T] (columns x (r1 + r2)); the
// intersection is spanned by the rows a^T E1 over a basis of it.
template <class F>
RowSpace<F> RowSpace<F>::intersection(const RowSpace& other) const {
  if (other.impl_->columns != impl_->columns) {
    throw Error("intersection: spaces of vectors with " + std::to_string(impl_->columns) + " and " +
                std::to_string(other.impl_->columns) + " entries");
  }
  if (other.impl_->field.modulus() != impl_->field.modulus()) {
    throw Error("intersection: spaces over p = " + std::to_string(impl_->field.modulus()) +
                " and p = " + std::to_string(other.impl_->field.modulus()));
  }
  const F& f = impl_->field;
  const Matrix<T> e1 = rref(), e2 = other.rref();
  const std::size_t n = impl_->columns, r1 = e1.rows, r2 = e2.rows;
  RowSpace result(f, n, impl_->place);
  if (r1 == 0 || r2 == 0) return result;
  Matrix<T> m(n, r1 + r2);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t t = 0; t < r1; ++t) m(j, t) = e1(t, j);
    for (std::size_t t = 0; t < r2; ++t) m(j, r1 + t) = f.neg(e2(t, j));
  }
  const Matrix<T> kernel = linalg::nullspace(f, std::move(m), impl_->place);
  if (kernel.cols == 0) return result;
  Matrix<T> a(kernel.cols, r1);
  for (std::size_t d = 0; d < kernel.cols; ++d)
    for (std::size_t t = 0; t < r1; ++t) a(d, t) = kernel(t, d);
  result.add_rows(modgemm(f, a, e1, GemmMethod::automatic, impl_->place));
  return result;
}

template class RowSpace<field::Zp32>;
template class RowSpace<field::Zp64>;

}  // namespace hepex::linalg
