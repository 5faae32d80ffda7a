#pragma once
// The processes that share a list of independent jobs: an MPI communicator,
// or the calling process alone (a build without MPI, or a program not started
// by an MPI launcher). hepex never initialises MPI behind the caller's back:
// codes with their own communicator pass it in; the `hepex` executable
// initialises MPI itself when an MPI launcher started it.

#include <string>
#include <vector>

#include "hepex/config.hpp"
#if HEPEX_HAS_MPI
#include <mpi.h>
#endif

namespace hepex::distributed {

class Communicator {
 public:
  // The calling process alone: rank 0 of 1.
  Communicator() = default;
#if HEPEX_HAS_MPI
  // Uses `comm` (not owned: it must outlive this object); MPI must be
  // initialised. Collective over `comm` (it finds the ranks on this node).
  explicit Communicator(MPI_Comm comm);
  MPI_Comm mpi() const { return comm_; }
#endif

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Rank among the processes of this node, and how many share the node.
  int node_rank() const { return node_rank_; }
  int node_size() const { return node_size_; }
  bool alone() const { return size_ == 1; }

  // Collectives (each rank must call them in the same order).
  void barrier() const;
  // root's bytes on every rank.
  void broadcast(std::string& bytes, int root = 0) const;
  // On root: every rank's bytes, in rank order. Elsewhere: empty.
  std::vector<std::string> gather(const std::string& bytes, int root = 0) const;
  // On root: every rank's parts, in rank order, root's own moved in (not
  // copied). Each part travels as a message of its own, received straight
  // into its string (no packing into one buffer, and no limit on a rank's
  // total: each part must be below 2^31 bytes). Elsewhere: empty.
  std::vector<std::vector<std::string>> gather_parts(std::vector<std::string> parts,
                                                     int root = 0) const;
  // Every rank's bytes, in rank order, on every rank.
  std::vector<std::string> all_gather(const std::string& bytes) const;
  // Every rank's values on every rank, in rank order, into `all`: rank r
  // sends counts[r] values of `unit` bytes each (`mine` on this rank), and
  // `all` receives their sum. Every rank passes the same counts. Values,
  // not bytes, are counted, so that a part may exceed 2^31 bytes.
  void all_gather_into(const void* mine, void* all, const std::vector<std::size_t>& counts,
                       std::size_t unit) const;
  // The largest of the ranks' values, on every rank.
  long long max(long long value) const;

 private:
#if HEPEX_HAS_MPI
  MPI_Comm comm_ = MPI_COMM_NULL;
#endif
  int rank_ = 0, size_ = 1, node_rank_ = 0, node_size_ = 1;
};

// Whether this build can carry device buffers between ranks over NCCL, GPU
// to GPU (HEPEX_ENABLE_NCCL; the distributed RREF's rows, docs/gpu.md).
bool built_with_nccl();

// The accelerator a rank should use: node_rank modulo the devices visible
// (0 when there are none), so that the ranks of a node spread over its GPUs.
int device_for_rank(const Communicator& comm, int visible_devices);

}  // namespace hepex::distributed
