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
//
// That is O(T^2) per right-hand side. Groups of many unknowns take the
// O(M(T) log T) transposed multipoint evaluation of fast_vandermonde.hpp
// instead (VandermondeMethod::automatic: by the measured crossovers below).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/host_cores.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/field/wide_multiply.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/reconstruct/detail/accumulate.hpp"
#include "hepex/reconstruct/detail/fast_vandermonde.hpp"
#include "hepex/reconstruct/detail/ntt.hpp"

namespace hepex::reconstruct::detail {

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

// One group's transposed Vandermonde system on the calling thread, O(T^2):
// sum_j a_j m_j^k = b_k for k = 1..T (rhs[k-1] = b_k), a into `out`; the
// same arithmetic as TransposedVandermonde's quadratic solve (Zippel 1990:
// Q_j = P / (Z - m_j) by synthetic division, a_j = sum_k q_k b_{k+1} /
// (m_j P'(m_j)), P'(m_j) = Q_j(m_j)). For the engine's many small groups on
// host threads (no Kokkos, no transfers). Throws hepex::Error for a node
// that is zero or repeated.
void solve_vandermonde_group(const field::Zp64& f, const std::uint64_t* nodes,
                             const std::uint64_t* rhs, std::size_t T, std::uint64_t* out);

// Groups below this many unknowns are solved by solve_vandermonde_group on
// host threads by the Zippel engine: on a host build every group the batched
// solve would take quadratically; on a GPU build those too small for a
// kernel launch, its transfers and allocations to pay (an IBP table's
// thousands of functions of tens to hundreds of terms).
inline constexpr std::size_t host_group_below = has_accelerator ? 512 : 2048;

// How TransposedVandermonde solves each group: automatic picks by size.
enum class VandermondeMethod { automatic, quadratic, fast };

// With VandermondeMethod::automatic, groups of at least this many unknowns
// take the fast solve: the crossovers of setup + 17 solves measured with
// `hepex_bench zippel --method quadratic|fast` (perf/results/reconstruct/README.md,
// overall seconds quadratic / fast). One core of the H100's host (Serial):
// T = 1024 0.032 / 0.048, 2048 0.126 / 0.140, 4096 0.563 / 0.412; one core of
// the (shared) build machine: 2048 0.17-0.19 / 0.08-0.15. H100: T = 8192
// 0.010 / 0.014, 16384 0.020 / 0.022, 32768 0.043 / 0.031, 65536 0.138 / 0.051.
inline constexpr std::size_t fast_from_terms_host = 2048;
inline constexpr std::size_t fast_from_terms_device = 16384;

template <class ExecSpace>
bool use_fast(VandermondeMethod method, std::size_t T) {
  if (method != VandermondeMethod::automatic) return method == VandermondeMethod::fast;
  return T >= (runs_on_host_cores<ExecSpace> ? fast_from_terms_host : fast_from_terms_device);
}

// Columns [first, first + size) of every row of a S x n matrix.
struct Columns {
  std::size_t first, size;
};

// The blocks' columns of every row, side by side (gather), and back (scatter).
inline std::vector<std::uint64_t> gather(const std::vector<std::uint64_t>& m, std::size_t S,
                                         const std::vector<Columns>& blocks) {
  const std::size_t n = S == 0 ? 0 : m.size() / S;
  std::vector<std::uint64_t> out;
  for (std::size_t r = 0; r < S; ++r)
    for (const auto& b : blocks)
      out.insert(out.end(), m.begin() + r * n + b.first, m.begin() + r * n + b.first + b.size);
  return out;
}
inline void scatter(const std::vector<std::uint64_t>& part, std::size_t S,
                    const std::vector<Columns>& blocks, std::vector<std::uint64_t>& m) {
  const std::size_t n = S == 0 ? 0 : m.size() / S;
  auto at = part.begin();
  for (std::size_t r = 0; r < S; ++r)
    for (const auto& b : blocks) {
      std::copy(at, at + b.size, m.begin() + r * n + b.first);
      at += b.size;
    }
}

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
    field::TripleWord<std::uint64_t> sum[Rows];
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

// The systems' nodes on the device with, per group, either the master and
// denominators of the O(T^2) solve or the subproduct tree of the fast one,
// for any number of solves. Throws hepex::Error when a group's nodes are not
// distinct, nonzero residues.
template <class ExecSpace>
class TransposedVandermonde {
 public:
  using Memory = typename ExecSpace::memory_space;

