#pragma once
// The one backend call behind hepex::devices(): the devices of this build's
// accelerator runtime (CUDA, HIP) or the host. One implementation per folder.

#include <vector>

#include "hepex/core/runtime.hpp"

namespace hepex::backend {

std::vector<DeviceInfo> query_devices();

}  // namespace hepex::backend
