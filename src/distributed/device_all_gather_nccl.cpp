// DeviceAllGather over NCCL (device_all_gather.hpp): one communicator of the
// MPI ranks (rank 0's ncclUniqueId broadcast over MPI), and the all-gather
// as one broadcast per rank from its part, in one NCCL group, so that the
// parts may differ in size (ncclAllGather takes equal ones).
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstring>
#include <string>

#include "device_all_gather.hpp"
#include "hepex/core/error.hpp"

namespace hepex::distributed {

namespace {

void check(ncclResult_t result, const char* what) {
  if (result != ncclSuccess) {
    throw Error(std::string("NCCL: ") + what + ": " + ncclGetErrorString(result),
                ErrorKind::runtime);
  }
}

class Nccl final : public DeviceAllGather {
 public:
  explicit Nccl(const Communicator& comm) {
    // Rank 0's id, or its failure, on every rank.
    std::string message(1 + sizeof(ncclUniqueId), '\0');
    if (comm.rank() == 0) {
      ncclUniqueId id;
      const ncclResult_t result = ncclGetUniqueId(&id);
      if (result == ncclSuccess) {
        message[0] = 1;
        std::memcpy(&message[1], &id, sizeof(id));
      } else {
        message = std::string(1, '\0') + ncclGetErrorString(result);
      }
    }
    comm.broadcast(message);
    if (message[0] != 1) {
      throw Error("NCCL: ncclGetUniqueId on rank 0: " + message.substr(1), ErrorKind::runtime);
    }
    ncclUniqueId id;
    std::memcpy(&id, &message[1], sizeof(id));
    check(ncclCommInitRank(&comm_, comm.size(), id, comm.rank()), "ncclCommInitRank");
  }
  Nccl(const Nccl&) = delete;
  Nccl& operator=(const Nccl&) = delete;
  ~Nccl() override { ncclCommDestroy(comm_); }

  void all_gather_in_place(void* buffer, const std::vector<std::size_t>& offsets,
                           const std::vector<std::size_t>& bytes, void* stream) override {
    auto* base = static_cast<char*>(buffer);
    const auto queue = static_cast<cudaStream_t>(stream);
    check(ncclGroupStart(), "ncclGroupStart");
    ncclResult_t result = ncclSuccess;
    for (std::size_t r = 0; r < bytes.size() && result == ncclSuccess; ++r) {
      if (bytes[r] == 0) continue;
      result = ncclBroadcast(base + offsets[r], base + offsets[r], bytes[r], ncclChar,
                             static_cast<int>(r), comm_, queue);
    }
    const ncclResult_t ended = ncclGroupEnd();
    check(result, "ncclBroadcast");
    check(ended, "ncclGroupEnd");
    const cudaError_t synced = cudaStreamSynchronize(queue);
    if (synced != cudaSuccess) {
      throw Error(std::string("NCCL: after the broadcasts: ") + cudaGetErrorString(synced),
                  ErrorKind::runtime);
    }
  }

 private:
  ncclComm_t comm_ = nullptr;
};

}  // namespace

std::unique_ptr<DeviceAllGather> DeviceAllGather::open(const Communicator& comm) {
  return std::make_unique<Nccl>(comm);
}

bool built_with_nccl() { return true; }

}  // namespace hepex::distributed
