// Host build: the one "device" is the host CPU and its memory.
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include "device_query.hpp"

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
  const auto pages = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES));
  const auto page_size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return {DeviceInfo{cpu_model() + " (" + std::to_string(std::thread::hardware_concurrency()) +
                         " threads)",
                     pages * page_size, "host"}};
}

}  // namespace hepex::backend
