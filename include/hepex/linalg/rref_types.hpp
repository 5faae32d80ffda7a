#pragma once
// The options and the result of rref (rref.hpp), shared by its unblocked and
// blocked algorithms (detail/rref_unblocked.hpp, detail/rref_blocked.hpp).

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
};

struct RrefResult {
  std::size_t rank = 0;
  std::vector<int> pivots;  // pivot columns, increasing; pivots[r] is row r's pivot
  bool blocked = false;     // which algorithm ran
};

}  // namespace hepex::linalg
