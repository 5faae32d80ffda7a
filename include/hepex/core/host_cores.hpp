#pragma once
// Whether an execution space runs on the host's cores, for size thresholds
// measured per kind of processor.

#include <type_traits>

#include "hepex/core/spaces.hpp"

namespace hepex {

// True for the host space, and for every space of a build without an
// accelerator.
template <class ExecSpace>
inline constexpr bool runs_on_host_cores =
    !has_accelerator || std::is_same<ExecSpace, HostSpace>::value;

}  // namespace hepex
