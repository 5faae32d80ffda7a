#pragma once
// Reduced row echelon form on the device, for every hepex field (Zp32, Zp64,
// Real64/32, Complex128/64), any shape and rank. Two algorithms, chosen by
// size (RrefOptions): the unblocked one of Linac (section 3.2; per column,
// select a pivot: the first non-zero entry over Z/p, the largest magnitude
// over floating point; swap it into place, scale it to 1, eliminate the
// column from every other row: detail/rref_unblocked.hpp), and a blocked
// Gauss-Jordan whose work is matrix products (modgemm over Z/p, DGEMM over
// Real64: detail/rref_blocked.hpp). The matrix stays on the device; the
// unblocked loop never reads anything back, the blocked one once per panel.
// Floating-point rows are rescaled to unit maximum first; the field's
// tolerance decides what is zero.

#include <algorithm>
#include <optional>

#include "hepex/core/error.hpp"
#include "hepex/core/instantiation.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/progress.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/detail/rref_blocked.hpp"
#include "hepex/linalg/rref_types.hpp"

namespace hepex::linalg {

// Automatic choice of the algorithm: the blocked one from `from` rows and
// columns on, with panels of `block` columns reduced recursively down to
// `leaf` columns. Measured on one CPU core (perf/results/linalg/README.md): the
// blocked path overtakes the unblocked one between n = 1000 and 1250 for
// p = 65521 and between 1500 and 2000 for p = 2^31 - 1; panels of 256
// reduced by the unblocked kernel beat recursive panels (64 or 32 wide
// leaves) and 128 or 512 wide panels. On the H100 (perf/results/linalg/README.md,
// measured at 3a2dd0d with the kernels before the two-launch pass) the
// blocked path was 6.4x faster at n = 16384 with panels of 512 reduced by
// the unblocked kernel, and slower at n = 4096: every pair of panel columns
// costs a latency-bound pass over the panel. Since panels are reduced in a
// sample of their rows first (detail/rref_blocked.hpp), panels of 1024
// reduced recursively are faster on the H200 (2026-12-05, 3d41ffe, p =
// 2^31 - 1): n = 8192 0.0928 s against 0.0921 s with 512, 16384 0.2570 s
// against 0.2756 s, 32768 0.9228 s against 1.2357 s, 100,000 17.2 s against
// 26.8 s (peak 64,645 MiB of device memory).
struct AutomaticBlocking {
  int from, block, leaf;
  int chunk;  // columns per product of the trailing update (0: all at once)
  // Whether a panel reduced by the unblocked kernel carries a zero block that
  // ends holding its pivot block's inverse (one latency-bound pass per column
  // pair fewer on a GPU), or the inverse comes from a k x 2k reduction of its
  // own (less work: the block doubles the panel's width over all free rows).
  bool inverse_beside;
};
template <class ExecSpace>
constexpr AutomaticBlocking automatic_blocking() {
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible) {
    return {1500, 256, 128, 1024, false};
  }
  return {8192, 1024, 256, 0, true};
}

