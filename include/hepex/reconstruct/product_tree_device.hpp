#pragma once
// The master polynomial prod_j (Z - m_j) on the device: the root of the
// subproduct tree (subproduct_tree.hpp), schoolbook at the low levels and
// three-prime NTT products above, O(M(T) log T). The host's Kronecker tree
// (product_tree.hpp, GMP) is the choice without a GPU.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hepex/field/zp.hpp"

namespace hepex::reconstruct {

// prod_{j < count} (Z - roots[j]) computed in DeviceSpace: count + 1
// coefficients, lowest first.
std::vector<std::uint64_t> product_of_linear_factors_on_device(const field::Zp64& f,
                                                               const std::uint64_t* roots,
                                                               std::size_t count);

}  // namespace hepex::reconstruct
