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
// so a_j = (sum_k q_{jk} b_{k+1}) / (m_j P'(m_j)) since P_j(m_j) = P'(m_j):
// O(T) per unknown, all unknowns independent. Each thread owns one unknown
// and a block of right-hand sides: it regenerates q_{jk} by synthetic
// division (one Shoup product by its fixed node per step) and feeds every
// right-hand side of its block, each sum kept exactly in three words (§2.2:
// delayed reduction, one modular reduction per unknown instead of T). With S
// right-hand sides a step costs about S + 1 double-word products, where one
// thread per (right-hand side, unknown) costs 2S plus S reductions.
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
#include "hepex/reconstruct/detail/accumulate.hpp"

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
// Coefficients (lowest first, T words) of the masters' derivatives, group g's
// at offsets[g].
std::vector<std::uint64_t> master_derivatives(const field::Zp64& f, const VandermondeSystems& s,
                                              const std::vector<std::uint64_t>& master);

namespace vandermonde_detail {

template <class Memory>
struct Systems {
  Kokkos::View<const std::size_t*, Memory> offsets;
  Kokkos::View<const std::size_t*, Memory> group;  // group of each node
  Kokkos::View<const std::uint64_t*, Memory> nodes;
  Kokkos::View<const std::uint64_t*, Memory> master;
};

// 1 / (m_j P'(m_j)) for node j (Horner with Shoup products by m_j).
template <class Memory>
struct InverseDenominators {
  field::Zp64 f;
  Systems<Memory> s;
  Kokkos::View<const std::uint64_t*, Memory> derivative;
  Kokkos::View<std::uint64_t*, Memory> out;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t j) const {
    const std::size_t first = s.offsets(s.group(j)), T = s.offsets(s.group(j) + 1) - first;
    const std::uint64_t m = s.nodes(j), m_shoup = f.shoup(m);
    std::uint64_t value = derivative(first + T - 1);
    for (std::size_t k = T - 1; k >= 1; --k)
      value = f.add(f.mul_shoup(value, m, m_shoup), derivative(first + k - 1));
    out(j) = f.inv(f.mul(m, value));
  }
};

// a(row0 + i, j) for i < Rows and node j.
template <class Memory, int Rows>
struct Solve {
  field::Zp64 f;
  Systems<Memory> s;
  Kokkos::View<const std::uint64_t*, Memory> inverse;
  Kokkos::View<const std::uint64_t**, Kokkos::LayoutRight, Memory> rhs;
  Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory> out;
  std::size_t row0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t j) const {
    const std::size_t g = s.group(j), first = s.offsets(g), T = s.offsets(g + 1) - first;
    const std::size_t base = first + g;
    const std::uint64_t m = s.nodes(j), m_shoup = f.shoup(m);
    field::detail::TripleWord<std::uint64_t> sum[Rows];
    std::uint64_t q = 1;  // q_{T-1}
    for (int i = 0; i < Rows; ++i) detail::add_product(sum[i], q, rhs(row0 + i, first + T - 1));
    for (std::size_t k = T - 1; k >= 1; --k) {
      q = f.add(f.mul_shoup(q, m, m_shoup), s.master(base + k));  // q_{k-1} = P_k + m q_k
      for (int i = 0; i < Rows; ++i) detail::add_product(sum[i], q, rhs(row0 + i, first + k - 1));
    }
    for (int i = 0; i < Rows; ++i) out(row0 + i, j) = f.mul(sum[i].reduce(f), inverse(j));
  }
};

// Right-hand sides per thread: the widest block that fits the rows left.
inline constexpr int widest_block = 16;

