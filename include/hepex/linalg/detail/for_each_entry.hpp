#pragma once
// Runs an elementwise kernel functor(i, j) over a row-major rows x cols
// matrix: on a GPU as a flat range, one thread per entry with j fastest
// (coalesced; measured faster there than a 2D MDRange), on a CPU as a range
// of rows, each a plain loop over j (no index division per entry; as fast as
// Kokkos 3.4's 2D MDRange in modgemm's passes, and simpler).

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace hepex::linalg::detail {

template <class Functor>
struct FlatEntries {
  Functor functor;
  std::int64_t cols;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t flat) const {
    functor(flat / cols, flat % cols);
  }
};

// The entries of one row. They are independent (on a GPU they run as
// separate threads), which the compiler is told: it cannot prove it where a
// functor writes rows it looks up, such as a RowSubset's
// matrix(rows(i), j), whose store might, by the aliasing rules, change
// rows(i), and would then not vectorise the loop.
#if defined(__GNUC__) && !defined(__clang__)
#define HEPEX_INDEPENDENT_ITERATIONS _Pragma("GCC ivdep")
#elif defined(__clang__)
#define HEPEX_INDEPENDENT_ITERATIONS _Pragma("clang loop vectorize(assume_safety)")
#else
#define HEPEX_INDEPENDENT_ITERATIONS
#endif
template <class Functor>
struct EntriesOfRow {
  Functor functor;
  std::int64_t cols;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    HEPEX_INDEPENDENT_ITERATIONS
    for (std::int64_t j = 0; j < cols; ++j) functor(i, j);
  }
};

template <class ExecSpace, class Functor>
void for_each_entry(const char* label, const ExecSpace& space, std::size_t rows, std::size_t cols,
                    const Functor& functor) {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename ExecSpace::memory_space>::accessible) {
    Kokkos::parallel_for(label,
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                             space, 0, static_cast<std::int64_t>(rows)),
                         EntriesOfRow<Functor>{functor, static_cast<std::int64_t>(cols)});
  } else {
    // 64-bit indices: a matrix of n >= 65536 has 2^32 entries or more.
    Kokkos::parallel_for(label,
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                             space, 0, static_cast<std::int64_t>(rows * cols)),
                         FlatEntries<Functor>{functor, static_cast<std::int64_t>(cols)});
  }
}

}  // namespace hepex::linalg::detail
