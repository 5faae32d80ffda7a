// DeviceAllGather in a build without NCCL (device_all_gather.hpp).
#include "device_all_gather.hpp"

#include "hepex/core/error.hpp"

namespace hepex::distributed {

std::unique_ptr<DeviceAllGather> DeviceAllGather::open(const Communicator&) {
  throw Error(
      "device messages over NCCL: this hepex was built without NCCL (HEPEX_ENABLE_NCCL, "
      "docs/gpu.md)");
}

bool built_with_nccl() { return false; }

}  // namespace hepex::distributed
