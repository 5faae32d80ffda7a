#include "hepex/reconstruct/vandermonde.hpp"

#include "hepex/reconstruct/univariate.hpp"

namespace hepex::reconstruct {

std::vector<std::uint64_t> master_polynomials(const field::Zp64& f, const VandermondeSystems& s) {
  std::vector<std::uint64_t> out;
  for (std::size_t g = 0; g < s.groups(); ++g) {
    std::vector<std::uint64_t> p{1};
    for (std::size_t j = s.offsets[g]; j < s.offsets[g + 1]; ++j) multiply_linear(f, p, s.nodes[j]);
    out.insert(out.end(), p.begin(), p.end());
  }
  return out;
}

}  // namespace hepex::reconstruct
