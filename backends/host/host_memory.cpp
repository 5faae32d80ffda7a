// The host's physical memory, the same in every build.
#include <unistd.h>

#include "hepex/backend/device_query.hpp"

namespace hepex::backend {

std::size_t host_memory_bytes() {
  return static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) *
         static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace hepex::backend
