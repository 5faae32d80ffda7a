// CUDA build: every device the CUDA runtime sees.
#include <cuda_runtime.h>

#include <string>

#include "hepex/backend/device_query.hpp"
#include "hepex/core/error.hpp"

namespace hepex::backend {

std::vector<DeviceInfo> query_devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    throw Error("CUDA: cannot count devices (no driver or no GPU?)", ErrorKind::runtime);
  }
  std::vector<DeviceInfo> devices;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) {
      throw Error("CUDA: cannot read the properties of device " + std::to_string(d),
                  ErrorKind::runtime);
    }
    devices.push_back({std::string(prop.name) + " (sm_" + std::to_string(prop.major) +
                           std::to_string(prop.minor) + ", " +
                           std::to_string(prop.multiProcessorCount) + " SMs)",
                       prop.totalGlobalMem, "cuda"});
  }
  return devices;
}

}  // namespace hepex::backend
