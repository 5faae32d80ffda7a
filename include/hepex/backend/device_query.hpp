#pragma once
// What the backend knows of the machine: the devices of this build's
// accelerator runtime (CUDA, HIP) or the host, and the host's memory. One
// implementation per folder of backends/ (cuda/, hip/, host/), chosen by the
// Kokkos build; hepex::devices() and hepex::host_memory_bytes() (core/runtime.hpp)
// are these calls.

#include <cstddef>
#include <string>
#include <vector>

namespace hepex {

struct DeviceInfo {
  std::string name;          // e.g. "NVIDIA H100 80GB HBM3" or the host CPU model
  std::size_t memory_bytes;  // total memory of the device
  std::string kind;          // "cuda", "hip" or "host"
};

}  // namespace hepex

namespace hepex::backend {

// The devices visible to the default execution space (the host alone in
// host builds). Throws a runtime hepex::Error when the runtime cannot count them.
std::vector<DeviceInfo> query_devices();
// Physical memory of the host, in bytes (backends/host/host_memory.cpp).
std::size_t host_memory_bytes();

}  // namespace hepex::backend
