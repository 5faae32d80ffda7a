#pragma once
// The options and the result of rref (rref.hpp), shared by its unblocked and
// blocked algorithms (detail/rref_unblocked.hpp, detail/rref_blocked.hpp).

#include <cstddef>
#include <ostream>
#include <vector>

namespace hepex::linalg {

struct RrefOptions {
  // Progress on this stream (column, share of the work, rate, ETA) every two
  // seconds, when the calling thread has no ProgressWatch of its own
  // (core/progress.hpp); a report costs one device fence.
  std::ostream* progress = nullptr;
  // The blocked algorithm's panel width: 0 chooses by size and backend
  // (automatic_blocking in rref.hpp; unblocked for small matrices and for
  // fields without a fast product: Real32, complex), -1 forces the unblocked
  // algorithm, b > 0 forces panels of b columns (tests use small b to
  // exercise the blocked path on small matrices).
  int block_columns = 0;
  // Panels of at most this many columns are reduced by the unblocked kernel;
  // wider ones recursively by the blocked algorithm with half the width.
  // 0: the automatic choice's.
  int leaf_columns = 0;
  // How a panel reduced by the unblocked kernel yields its pivot block's
  // inverse: from a zero block carried beside it, or from a reduction of its
  // own (detail/rref_blocked.hpp); automatic: automatic_blocking's choice.
  enum class PanelInverse { automatic, beside, separate };
  PanelInverse panel_inverse = PanelInverse::automatic;
  // Columns per product of the blocked algorithm's trailing update: 0 the
  // automatic choice's, -1 all at once.
  int trailing_chunk = 0;
  // Over Z/p, the blocked algorithm first reduces each panel in a sample of
  // its free rows and the whole panel only when the sample's rank falls
  // short (detail/rref_blocked.hpp); false: always the whole panel (the same
  // result; for measuring the difference).
  bool sample_panels = true;
};

// An upper estimate of the device memory rref(space, ...) needs beside a
// rows x cols matrix of entry_bytes-byte residues: the blocked algorithm's
// trailing products (int8 residue planes of the product chunk, about 9 bytes
// per byte of its entries, the chunk capped at 2^29 entries:
// detail::product_columns), the planes of the free rows' factors (rows x a
// panel of 1024 columns, kept for every chunk), its panel scratch (a
// sixteenth of the matrix covers a whole panel of 1024 columns from n =
// 32768 on; below, the 3 GiB do) and 3 GiB for the CUDA context, Kokkos and
// the small buffers. At n = 100,000 mod 2^31 - 1 (37.3 GiB) the estimate is
// 64.0 GiB in all; an H200 measured 63.1 GiB with panels of 1024
// (perf/results/linalg/rref/2026-12-05_h200_3d41ffe_sampled_panels.log;
// 59.9 GiB with panels of 512: large_rref/2026-11-28_h200_6738888/).
inline std::size_t rref_device_workspace(std::size_t rows, std::size_t cols,
                                         std::size_t entry_bytes) {
  const std::size_t entries = rows * cols, cap = std::size_t{1} << 29;
  const std::size_t product = (entries < cap ? entries : cap) * 9 * entry_bytes;
  const std::size_t factors = rows * 1024 * 9 * entry_bytes;
  return product + factors + entries * entry_bytes / 16 + (std::size_t{3} << 30);
}

struct RrefResult {
  std::size_t rank = 0;
  std::vector<int> pivots;  // pivot columns, increasing; pivots[r] is row r's pivot
  bool blocked = false;     // which algorithm ran
};

}  // namespace hepex::linalg
