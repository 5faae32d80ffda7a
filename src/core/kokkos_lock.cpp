#include "hepex/core/kokkos_lock.hpp"

namespace hepex {

std::recursive_mutex& kokkos_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

}  // namespace hepex
