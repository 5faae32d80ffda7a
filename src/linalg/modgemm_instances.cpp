// modgemm's explicit instantiations (modgemm.hpp): both word sizes on every
// enabled execution space, C whole or some rows, and the host-matrix form.
#define HEPEX_MODGEMM_INSTANTIATING
#include "hepex/linalg/modgemm.hpp"

namespace hepex::linalg {

HEPEX_FOR_EACH_SPACE(HEPEX_MODGEMM_INSTANCES)
HEPEX_MODGEMM_ON_HOST_MATRIX(std::uint32_t)
HEPEX_MODGEMM_ON_HOST_MATRIX(std::uint64_t)

}  // namespace hepex::linalg