  TransposedVandermonde(const field::Zp64& f, const VandermondeSystems& systems,
                        VandermondeMethod method = VandermondeMethod::automatic)
      : f_(f), n_(systems.nodes.size()) {
    for (std::size_t j = 0; j < n_; ++j) {
      if (systems.nodes[j] >= f.modulus())
        throw Error("transposed Vandermonde: node " + std::to_string(j) + " (" +
                    std::to_string(systems.nodes[j]) +
                    ") is not reduced mod p = " + std::to_string(f.modulus()));
    }
    VandermondeSystems quadratic;
    int max_log = 0;
    for (std::size_t g = 0; g < systems.groups(); ++g) {
      const std::size_t first = systems.offsets[g], T = systems.offsets[g + 1] - first;
      if (T == 0) continue;
      const bool fast = detail::use_fast<ExecSpace>(method, T);
      (fast ? fast_columns_ : quadratic_columns_).push_back({first, T});
      (fast ? fast_groups_ : quadratic_groups_).push_back(g);
      if (fast) {
        max_log = std::max(max_log, FastTransposedVandermonde<ExecSpace>::transform_log(T));
      } else {
        quadratic.nodes.insert(quadratic.nodes.end(), systems.nodes.begin() + first,
                               systems.nodes.begin() + first + T);
        quadratic.offsets.push_back(quadratic.nodes.size());
      }
    }
    if (!quadratic.nodes.empty()) set_up_quadratic(quadratic);
    if (!fast_groups_.empty()) {
      const ThreePrimeNtt<ExecSpace> ntt(f, max_log);
      for (const auto& c : fast_columns_) {
        const std::vector<std::uint64_t> nodes(systems.nodes.begin() + c.first,
                                               systems.nodes.begin() + c.first + c.size);
        fast_.emplace_back(f, ntt, to_view<Memory>(nodes, "hepex::vandermonde::nodes"));
      }
    }
    check_denominators(systems);
  }

  // rhs: S rows of nodes.size() words; row r, group g, k = 0..T_g-1 holds
  // b_{k+1} (the value at y^{k+1}) at column offsets[g] + k. Returns the
  // unknowns in the same layout (a_j at column j).
  std::vector<std::uint64_t> solve(std::size_t S, const std::vector<std::uint64_t>& rhs) const {
    if (n_ == 0 || S == 0) return {};
    std::vector<std::uint64_t> out(S * n_, 0);
    if (!quadratic_columns_.empty()) {
      const bool all = quadratic_nodes_ == n_;
      const auto part = solve_quadratic(S, all ? rhs : detail::gather(rhs, S, quadratic_columns_));
      if (all) return part;
      detail::scatter(part, S, quadratic_columns_, out);
    }
    for (std::size_t i = 0; i < fast_.size(); ++i) {
      const std::vector<detail::Columns> block{fast_columns_[i]};
      const auto part = to_vector(fast_[i].solve(
          to_view<Memory>(detail::gather(rhs, S, block), "hepex::vandermonde::rhs")));
      detail::scatter(part, S, block, out);
    }
    return out;
  }

