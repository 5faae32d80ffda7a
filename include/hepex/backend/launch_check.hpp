#pragma once
// Kokkos reports a kernel that could not be launched (too many resources, no
// image for the device, ...) only in its debug builds; without this check
// such a launch leaves its outputs untouched and nothing says so. Implemented
// per backend in backends/<vendor>/launch_check.cpp (the host: nothing to do).

namespace hepex::backend {

// Throws a runtime Error naming `kernel` when the last launch on this thread
// failed.
void check_launch(const char* kernel);

}  // namespace hepex::backend
