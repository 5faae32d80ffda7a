#pragma once
// Device buffers shared by every rank, each rank's part from that rank, GPU
// to GPU over NCCL (NVLink within a node; no copy through host memory): the
// distributed RREF's rows (issue 42: "NCCL or CUDA-aware MPI where
// available, plain MPI otherwise"). Present when hepex was built with NCCL
// (HEPEX_ENABLE_NCCL, CUDA builds with MPI, docs/gpu.md); otherwise open()
// refuses and callers take MPI through host memory.
#include <cstddef>
#include <memory>
#include <vector>

#include "hepex/distributed/communicator.hpp"

namespace hepex::distributed {

class DeviceAllGather {
 public:
  virtual ~DeviceAllGather() = default;
  // Collective over `comm`: a NCCL communicator of its ranks, each on its
  // current CUDA device. hepex::Error in a build without NCCL.
  static std::unique_ptr<DeviceAllGather> open(const Communicator& comm);
  // Rank r's bytes[r] bytes at device address buffer + offsets[r] onto every
  // rank's buffer at the same place, after the work queued on `stream` (a
  // cudaStream_t); returns when they have arrived.
  virtual void all_gather_in_place(void* buffer, const std::vector<std::size_t>& offsets,
                                   const std::vector<std::size_t>& bytes, void* stream) = 0;
};

}  // namespace hepex::distributed
