#pragma once
// Batched transposed Vandermonde solves: the linear algebra of Zippel's
// method (seed paper §1, eq. (3); Zippel, "Interpolating polynomials from
// their values", J. Symb. Comput. 9, 1990).
//
// Probing sum_j a_j X^{e_j} at the geometric points y^1, y^2, ..., y^T gives
// b_k = sum_j a_j m_j^k with nodes m_j = y^{e_j}: V^T a = b for the
// Vandermonde matrix of the nodes. With the master polynomial
// P(Z) = prod_j (Z - m_j) and P_j(Z) = P(Z)/(Z - m_j) = sum_k q_{jk} Z^k,
//   sum_k q_{jk} b_{k+1} = sum_l a_l m_l P_j(m_l) = a_j m_j P_j(m_j),
// so a_j = (sum_k q_{jk} b_{k+1}) / (m_j P_j(m_j)): O(T) per unknown, all
// unknowns independent. Each thread regenerates q_{jk} by synthetic division
// while it accumulates the dot product exactly in three words (§2.2: delayed
// reduction, one modular reduction per unknown instead of T).
//
// A batch holds many systems ("groups": one per function, each with its own
// nodes) and, for each, S right-hand sides (values of the next variable).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/field/wide_multiply.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"

namespace hepex::reconstruct {

struct VandermondeSystems {
  // Group g owns nodes[offsets[g] .. offsets[g+1]); nodes distinct, nonzero.
  std::vector<std::size_t> offsets{0};
  std::vector<std::uint64_t> nodes;
  std::size_t groups() const { return offsets.size() - 1; }
};

// Coefficients (lowest first, monic, T+1 words) of prod_j (Z - m_j) per group,
// back to back: group g's start at offsets[g] + g.
std::vector<std::uint64_t> master_polynomials(const field::Zp64& f, const VandermondeSystems& s);

namespace vandermonde_detail {

template <class Memory>
struct Systems {
  Kokkos::View<const std::size_t*, Memory> offsets;
  Kokkos::View<const std::size_t*, Memory> group;  // group of each node
  Kokkos::View<const std::uint64_t*, Memory> nodes;
  Kokkos::View<const std::uint64_t*, Memory> master;
};

// 1 / (m_j P_j(m_j)) for node j (Horner on q_{jk} as they are generated).
template <class Memory>
struct InverseDenominators {
  field::Zp64 f;
  Systems<Memory> s;
  Kokkos::View<std::uint64_t*, Memory> out;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t j) const {
    const std::size_t g = s.group(j), first = s.offsets(g), T = s.offsets(g + 1) - first;
    const std::size_t base = first + g;
    const std::uint64_t m = s.nodes(j);
    std::uint64_t q = 1, value = 1;  // q_{T-1} = 1
    for (std::size_t k = T - 1; k >= 1; --k) {
      q = f.fma(m, q, s.master(base + k));  // q_{k-1} = P_k + m q_k
      value = f.fma(value, m, q);
    }
    out(j) = f.inv(f.mul(m, value));
  }
};

// a(r, j) for right-hand side r and node j.
template <class Memory>
struct Solve {
  field::Zp64 f;
  Systems<Memory> s;
  Kokkos::View<const std::uint64_t*, Memory> inverse;
  Kokkos::View<const std::uint64_t**, Kokkos::LayoutRight, Memory> rhs;
  Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory> out;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t r, const std::int64_t j) const {
    const std::size_t g = s.group(j), first = s.offsets(g), T = s.offsets(g + 1) - first;
    const std::size_t base = first + g;
    const std::uint64_t m = s.nodes(j);
    std::uint64_t q = 1;
    field::detail::TripleWord<std::uint64_t> sum;
    sum.add_product(q, rhs(r, first + T - 1));
    for (std::size_t k = T - 1; k >= 1; --k) {
      q = f.fma(m, q, s.master(base + k));
      sum.add_product(q, rhs(r, first + k - 1));
    }
    out(r, j) = f.mul(sum.reduce(f), inverse(j));
  }
};

}  // namespace vandermonde_detail

// rhs: S rows of nodes.size() words; row r, group g, k = 0..T_g-1 holds
// b_{k+1} (the value at y^{k+1}) at column offsets[g] + k. Returns the
// unknowns in the same layout (a_j at column j). One launch for everything.
template <class ExecSpace>
std::vector<std::uint64_t> solve_transposed_vandermonde(const field::Zp64& f,
                                                        const VandermondeSystems& systems,
                                                        std::size_t S,
                                                        const std::vector<std::uint64_t>& rhs) {
  using Memory = typename ExecSpace::memory_space;
  const std::size_t n = systems.nodes.size();
  if (n == 0 || S == 0) return {};
  std::vector<std::size_t> group(n);
  for (std::size_t g = 0; g < systems.groups(); ++g)
    for (std::size_t j = systems.offsets[g]; j < systems.offsets[g + 1]; ++j) group[j] = g;
  const vandermonde_detail::Systems<Memory> s{
      to_view<Memory>(systems.offsets, "hepex::vandermonde::offsets"),
      to_view<Memory>(group, "hepex::vandermonde::group"),
      to_view<Memory>(systems.nodes, "hepex::vandermonde::nodes"),
      to_view<Memory>(master_polynomials(f, systems), "hepex::vandermonde::master")};
  Kokkos::View<std::uint64_t*, Memory> inverse("hepex::vandermonde::inverse", n);
  Kokkos::parallel_for("hepex::vandermonde::denominators", Kokkos::RangePolicy<ExecSpace>(0, n),
                       vandermonde_detail::InverseDenominators<Memory>{f, s, inverse});
  auto flat = to_view<Memory>(rhs, "hepex::vandermonde::rhs");
  Kokkos::View<const std::uint64_t**, Kokkos::LayoutRight, Memory> d_rhs(flat.data(), S, n);
  Kokkos::View<std::uint64_t*, Memory> out("hepex::vandermonde::solution", S * n);
  Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory> d_out(out.data(), S, n);
  linalg::detail::for_each_entry("hepex::vandermonde::solve", ExecSpace(), S, n,
                                 vandermonde_detail::Solve<Memory>{f, s, inverse, d_rhs, d_out});
  return to_vector(out);
}

}  // namespace hepex::reconstruct
