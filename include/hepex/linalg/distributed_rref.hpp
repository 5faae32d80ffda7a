#pragma once
// One matrix's RREF over Z/p with its rows spread over the ranks of a
// communicator, one device per rank (issue 42: systems larger than one GPU,
// 200,000^2 residues mod 2^31 - 1 are 160 GB). Each rank holds a block of
// rows and only those; the RREF comes out spread the same way, each row
// either zero or the RREF row of one pivot column. The answer is exact and
// equal to one device's, because the RREF of a matrix is unique: any pivot
// rows that span the same space give it.
//
// Gauss-Jordan over panels of w columns (detail in src/linalg/distributed_rref.cpp):
//   1. every rank picks, among its free rows (not yet pivot rows), at most w
//      whose slices in the panel span those of all its free rows (the pivot
//      columns of the RREF of the transposed slices);
//   2. root gathers these candidates' slices, picks among them k rows S
//      whose slices are independent (the same way) and broadcasts who owns
//      them;
//   3. the owners send S's rows (columns c..n-1: a free row is zero left of
//      the panel), and root forms E = RREF(S): k rows with their pivots Q in
//      the panel, E = G S for an invertible G, so that S may be replaced by
//      E without changing the row space (G and the panel part from the RREF
//      of [S_p | I], the rest one modgemm G S[:, w:]);
//   4. root broadcasts E and Q; every rank updates all its rows,
//      A[:, c:] -= A[:, Q] E (the existing modgemm on its device), and the
//      owners write E's rows over S's and mark them as pivot rows.
// After the update every free row is zero in the panel: its slice lay in the
// span of S's slices, i.e. of E's, and a vector v of that span is v[Q] E.
// Every row is updated by every panel (Gauss-Jordan clears above the pivots
// too), so contiguous blocks of equal size share the work equally; the
// serial part is root's: the RREF of at most (ranks x w) x w candidate
// slices and E from k <= w rows of n - c columns per panel. Root receives
// those slices and S's k rows, not the candidates' whole rows.
// Messages are host bytes over the communicator (MPI); a rank's failure in
// any step reaches every rank as the same error (no rank is left waiting).

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "hepex/core/matrix.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/distributed/communicator.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::linalg {

struct DistributedRrefOptions {
  // Columns per panel: 0 chooses (256 on the host, 512 on a device); tests
  // use a few columns to have many panels on small matrices.
  int panel_columns = 0;
  // Columns per product of the update (at most what keeps a product's C at
  // 2^29 entries, as rref's blocked update); 0: that bound alone. Tests use a
  // few columns to have several products per panel.
  int update_columns = 0;
  Place place = Place::device;  // where each rank's rows are reduced
};

struct DistributedRrefResult {
  std::size_t rows = 0, cols = 0;  // of the whole matrix
  std::size_t rank = 0;
  std::vector<int> pivots;      // pivot columns, increasing (on every rank)
  std::vector<int> row_pivots;  // per local row: its pivot column, or -1 (a zero row)
  std::size_t panels = 0;       // panels reduced
};

// Collective over comm. `local` is this rank's block of rows of one matrix
// (the blocks in rank order make the matrix; any sizes, empty ones too,
// every rank with the same column count), reduced in place. A rank whose
// column count differs, or any rank's failure, is an Error on every rank.
template <class Word>
DistributedRrefResult distributed_rref(const distributed::Communicator& comm,
                                       const field::Zp<Word>& f, Matrix<Word>& local,
                                       const DistributedRrefOptions& options = {});

// Collective: on root the RREF of the whole matrix (rows x cols, zero rows
// at the bottom) from every rank's reduced block; elsewhere an empty matrix.
template <class Word>
Matrix<Word> gather_rref(const distributed::Communicator& comm, const Matrix<Word>& local,
                         const DistributedRrefResult& result, int root = 0);

// The rows [first, first + count) of a matrix of `rows` rows that rank
// `rank` of `size` holds: contiguous blocks whose sizes differ by at most 1.
std::pair<std::size_t, std::size_t> rank_rows(std::size_t rows, int rank, int size);

extern template DistributedRrefResult distributed_rref<std::uint32_t>(
    const distributed::Communicator&, const field::Zp32&, Matrix<std::uint32_t>&,
    const DistributedRrefOptions&);
extern template DistributedRrefResult distributed_rref<std::uint64_t>(
    const distributed::Communicator&, const field::Zp64&, Matrix<std::uint64_t>&,
    const DistributedRrefOptions&);
extern template Matrix<std::uint32_t> gather_rref<std::uint32_t>(const distributed::Communicator&,
                                                                 const Matrix<std::uint32_t>&,
                                                                 const DistributedRrefResult&, int);
extern template Matrix<std::uint64_t> gather_rref<std::uint64_t>(const distributed::Communicator&,
                                                                 const Matrix<std::uint64_t>&,
                                                                 const DistributedRrefResult&, int);

}  // namespace hepex::linalg
