#pragma once
// Execution/memory space aliases used across hepex, and the run-time choice
// between them (`--backend host|device`).

#include <string>
#include <type_traits>

#include "hepex/core/kokkos_compat.hpp"

namespace hepex {

// "device": the default execution space (CUDA/HIP when built with one, else the
// host space). "host": the default host execution space (OpenMP or Serial).
using DeviceSpace = Kokkos::DefaultExecutionSpace;
using HostSpace = Kokkos::DefaultHostExecutionSpace;
using DeviceMemory = DeviceSpace::memory_space;

// True when the default execution space is a separate accelerator.
inline constexpr bool has_accelerator =
    !std::is_same<DeviceSpace, HostSpace>::value;

enum class Backend { host, device };

// Where a backend's work runs: Backend::device only with an accelerator.
inline constexpr Backend runs_on(Backend requested) {
  return has_accelerator ? requested : Backend::host;
}

// Parses "host" or "device"; throws hepex::Error otherwise.
Backend parse_backend(const std::string& name);
const char* backend_name(Backend b);

}  // namespace hepex