// Rows row0.. of the solution, Rows right-hand sides per thread while they
// last, then the rest in narrower blocks.
template <class ExecSpace, int Rows = widest_block>
void solve_blocks(
    const field::Zp64& f, const Systems<typename ExecSpace::memory_space>& s,
    const Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>& inverse,
    const Kokkos::View<const std::uint64_t**, Kokkos::LayoutRight,
                       typename ExecSpace::memory_space>& rhs,
    const Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, typename ExecSpace::memory_space>& out,
    std::size_t row0) {
  using Memory = typename ExecSpace::memory_space;
  const std::size_t S = rhs.extent(0), n = rhs.extent(1);
  for (; row0 + Rows <= S; row0 += Rows) {
    Kokkos::parallel_for("hepex::vandermonde::solve", Kokkos::RangePolicy<ExecSpace>(0, n),
                         Solve<Memory, Rows>{f, s, inverse, rhs, out, row0});
  }
  if constexpr (Rows > 1) {
    if (row0 < S) solve_blocks<ExecSpace, Rows / 2>(f, s, inverse, rhs, out, row0);
  }
}

}  // namespace vandermonde_detail

// The systems' nodes on the device with their masters and denominators, for
// any number of solves.
template <class ExecSpace>
class TransposedVandermonde {
 public:
  using Memory = typename ExecSpace::memory_space;

  TransposedVandermonde(const field::Zp64& f, const VandermondeSystems& systems)
      : f_(f), n_(systems.nodes.size()) {
    std::vector<std::size_t> group(n_);
    for (std::size_t g = 0; g < systems.groups(); ++g)
      for (std::size_t j = systems.offsets[g]; j < systems.offsets[g + 1]; ++j) group[j] = g;
    const auto master = master_polynomials(f, systems);
    s_ = {to_view<Memory>(systems.offsets, "hepex::vandermonde::offsets"),
          to_view<Memory>(group, "hepex::vandermonde::group"),
          to_view<Memory>(systems.nodes, "hepex::vandermonde::nodes"),
          to_view<Memory>(master, "hepex::vandermonde::master")};
    auto derivative =
        to_view<Memory>(master_derivatives(f, systems, master), "hepex::vandermonde::derivative");
    Kokkos::View<std::uint64_t*, Memory> inverse("hepex::vandermonde::inverse", n_);
    Kokkos::parallel_for(
        "hepex::vandermonde::denominators", Kokkos::RangePolicy<ExecSpace>(0, n_),
        vandermonde_detail::InverseDenominators<Memory>{f, s_, derivative, inverse});
    inverse_ = inverse;
  }

  // rhs: S rows of nodes.size() words; row r, group g, k = 0..T_g-1 holds
  // b_{k+1} (the value at y^{k+1}) at column offsets[g] + k. Returns the
  // unknowns in the same layout (a_j at column j).
  std::vector<std::uint64_t> solve(std::size_t S, const std::vector<std::uint64_t>& rhs) const {
    if (n_ == 0 || S == 0) return {};
    auto flat = to_view<Memory>(rhs, "hepex::vandermonde::rhs");
    Kokkos::View<const std::uint64_t**, Kokkos::LayoutRight, Memory> d_rhs(flat.data(), S, n_);
    Kokkos::View<std::uint64_t*, Memory> out("hepex::vandermonde::solution", S * n_);
    Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory> d_out(out.data(), S, n_);
    vandermonde_detail::solve_blocks<ExecSpace>(f_, s_, inverse_, d_rhs, d_out, 0);
    return to_vector(out);
  }

 private:
  field::Zp64 f_;
  std::size_t n_;
  vandermonde_detail::Systems<Memory> s_;
  Kokkos::View<const std::uint64_t*, Memory> inverse_;
};

// One batch of solves (see TransposedVandermonde::solve).
template <class ExecSpace>
std::vector<std::uint64_t> solve_transposed_vandermonde(const field::Zp64& f,
                                                        const VandermondeSystems& systems,
                                                        std::size_t S,
                                                        const std::vector<std::uint64_t>& rhs) {
  if (systems.nodes.empty() || S == 0) return {};
  return TransposedVandermonde<ExecSpace>(f, systems).solve(S, rhs);
}

}  // namespace hepex::reconstruct