 private:
  void set_up_quadratic(const VandermondeSystems& systems) {
    quadratic_nodes_ = systems.nodes.size();
    std::vector<std::size_t> group(quadratic_nodes_);
    for (std::size_t g = 0; g < systems.groups(); ++g)
      for (std::size_t j = systems.offsets[g]; j < systems.offsets[g + 1]; ++j) group[j] = g;
    const auto master = master_polynomials(f_, systems);
    s_ = {to_view<Memory>(systems.offsets, "hepex::vandermonde::offsets"),
          to_view<Memory>(group, "hepex::vandermonde::group"),
          to_view<Memory>(systems.nodes, "hepex::vandermonde::nodes"),
          to_view<Memory>(master, "hepex::vandermonde::master")};
    auto derivative =
        to_view<Memory>(master_derivatives(f_, systems, master), "hepex::vandermonde::derivative");
    Kokkos::View<std::uint64_t*, Memory> inverse("hepex::vandermonde::inverse", quadratic_nodes_);
    Kokkos::parallel_for("hepex::vandermonde::denominators",
                         Kokkos::RangePolicy<ExecSpace>(0, quadratic_nodes_),
                         detail::InverseDenominators<Memory>{f_, s_, derivative, inverse});
    inverse_ = inverse;
  }

  std::vector<std::uint64_t> solve_quadratic(std::size_t S,
                                             const std::vector<std::uint64_t>& rhs) const {
    const std::size_t n = quadratic_nodes_;
    auto flat = to_view<Memory>(rhs, "hepex::vandermonde::rhs");
    Kokkos::View<const std::uint64_t**, Kokkos::LayoutRight, Memory> d_rhs(flat.data(), S, n);
    Kokkos::View<std::uint64_t*, Memory> out("hepex::vandermonde::solution", S * n);
    Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory> d_out(out.data(), S, n);
    detail::solve_blocks<ExecSpace>(f_, s_, inverse_, d_rhs, d_out, 0);
    return to_vector(out);
  }

  // A zero 1 / (m_j P'(m_j)) means m_j = 0 or m_j = m_l for some l != j.
  void check_denominators(const VandermondeSystems& systems) const {
    std::vector<std::uint64_t> inverse;
    if (!quadratic_columns_.empty()) inverse = to_vector(inverse_);
    for (const auto& fast : fast_) {
      const auto part = to_vector(fast.inverse_denominators());
      inverse.insert(inverse.end(), part.begin(), part.end());
    }
    std::size_t at = 0;
    for (int fast = 0; fast < 2; ++fast) {
      const auto& columns = fast ? fast_columns_ : quadratic_columns_;
      const auto& groups = fast ? fast_groups_ : quadratic_groups_;
      for (std::size_t b = 0; b < columns.size(); ++b) {
        for (std::size_t k = 0; k < columns[b].size; ++k, ++at) {
          if (inverse[at] != 0) continue;
          const std::size_t j = columns[b].first + k;
          throw Error("transposed Vandermonde: group " + std::to_string(groups[b]) + ", node " +
                      std::to_string(j) + " (" + std::to_string(systems.nodes[j]) +
                      ") is zero or repeated in its group; the nodes (skeleton monomials at the "
                      "probe point) must be distinct and nonzero mod p: choose another point");
        }
      }
    }
  }

  field::Zp64 f_;
  std::size_t n_, quadratic_nodes_ = 0;
  std::vector<detail::Columns> quadratic_columns_, fast_columns_;
  std::vector<std::size_t> quadratic_groups_, fast_groups_;
  detail::Systems<Memory> s_;
  Kokkos::View<const std::uint64_t*, Memory> inverse_;
  std::vector<FastTransposedVandermonde<ExecSpace>> fast_;
};

// One batch of solves (see TransposedVandermonde::solve).
template <class ExecSpace>
std::vector<std::uint64_t> solve_transposed_vandermonde(
    const field::Zp64& f, const VandermondeSystems& systems, std::size_t S,
    const std::vector<std::uint64_t>& rhs,
    VandermondeMethod method = VandermondeMethod::automatic) {
  if (systems.nodes.empty() || S == 0) return {};
  return TransposedVandermonde<ExecSpace>(f, systems, method).solve(S, rhs);
}

}  // namespace hepex::reconstruct::detail
