#pragma once
// Probe batches spread over MPI ranks (hepex reduce under mpiexec). Every
// rank learns the same traced elimination (the same seed), so every rank
// holds the same black box; rank 0 runs the reconstruction with a
// RankSharedBox around it, which sends each batch to all ranks (broadcast),
// has each evaluate a contiguous share (one GPU per rank where there are
// GPUs) and gathers the values back in order: the answer is the one of a
// single rank, probe for probe. The other ranks serve_probes() until rank
// 0's RankSharedBox is destroyed (also when rank 0 fails).

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "hepex/distributed/communicator.hpp"
#include "hepex/reconstruct/black_box.hpp"

namespace hepex::reduce::detail {

class RankSharedBox : public reconstruct::BlackBox {
 public:
  // On rank 0 of comm; box and comm must outlive it.
  RankSharedBox(const reconstruct::BlackBox& box, const distributed::Communicator& comm);
  ~RankSharedBox() override;  // releases the serving ranks
  RankSharedBox(const RankSharedBox&) = delete;
  RankSharedBox& operator=(const RankSharedBox&) = delete;

  std::size_t variables() const override { return box_.variables(); }
  std::size_t functions() const override { return box_.functions(); }
  // Collective: one batch at a time (calls from several threads wait).
  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& points,
                std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) const override;

 private:
  const reconstruct::BlackBox& box_;
  const distributed::Communicator& comm_;
  mutable std::mutex mutex_;
};

// On the ranks other than 0: evaluates their shares of rank 0's batches
// until rank 0's RankSharedBox is destroyed. A failed evaluation is sent to
// rank 0, which throws it (hepex::Error naming the rank).
void serve_probes(const reconstruct::BlackBox& box, const distributed::Communicator& comm);

// Rank r's share [begin, end) of a batch of count points (contiguous blocks).
std::pair<std::size_t, std::size_t> rank_share(std::size_t count, int rank, int ranks);

}  // namespace hepex::reduce::detail
