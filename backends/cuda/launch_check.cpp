// CUDA build: the runtime's error of the last launch.
#include "hepex/backend/launch_check.hpp"

#include <cuda_runtime.h>

#include <string>

#include "hepex/core/error.hpp"

namespace hepex::backend {

void check_launch(const char* kernel) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    throw Error(std::string(kernel) + ": CUDA kernel launch failed: " + cudaGetErrorString(status),
                ErrorKind::runtime);
  }
}

}  // namespace hepex::backend
