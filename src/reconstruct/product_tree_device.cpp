#include "hepex/reconstruct/detail/product_tree.hpp"

#include "hepex/core/spaces.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/reconstruct/detail/ntt.hpp"
#include "hepex/reconstruct/detail/subproduct_tree.hpp"

namespace hepex::reconstruct::detail {

std::vector<std::uint64_t> product_of_linear_factors(const DeviceSpace&, const field::Zp64& f,
                                                     const std::uint64_t* roots,
                                                     std::size_t count) {
  const auto d_roots = to_view<DeviceMemory>(std::vector<std::uint64_t>(roots, roots + count),
                                             "hepex::product_tree::roots");
  const ThreePrimeNtt<DeviceSpace> ntt(f, SubproductTree<DeviceSpace>::height_for(count));
  std::vector<std::uint64_t> out = to_vector(SubproductTree<DeviceSpace>(f, ntt, d_roots).root());
  out.resize(count + 1);
  return out;
}

}  // namespace hepex::reconstruct::detail
