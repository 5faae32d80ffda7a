#pragma once
// Execution/memory space aliases used across hepex, and the run-time choice
// between them: a Place (the CLI's `--backend host|device`, Python's
// backend=). The backend layer proper (vendor BLAS, device queries, launch
// checks) is hepex::backend, include/hepex/backend/.

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
inline constexpr bool has_accelerator = !std::is_same<DeviceSpace, HostSpace>::value;

// Where work runs: on the host space or on the device space.
enum class Place { host, device };
using Backend [[deprecated("renamed hepex::Place (hepex::backend is the vendor layer)")]] = Place;

// Where work asked for `requested` runs: Place::device only with an accelerator.
inline constexpr Place runs_on(Place requested) {
  return has_accelerator ? requested : Place::host;
}

// Parses "host" or "device"; throws hepex::Error otherwise.
Place parse_place(const std::string& name);
const char* place_name(Place place);

}  // namespace hepex
