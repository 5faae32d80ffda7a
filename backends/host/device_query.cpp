// Host build: the one "device" is the host CPU and its memory.
#include <fstream>
#include <string>
#include <thread>

#include "hepex/backend/device_query.hpp"

namespace hepex::backend {

namespace {
std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}
}  // namespace

std::vector<DeviceInfo> query_devices() {
  return {DeviceInfo{
      cpu_model() + " (" + std::to_string(std::thread::hardware_concurrency()) + " threads)",
      host_memory_bytes(), "host"}};
}

}  // namespace hepex::backend
