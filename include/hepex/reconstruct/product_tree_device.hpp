#pragma once
// The master polynomial prod_j (Z - m_j) on the device: a product tree over
// the roots padded to a power of two with constant factors, each level one
// launch with a thread per output coefficient summing its schoolbook terms
// exactly in three words. O(T^2 / 2) multiply-adds at the top levels, but
// on a GPU that is a fraction of a second at T = 750k, where the host's
// Kronecker tree (product_tree.hpp) took over ten seconds on one core; the
// host one is O(M(T log p) log T) and stays the choice without a GPU.

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
