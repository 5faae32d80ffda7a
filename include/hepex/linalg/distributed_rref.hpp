#pragma once
// One matrix's RREF over Z/p with its rows spread over the ranks of a
// communicator, one device per rank (issue 42: systems larger than one GPU,
// 200,000^2 residues mod 2^31 - 1 are 160 GB). Each rank holds a block of
// rows and only those; the RREF comes out spread the same way, each row
// either zero or the RREF row of one pivot column. The answer is exact and
// equal to one device's, because the RREF of a matrix is unique: any pivot
// rows that span the same space give it.
//
// Two passes over panels of w columns, as LU followed by a triangular solve
// (the single device's blocked elimination does the same: n^3/3
// multiply-adds on a square matrix of full rank, against Gauss-Jordan's
// n^3/2); detail in src/linalg/distributed_rref.cpp:
//   forward, per panel: root picks k free rows S whose panel slices S_p are
//   independent and span every free row's (from at most w rows offered by
//   each rank, balancing the ranks' free rows), and from the RREF of
//   [S_p | I] = [G S_p | G] the pivots Q and G; the owners share S's rows
//   with every rank (one all-gather); every rank forms E = G S = RREF(S)
//   (one modgemm), updates its free rows, A[f, c:] -= A[f, c + Q] E (the
//   existing modgemm on its device), and the owners write E over S;
//   back (src/linalg/distributed_back_substitution.hpp), from the last panel:
//   every earlier pivot row is reduced against the panel's rows in the
//   non-pivot columns only (none for a square matrix of full rank).
// After a panel every free row is zero in it: its slice lay in the span of
// S's slices, i.e. of E's, and a vector v of that span is v[Q] E. The
// serial part is root's: the RREF of at most (ranks x w) x w candidate
// slices and of the k x (w + k) matrix [S_p | I] per panel. Per panel a
// rank sends w slices of w entries and its rows of S, and receives G and S:
// the whole of S crosses the network once.
// Messages are host bytes over the communicator (MPI; rows through pinned
// host memory on a GPU); a rank's failure in any step reaches every rank as
// the same error (no rank is left waiting).

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
  // Columns per panel: 0 chooses (256 on the host, 1024 on a device); tests
  // use a few columns to have many panels on small matrices.
  int panel_columns = 0;
  // Columns per product of the update (at most what keeps a product's C at
  // 2^29 entries, as rref's blocked update); 0: that bound alone. Tests use a
  // few columns to have several products per panel.
  int update_columns = 0;
  Place place = Place::device;  // where each rank's rows are reduced
  // How rows travel between ranks whose rows are on a GPU: `nccl` GPU to
  // GPU (a build with NCCL, docs/gpu.md; an Error otherwise, or for rows in
  // host memory), `host` through host memory over MPI; `automatic` takes
  // NCCL when the build has it, the rows are on a GPU, there are several
  // ranks and the matrix has at least 2^24 entries (NCCL's setup takes a
  // fraction of a second).
  enum class Messages { automatic, host, nccl };
  Messages messages = Messages::automatic;
};

// Where a rank's time went (seconds, wall clock of this rank).
struct DistributedRrefSeconds {
  double candidates = 0;  // step 1: its free rows' spanning slices
  double choose = 0;      // step 2, on root: S, Q and G from the candidates' slices
  double rows = 0;        // step 3: its rows of S to the host
  double messages = 0;    // in exchanges, waiting for the slowest rank included
  double update = 0;      // step 4: E = G S and the product into its free rows
  double back = 0;        // the back substitution's products (its messages in `messages`)
  double total = 0;       // the whole call
};

struct DistributedRrefResult {
  std::size_t rows = 0, cols = 0;  // of the whole matrix
  std::size_t rank = 0;
  std::vector<int> pivots;         // pivot columns, increasing (on every rank)
  std::vector<int> row_pivots;     // per local row: its pivot column, or -1 (a zero row)
  std::size_t panels = 0;          // panels reduced
  bool nccl = false;               // whether rows travelled over NCCL
  DistributedRrefSeconds seconds;  // this rank's
};

// Collective over comm. `local` is this rank's block of rows of one matrix
// (the blocks in rank order make the matrix; any sizes, empty ones too,
// every rank with the same column count), reduced in place. A rank whose
// column count differs, or any rank's failure, is an Error on every rank.
template <class Word>
DistributedRrefResult distributed_rref(const distributed::Communicator& comm,
                                       const field::Zp<Word>& f, Matrix<Word>& local,
                                       const DistributedRrefOptions& options = {});

// The same with this rank's rows already in device memory, reduced there in
// place: no host copy of the matrix (a rank's block of a 200,000-column
// matrix is 40 GB); `options.place` is not read. In a build without an
// accelerator DeviceMemory is host memory.
template <class Word>
DistributedRrefResult distributed_rref(const distributed::Communicator& comm,
                                       const field::Zp<Word>& f,
                                       const DeviceMatrix<Word, DeviceMemory>& local,
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
extern template DistributedRrefResult distributed_rref<std::uint32_t>(
    const distributed::Communicator&, const field::Zp32&,
    const DeviceMatrix<std::uint32_t, DeviceMemory>&, const DistributedRrefOptions&);
extern template DistributedRrefResult distributed_rref<std::uint64_t>(
    const distributed::Communicator&, const field::Zp64&,
    const DeviceMatrix<std::uint64_t, DeviceMemory>&, const DistributedRrefOptions&);
extern template Matrix<std::uint32_t> gather_rref<std::uint32_t>(const distributed::Communicator&,
                                                                 const Matrix<std::uint32_t>&,
                                                                 const DistributedRrefResult&, int);
extern template Matrix<std::uint64_t> gather_rref<std::uint64_t>(const distributed::Communicator&,
                                                                 const Matrix<std::uint64_t>&,
                                                                 const DistributedRrefResult&, int);

}  // namespace hepex::linalg
