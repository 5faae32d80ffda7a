#pragma once
// hepex umbrella header: the core and field APIs. The other families'
// public headers are included one by one (hepex/linalg/rref.hpp,
// hepex/reconstruct/rational.hpp, hepex/amplitudes/matrix_element.hpp, ...).
// Public headers only: nothing under a family's detail/ folder, whose headers
// and namespace hepex::<family>::detail are internal and may change.

#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/random.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/big_integer.hpp"
#include "hepex/field/crt.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/self_check.hpp"
#include "hepex/field/traits.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/version.hpp"
