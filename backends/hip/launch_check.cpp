// HIP build: the runtime's error of the last launch.
#include "hepex/backend/launch_check.hpp"

#include <hip/hip_runtime.h>

#include <string>

#include "hepex/core/error.hpp"

namespace hepex::backend {

void check_launch(const char* kernel) {
  const hipError_t status = hipGetLastError();
  if (status != hipSuccess) {
    throw Error(std::string(kernel) + ": HIP kernel launch failed: " + hipGetErrorString(status),
                ErrorKind::runtime);
  }
}

}  // namespace hepex::backend