// Reduces `a` in place to its RREF (zero rows at the bottom) on `space`.
template <class ExecSpace, class F>
RrefResult rref(const ExecSpace& space, const F& field,
                const DeviceMatrix<typename F::value_type, typename ExecSpace::memory_space>& a,
                const RrefOptions& options = {}) {
  const KokkosLock lock;
  const int rows = static_cast<int>(a.extent(0));
  const int cols = static_cast<int>(a.extent(1));
  if (a.extent(0) > 0x7fffffff || a.extent(1) > 0x7fffffff) {
    throw Error("rref: matrices are limited to 2^31 - 1 rows and columns");
  }
  if (rows == 0 || cols == 0) return RrefResult{};
  // Progress and interruptions (core/progress.hpp): the caller's watch, or
  // one on options.progress.
  std::optional<ProgressWatch> watch;
  if (options.progress != nullptr && ProgressWatch::current() == nullptr) {
    watch.emplace(stream_progress(*options.progress));
  }
  ProgressTask task("rref", "columns", cols);

  if constexpr (!F::is_exact) {
    Kokkos::parallel_for("hepex::rref::rescale_rows",
                         Kokkos::TeamPolicy<ExecSpace>(space, rows, Kokkos::AUTO),
                         detail::RescaleRows<F, ExecSpace>{a});
  }
  constexpr AutomaticBlocking automatic = automatic_blocking<ExecSpace>();
  int block = options.block_columns;
  if (block == 0) {
    block = detail::HasBlockProduct<F>::value && std::min(rows, cols) >= automatic.from
                ? automatic.block
                : -1;
  }
  const int leaf = options.leaf_columns > 0 ? options.leaf_columns : automatic.leaf;
  if constexpr (detail::HasBlockProduct<F>::value) {
    if (block > 0) {
      using Inverse = RrefOptions::PanelInverse;
      const bool beside = options.panel_inverse == Inverse::automatic
                              ? automatic.inverse_beside
                              : options.panel_inverse == Inverse::beside;
      const int chunk =
          options.trailing_chunk == 0 ? automatic.chunk : std::max(options.trailing_chunk, 0);
      detail::BlockedRref<ExecSpace, F> blocked(space, field, leaf, chunk, beside,
                                                options.sample_panels);
      return blocked.reduce(
          a, Kokkos::View<int*, typename ExecSpace::memory_space>("hepex::rref::row_of", rows),
          block, &task);
    }
  } else if (block > 0) {
    throw Error("rref: the blocked algorithm needs Z/p or Real64; use block_columns <= 0");
  }
  return detail::rref_unblocked(space, field, a, &task);
}

// Host convenience: reduces a host matrix in place on the chosen backend.
template <class F>
RrefResult rref(const F& field, Matrix<typename F::value_type>& a, Place backend = Place::device,
                const RrefOptions& options = {}) {
  const KokkosLock lock;
  auto run = [&](auto space) {
    using Space = decltype(space);
    auto d = to_device<typename Space::memory_space>(a, "hepex::rref::matrix");
    RrefResult r = rref(space, field, d, options);
    a = to_host(d);
    return r;
  };
  return backend == Place::device ? run(DeviceSpace()) : run(HostSpace());
}

// Explicit instantiation (core/instantiation.hpp; src/linalg/rref_instances.cpp):
// every field on every execution space the build enables, and the host-matrix
// form of every field, compiled once in the library.
// (clang-format 14 does not leave these macros stable)
// clang-format off
#define HEPEX_RREF_ON_SPACE(Space, Field)                                            \
  template RrefResult rref<Space, Field>(                                            \
      const Space&, const Field&,                                                    \
      const DeviceMatrix<typename Field::value_type, typename Space::memory_space>&, \
      const RrefOptions&);
#define HEPEX_RREF_ON_HOST_MATRIX(Field)                                                    \
  template RrefResult rref<Field>(const Field&, Matrix<typename Field::value_type>&, Place, \
                                  const RrefOptions&);
#define HEPEX_RREF_FIELDS(X, Space)                                     \
  X(Space, field::Zp32) X(Space, field::Zp64) X(Space, field::Real64) \
  X(Space, field::Real32) X(Space, field::Complex128) X(Space, field::Complex64)
#define HEPEX_RREF_INSTANCES(Space) HEPEX_RREF_FIELDS(HEPEX_RREF_ON_SPACE, Space)

#ifndef HEPEX_RREF_INSTANTIATING
#define HEPEX_RREF_EXTERN_ON_SPACE(Space, Field) extern HEPEX_RREF_ON_SPACE(Space, Field)
#define HEPEX_RREF_EXTERN(Space) HEPEX_RREF_FIELDS(HEPEX_RREF_EXTERN_ON_SPACE, Space)
HEPEX_FOR_EACH_SPACE(HEPEX_RREF_EXTERN)
extern HEPEX_RREF_ON_HOST_MATRIX(field::Zp32)
extern HEPEX_RREF_ON_HOST_MATRIX(field::Zp64)
extern HEPEX_RREF_ON_HOST_MATRIX(field::Real64)
extern HEPEX_RREF_ON_HOST_MATRIX(field::Real32)
extern HEPEX_RREF_ON_HOST_MATRIX(field::Complex128)
extern HEPEX_RREF_ON_HOST_MATRIX(field::Complex64)
#endif
// clang-format on

}  // namespace hepex::linalg
