// HIP build: every device the HIP runtime sees.
#include <hip/hip_runtime.h>

#include <string>

#include "hepex/backend/device_query.hpp"
#include "hepex/core/error.hpp"

namespace hepex::backend {

std::vector<DeviceInfo> query_devices() {
  int count = 0;
  if (hipGetDeviceCount(&count) != hipSuccess) {
    throw Error("HIP: cannot count devices (no driver or no GPU?)", ErrorKind::runtime);
  }
  std::vector<DeviceInfo> devices;
  for (int d = 0; d < count; ++d) {
    hipDeviceProp_t prop{};
    if (hipGetDeviceProperties(&prop, d) != hipSuccess) {
      throw Error("HIP: cannot read the properties of device " + std::to_string(d),
                  ErrorKind::runtime);
    }
    devices.push_back({std::string(prop.name) + " (" + prop.gcnArchName + ", " +
                           std::to_string(prop.multiProcessorCount) + " CUs)",
                       prop.totalGlobalMem, "hip"});
  }
  return devices;
}

}  // namespace hepex::backend
