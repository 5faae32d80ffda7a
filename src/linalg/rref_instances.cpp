// rref's explicit instantiations (rref.hpp): every field on every enabled
// execution space, and the host-matrix form for every field.
#define HEPEX_RREF_INSTANTIATING
#include "hepex/linalg/rref.hpp"

#include "hepex/field/real.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::linalg {

HEPEX_FOR_EACH_SPACE(HEPEX_RREF_INSTANCES)
HEPEX_RREF_ON_HOST_MATRIX(field::Zp32)
HEPEX_RREF_ON_HOST_MATRIX(field::Zp64)
HEPEX_RREF_ON_HOST_MATRIX(field::Real64)
HEPEX_RREF_ON_HOST_MATRIX(field::Real32)
HEPEX_RREF_ON_HOST_MATRIX(field::Complex128)
HEPEX_RREF_ON_HOST_MATRIX(field::Complex64)

}  // namespace hepex::linalg
