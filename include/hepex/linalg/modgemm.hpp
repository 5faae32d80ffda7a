#pragma once
// Modular matrix products C = A B (mod p) and C += A B, exact for every input,
// for every prime 2 <= p < 2^63, on the device or the host. The methods and
// their exact ranges: modgemm_methods.hpp; the kernels: detail/modgemm_*.hpp.

#include <algorithm>
#include <string>
#include <type_traits>

#include "hepex/core/error.hpp"
#include "hepex/core/instantiation.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/progress.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/detail/modgemm_doubles.hpp"
#include "hepex/linalg/detail/modgemm_int8.hpp"
#include "hepex/linalg/detail/modgemm_words.hpp"
#include "hepex/linalg/gemm_workspace.hpp"
#include "hepex/linalg/modgemm_methods.hpp"
#include "hepex/linalg/row_subset.hpp"

namespace hepex::linalg {

namespace detail {

// modgemm into a matrix or a RowSubset (below); the shapes are checked.
template <class ExecSpace, class Word, class Target>
GemmMethod modgemm_into(const ExecSpace& space, const field::Zp<Word>& f,
                        const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                        const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                        const Target& c, GemmMethod method, bool accumulate,
                        GemmWorkspace<typename ExecSpace::memory_space>* workspace) {
  using Memory = typename ExecSpace::memory_space;
  constexpr bool into_matrix = std::is_same_v<Target, DeviceMatrix<Word, Memory>>;
  const std::size_t m = a.extent(0), k = a.extent(1), n = b.extent(1);
  const Place where = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible
                          ? Place::host
                          : Place::device;
  method = resolve_gemm_method(method, f.modulus(), where);
  if (m == 0 || n == 0) return method;
  GemmWorkspace<Memory> local;
  GemmWorkspace<Memory>& scratch = workspace != nullptr ? *workspace : local;
  if (method == GemmMethod::int64 || method == GemmMethod::int8 || k == 0) {
    // These kernels write a matrix: rows of one go through a copy (slot 7,
    // which neither uses).
    auto run = [&](const DeviceMatrix<Word, Memory>& into) {
      if (method == GemmMethod::int8 && k > 0) {
        detail::modgemm_int8(space, f, a, b, into, accumulate, where, scratch);
      } else {
        detail::modgemm_words(space, f, a, b, into, accumulate);
      }
    };
    if constexpr (into_matrix) {
      run(c);
    } else {
      const auto copy = detail::gather_rows(space, c, n, accumulate, scratch, 7);
      run(copy);
      detail::scatter_rows(space, copy, c);
    }
  } else {
    detail::modgemm_doubles(space, f, a, b, c, accumulate, where, method == GemmMethod::multiword,
                            scratch);
  }
  space.fence();
  return method;
}

inline void check_product_shapes(std::size_t m, std::size_t k, std::size_t k2, std::size_t n,
                                 std::size_t cm, std::size_t cn) {
  if (k2 != k || cm != m || cn != n) {
    throw Error("modgemm: shapes " + std::to_string(m) + "x" + std::to_string(k) + " times " +
                std::to_string(k2) + "x" + std::to_string(n) + " into " + std::to_string(cm) + "x" +
                std::to_string(cn) + " do not match");
  }
}

// modgemm_into over blocks of C's rows, each a product of its own, sized to
// take about a tenth of a second: between them an interruption is seen
// (core/progress.hpp) and progress reported. The operands must have no row
// padding.
template <class ExecSpace, class Word>
GemmMethod modgemm_by_rows(const ExecSpace& space, const field::Zp<Word>& f,
                           const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                           const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                           const DeviceMatrix<Word, typename ExecSpace::memory_space>& c,
                           GemmMethod method, bool accumulate) {
  using Memory = typename ExecSpace::memory_space;
  const std::size_t m = a.extent(0), k = a.extent(1), n = b.extent(1);
  ProgressTask task("gemm", "rows of C", static_cast<double>(m));
  // First blocks of about 2^26 multiply-adds, doubled while they are fast.
  std::size_t rows =
      std::max<std::size_t>(1, (std::size_t{1} << 26) / std::max<std::size_t>(1, k * n));
  for (std::size_t first = 0; first < m;) {
    const std::size_t count = std::min(rows, m - first);
    const double start = progress_clock();
    method = modgemm_into(space, f, ConstDeviceMatrix<Word, Memory>(a.data() + first * k, count, k),
                          b, DeviceMatrix<Word, Memory>(c.data() + first * n, count, n), method,
                          accumulate, static_cast<GemmWorkspace<Memory>*>(nullptr));
    first += count;
    task.update(static_cast<double>(first));
    if (progress_clock() - start < 0.05) rows *= 2;
  }
  return method;
}

}  // namespace detail

// Device API: C = A B (or C += A B) mod p on `space`. A m x k, B k x n, C m x n,
// all reduced residues. Repeated products may share a workspace (see
// gemm_workspace.hpp); without one, scratch memory is allocated per call.
// Returns the method that ran.
template <class ExecSpace, class Word>
GemmMethod modgemm(const ExecSpace& space, const field::Zp<Word>& f,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                   const DeviceMatrix<Word, typename ExecSpace::memory_space>& c,
                   GemmMethod method = GemmMethod::automatic, bool accumulate = false,
                   GemmWorkspace<typename ExecSpace::memory_space>* workspace = nullptr) {
  const KokkosLock lock;
  detail::check_product_shapes(a.extent(0), a.extent(1), b.extent(0), b.extent(1), c.extent(0),
                               c.extent(1));
  // Watched (Python, the CLI's -v): in blocks of rows, so that a long
  // product can be interrupted.
  const bool unpadded =
      a.span() == a.extent(0) * a.extent(1) && c.span() == c.extent(0) * c.extent(1);
  if (ProgressWatch::current() != nullptr && workspace == nullptr && unpadded && a.extent(0) > 1) {
    return detail::modgemm_by_rows(space, f, a, b, c, method, accumulate);
  }
  return detail::modgemm_into(space, f, a, b, c, method, accumulate, workspace);
}

// The same with C = some rows of a larger matrix from a column on
// (row_subset.hpp): C has c.rows.extent(0) rows and B's column count. The
// fp64 and multiword methods read and write those rows in place.
template <class ExecSpace, class Word>
GemmMethod modgemm(const ExecSpace& space, const field::Zp<Word>& f,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                   const RowSubset<Word, typename ExecSpace::memory_space>& c,
                   GemmMethod method = GemmMethod::automatic, bool accumulate = false,
                   GemmWorkspace<typename ExecSpace::memory_space>* workspace = nullptr) {
  const KokkosLock lock;
  const std::size_t columns =
      c.first >= 0 && static_cast<std::size_t>(c.first) <= c.matrix.extent(1)
          ? c.matrix.extent(1) - static_cast<std::size_t>(c.first)
          : 0;
  if (c.first < 0 || columns < b.extent(1)) {
    throw Error("modgemm: " + std::to_string(b.extent(1)) + " columns from column " +
                std::to_string(c.first) + " do not fit a matrix of " +
                std::to_string(c.matrix.extent(1)) + " columns");
  }
  detail::check_product_shapes(a.extent(0), a.extent(1), b.extent(0), b.extent(1), c.rows.extent(0),
                               b.extent(1));
  return detail::modgemm_into(space, f, a, b, c, method, accumulate, workspace);
}

// Host convenience: returns A B (+ C0 when given) mod p. On a host backend
// the matrices are used in place, without copies.
template <class Word>
Matrix<Word> modgemm(const field::Zp<Word>& f, const Matrix<Word>& a, const Matrix<Word>& b,
                     GemmMethod method = GemmMethod::automatic, Place backend = Place::device,
                     const Matrix<Word>* c0 = nullptr) {
  const KokkosLock lock;
  auto run = [&](auto space) {
    using Memory = typename decltype(space)::memory_space;
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible) {
      Matrix<Word> c = c0 != nullptr ? *c0 : Matrix<Word>(a.rows, b.cols);
      modgemm(space, f, ConstDeviceMatrix<Word, Memory>(a.data.data(), a.rows, a.cols),
              ConstDeviceMatrix<Word, Memory>(b.data.data(), b.rows, b.cols),
              DeviceMatrix<Word, Memory>(c.data.data(), c.rows, c.cols), method, c0 != nullptr);
      return c;
    } else {
      const auto da = to_device<Memory>(a, "A");
      const auto db = to_device<Memory>(b, "B");
      auto dc = c0 != nullptr
                    ? to_device<Memory>(*c0, "C")
                    : DeviceMatrix<Word, Memory>(
                          Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("C")), a.rows,
                          b.cols);
      modgemm(space, f, ConstDeviceMatrix<Word, Memory>(da), ConstDeviceMatrix<Word, Memory>(db),
              dc, method, c0 != nullptr);
      return to_host(dc);
    }
  };
  if (a.cols != b.rows || (c0 != nullptr && (c0->rows != a.rows || c0->cols != b.cols))) {
    throw Error("modgemm: A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                ", B is " + std::to_string(b.rows) + "x" + std::to_string(b.cols) +
                (c0 ? ", C is " + std::to_string(c0->rows) + "x" + std::to_string(c0->cols) : "") +
                ": shapes do not match");
  }
  return backend == Place::device ? run(DeviceSpace()) : run(HostSpace());
}

