#pragma once
// Kokkos initialisation for hepex programs, and what this build contains
// (what `hepex --version` and `hepex info` print).

#include <string>
#include <vector>

#include "hepex/backend/device_query.hpp"  // DeviceInfo

namespace hepex {

// Initialises Kokkos for the lifetime of the object (if the caller has not
// already done so) and finalises it on destruction. Codes that manage Kokkos
// themselves never need it. `device_id` >= 0 selects the accelerator (as
// --kokkos-device-id does; an explicit --kokkos-device-id in argv wins), e.g.
// distributed::device_for_rank for one GPU per MPI rank.
class Runtime {
 public:
  Runtime(int& argc, char* argv[], int device_id = -1);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

 private:
  bool owns_kokkos_ = false;
};

struct BuildInfo {
  std::string hepex_version;             // "0.1.0"
  std::string kokkos_version;            // "4.6.1"
  std::vector<std::string> exec_spaces;  // enabled Kokkos execution spaces
  std::string default_space;             // Kokkos::DefaultExecutionSpace::name()
  bool mpi = false;                      // built with the MPI layer
  std::string mpi_library;               // MPI_Get_library_version, first line
  std::vector<std::string> blas_paths;   // vendor BLAS / tensor-core paths compiled in
};

BuildInfo build_info();
// Devices visible to the default execution space (the host alone in host builds).
std::vector<DeviceInfo> devices();
// Physical memory of the host, in bytes.
std::size_t host_memory_bytes();
// "hepex 0.1.0 (Kokkos 4.6.1; backends: Cuda, Serial)"
std::string version_line();

}  // namespace hepex
