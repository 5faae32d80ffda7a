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

namespace hepex::reconstruct::detail {

void solve_vandermonde_group(const field::Zp64& f, const std::uint64_t* nodes,
                             const std::uint64_t* rhs, std::size_t T, std::uint64_t* out) {
  if (T == 0) return;
  // P(Z) = prod_j (Z - m_j), lowest coefficient first, monic (T + 1 words):
  // the same host product as master_polynomials().
  const std::vector<std::uint64_t> master = product_of_linear_factors(f, nodes, T);
  for (std::size_t j = 0; j < T; ++j) {
    const std::uint64_t m = nodes[j], m_shoup = f.shoup(m);
    field::TripleWord<std::uint64_t> sum;
    std::uint64_t q = 1;           // q_{T-1}
    std::uint64_t derivative = 1;  // Q_j(m) by Horner, from q_{T-1} down
    detail::add_product(sum, q, rhs[T - 1]);
    for (std::size_t k = T - 1; k >= 1; --k) {
      q = f.add(f.mul_shoup(q, m, m_shoup), master[k]);  // q_{k-1} = P_k + m q_k
      detail::add_product(sum, q, rhs[k - 1]);
      derivative = f.add(f.mul_shoup(derivative, m, m_shoup), q);
    }
    const std::uint64_t denominator = f.mul(m, derivative);  // m_j P'(m_j)
    if (denominator == 0) {
      throw Error(
          "transposed Vandermonde: node " + std::to_string(j) + " (" + std::to_string(m) +
          ") is zero or repeated in its group; the nodes must be distinct and nonzero mod p");
    }
    out[j] = f.mul(sum.reduce(f), f.inv(denominator));
  }
}

}  // namespace hepex::reconstruct::detail