// Explicit instantiation (core/instantiation.hpp; src/linalg/modgemm_instances.cpp):
// both word sizes on every execution space the build enables, C whole or
// some rows, and the host-matrix form, compiled once in the library.
// (clang-format 14 does not leave these macros stable)
// clang-format off
#define HEPEX_MODGEMM_ON_SPACE(Space, Word, Target)                        \
  template GemmMethod modgemm<Space, Word>(                                \
      const Space&, const field::Zp<Word>&,                                \
      const ConstDeviceMatrix<Word, typename Space::memory_space>&,        \
      const ConstDeviceMatrix<Word, typename Space::memory_space>&,        \
      const Target<Word, typename Space::memory_space>&, GemmMethod, bool, \
      GemmWorkspace<typename Space::memory_space>*);
#define HEPEX_MODGEMM_ON_HOST_MATRIX(Word)                                         \
  template Matrix<Word> modgemm<Word>(const field::Zp<Word>&, const Matrix<Word>&, \
                                      const Matrix<Word>&, GemmMethod, Place,      \
                                      const Matrix<Word>*);
#define HEPEX_MODGEMM_WORDS(X, Space)                                           \
  X(Space, std::uint32_t, DeviceMatrix) X(Space, std::uint64_t, DeviceMatrix) \
  X(Space, std::uint32_t, RowSubset) X(Space, std::uint64_t, RowSubset)
#define HEPEX_MODGEMM_INSTANCES(Space) HEPEX_MODGEMM_WORDS(HEPEX_MODGEMM_ON_SPACE, Space)

#ifndef HEPEX_MODGEMM_INSTANTIATING
#define HEPEX_MODGEMM_EXTERN_ON_SPACE(Space, Word, Target) \
  extern HEPEX_MODGEMM_ON_SPACE(Space, Word, Target)
#define HEPEX_MODGEMM_EXTERN(Space) HEPEX_MODGEMM_WORDS(HEPEX_MODGEMM_EXTERN_ON_SPACE, Space)
HEPEX_FOR_EACH_SPACE(HEPEX_MODGEMM_EXTERN)
extern HEPEX_MODGEMM_ON_HOST_MATRIX(std::uint32_t)
extern HEPEX_MODGEMM_ON_HOST_MATRIX(std::uint64_t)
#endif
// clang-format on

}  // namespace hepex::linalg
