#include "hepex/reconstruct/detail/vandermonde.hpp"

#include "hepex/core/spaces.hpp"
#include "hepex/reconstruct/detail/product_tree.hpp"

namespace hepex::reconstruct::detail {

namespace {

// With a GPU, masters of at least this many roots are built there (a tree
// of log2 T launches); smaller ones, and all without a GPU, on the host.
constexpr std::size_t device_tree_roots = 4096;

}  // namespace

std::vector<std::uint64_t> master_polynomials(const field::Zp64& f, const VandermondeSystems& s) {
  std::vector<std::uint64_t> out;
  for (std::size_t g = 0; g < s.groups(); ++g) {
    const std::uint64_t* roots = s.nodes.data() + s.offsets[g];
    const std::size_t T = s.offsets[g + 1] - s.offsets[g];
    const auto p = has_accelerator && T >= device_tree_roots
                       ? product_of_linear_factors(DeviceSpace(), f, roots, T)
                       : product_of_linear_factors(f, roots, T);
    out.insert(out.end(), p.begin(), p.end());
  }
  return out;
}

std::vector<std::uint64_t> master_derivatives(const field::Zp64& f, const VandermondeSystems& s,
                                              const std::vector<std::uint64_t>& master) {
  std::vector<std::uint64_t> out(s.nodes.size());
  for (std::size_t g = 0; g < s.groups(); ++g) {
    const std::size_t first = s.offsets[g], T = s.offsets[g + 1] - first;
    for (std::size_t k = 0; k < T; ++k)
      out[first + k] = f.mul(f.from_uint(k + 1), master[first + g + k + 1]);
  }
  return out;
}

}  // namespace hepex::reconstruct::detail
