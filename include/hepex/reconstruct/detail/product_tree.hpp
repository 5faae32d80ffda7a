#pragma once
// Fast univariate products mod p on the host: the master polynomial
// prod_j (Z - m_j) of a transposed Vandermonde system (vandermonde.hpp) by a
// balanced product tree whose large products go through Kronecker
// substitution into GMP's integer multiplication (FFT-based for large
// operands): O(M(T log p) log T) instead of T^2 / 2 multiply-adds, which at
// T = 750k took minutes on one core. With an execution space as first
// argument, the root of the subproduct tree in that space instead
// (subproduct_tree.hpp: schoolbook at the low levels, three-prime NTT
// products above, O(M(T) log T)); vandermonde.cpp takes it on a GPU.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hepex/core/spaces.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::reconstruct::detail {

// a * b mod p, coefficients lowest degree first; empty if either is empty.
std::vector<std::uint64_t> multiply_polynomials(const field::Zp64& f,
                                                const std::vector<std::uint64_t>& a,
                                                const std::vector<std::uint64_t>& b);

// prod_{j < count} (Z - roots[j]): count + 1 coefficients, lowest first.
std::vector<std::uint64_t> product_of_linear_factors(const field::Zp64& f,
                                                     const std::uint64_t* roots, std::size_t count);

// The same product computed in `space`'s execution space, DeviceSpace
// (src/reconstruct/product_tree_device.cpp; without an accelerator that is the
// host space): the tree's launches go to that space's default instance, and
// the coefficients are back on the host when it returns.
std::vector<std::uint64_t> product_of_linear_factors(const DeviceSpace& space, const field::Zp64& f,
                                                     const std::uint64_t* roots, std::size_t count);

}  // namespace hepex::reconstruct::detail
