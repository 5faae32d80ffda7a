#pragma once
// Transposed Vandermonde solves in O(M(T) log T) per right-hand side by
// transposed multipoint evaluation: a descent of the subproduct tree with
// middle products (Bostan, Lecerf & Schost, "Tellegen's principle into
// practice", ISSAC 2003, §4-5; Kaltofen & Lakshman, "Improved sparse
// multivariate polynomial interpolation algorithms", ISSAC 1988, for the
// transposed Vandermonde system itself).
//
// With b_k = sum_j a_j m_j^k (k = 1..T), the series
//   U(Z) = sum_{k>=0} b_{k+1} Z^(-k-1) = sum_j w_j / (Z - m_j),  w_j = a_j m_j,
// is known to its first T coefficients, which determine it. For a node of the
// tree with polynomial M = M_L M_R and U_node = sum_{j in node} w_j/(Z - m_j),
// the negative-power part of M_R U_node is sum_{j in L} w_j M_R(m_j)/(Z - m_j):
// the first |L| coefficients of the left child's series are the middle
// product c_k = sum_{i=0}^{|R|} (M_R)_i u_{k+i}, k < |L|, which reads only the
// first |node| coefficients of U_node (and symmetrically for the right
// child). At a leaf the weight has become w_j prod_{l != j} (m_j - m_l) =
// a_j m_j P'(m_j), P = prod_j (Z - m_j). The denominators P'(m_j) come from
// the same descent of the series P'/P = sum_j 1/(Z - m_j), whose coefficients
// are the power sums sum_j m_j^k: the first T of rev(P') / rev(P), one Newton
// inversion and one product.
//
// Padding leaves (the constant 1) have degree 0: a node's slot holds 2^l
// coefficients of which the first (number of roots below it) are valid, and
// a valid output never reads an invalid input (k + i <= |L| - 1 + |R|).
// A middle product of M_R (2^l + 1 coefficients) with a slot of 2^(l+1) is
// the part [2^l, 2^(l+1)) of rev(M_R) * U, and a cyclic product of length
// 2^(l+1) leaves that part unwrapped (the full product has 3 2^l terms), so
// each level costs per right-hand side one forward transform of the parents'
// series and two inverse ones, all of the same length; the children's
// transforms are shared by every right-hand side of the batch.

#include <cstddef>
#include <cstdint>
#include <utility>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/field/wide_multiply.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/reconstruct/detail/accumulate.hpp"
#include "hepex/reconstruct/detail/ntt.hpp"
#include "hepex/reconstruct/detail/polynomial_product.hpp"
#include "hepex/reconstruct/detail/power_series.hpp"
#include "hepex/reconstruct/detail/subproduct_tree.hpp"

namespace hepex::reconstruct::detail {

// Levels whose parents hold fewer coefficients than this take schoolbook
// middle products (2^l + 1 products per coefficient, summed exactly in three
// words); measured per level with 17 right-hand sides (perf/results/reconstruct/README.md).
// One host core (Serial, Release, 2^15 leaves): parents of 1024 coefficients
// took 0.21 s schoolbook and 0.27 s by NTT, 2048 took 0.42 s and 0.27 s.
// H100 (2^22 leaves): 1024 took 38 ms and 49 ms, 2048 76 ms and 51 ms.
inline constexpr std::size_t descent_schoolbook_below = 2048;

template <class Memory>
using Words = Kokkos::View<std::uint64_t*, Memory>;
template <class Memory>
using ConstWords = Kokkos::View<const std::uint64_t*, Memory>;

// Children's series (level l, h = 2^l) from their parents' (rows of n words,
// as many rows as `in` holds), by schoolbook middle products.
template <class ExecSpace>
void middle_products_schoolbook(const field::Zp64& f,
                                const ConstWords<typename ExecSpace::memory_space>& tree,
                                const ConstWords<typename ExecSpace::memory_space>& in,
                                const Words<typename ExecSpace::memory_space>& out, int l,
                                std::size_t n) {
  const std::size_t h = std::size_t{1} << l;
  Kokkos::parallel_for(
      "hepex::fast_vandermonde::middle_schoolbook", Kokkos::RangePolicy<ExecSpace>(0, in.extent(0)),
      KOKKOS_LAMBDA(const std::size_t t) {
        const std::size_t k = t & (h - 1), child = (t & (n - 1)) >> l;
        const std::size_t parent = t - k - (child & 1) * h, sibling = (child ^ 1) * (h + 1);
        field::TripleWord<std::uint64_t> sum;
        for (std::size_t i = 0; i <= h; ++i)
          detail::add_product(sum, tree(sibling + i), in(parent + k + i));
        out(t) = sum.reduce(f);
      });
}

// The same through cyclic products of length 2h (see the header comment).
template <class ExecSpace>
void middle_products_ntt(const ThreePrimeNtt<ExecSpace>& ntt,
                         const ConstWords<typename ExecSpace::memory_space>& tree,
                         const ConstWords<typename ExecSpace::memory_space>& in,
                         const Words<typename ExecSpace::memory_space>& out, int l, std::size_t n) {
  const std::size_t h = std::size_t{1} << l, parents_mask = n / (2 * h) - 1;
  const int log_n = l + 1;
  // rev(M_c) = Z^h M_c(1/Z) for every child c.
  const auto children = ntt.spectra(n / h, log_n, "hepex::fast_vandermonde::children");
  ntt.load(
      children, log_n, KOKKOS_LAMBDA(const std::size_t c, const std::size_t k) {
        return k <= h ? tree(c * (h + 1) + h - k) : std::uint64_t{0};
      });
  ntt.forward(children, log_n);
  const std::size_t parents = in.extent(0) / (2 * h);
  const auto series = ntt.spectra(parents, log_n, "hepex::fast_vandermonde::series");
  ntt.load(
      series, log_n,
      KOKKOS_LAMBDA(const std::size_t s, const std::size_t k) { return in(s * 2 * h + k); });
  ntt.forward(series, log_n);
  const auto product = ntt.spectra(parents, log_n, "hepex::fast_vandermonde::product");
  for (std::size_t side = 0; side < 2; ++side) {  // the left child takes M_R, the right M_L
    ntt.multiply(
        product, series, KOKKOS_LAMBDA(const std::size_t s) { return s; }, children,
        KOKKOS_LAMBDA(const std::size_t s) { return 2 * (s & parents_mask) + 1 - side; }, log_n);
    ntt.inverse(product, log_n);
    ntt.store(
        product, log_n,
        KOKKOS_LAMBDA(const std::size_t s, const std::size_t k, const std::uint64_t x) {
          if (k >= h) out(s * 2 * h + side * h + k - h) = x;
        });
  }
}

// Rows of n = tree.leaves() words, each the first coefficients of a root
// series (zeros past tree.roots()), to the leaves' weights.
template <class ExecSpace>
Words<typename ExecSpace::memory_space> descend(const field::Zp64& f,
                                                const ThreePrimeNtt<ExecSpace>& ntt,
                                                const SubproductTree<ExecSpace>& tree,
                                                Words<typename ExecSpace::memory_space> series) {
  const std::size_t n = tree.leaves();
  Words<typename ExecSpace::memory_space> next("hepex::fast_vandermonde::next", series.extent(0));
  for (int l = tree.height() - 1; l >= 0; --l) {
    if ((std::size_t{2} << l) < descent_schoolbook_below) {
      middle_products_schoolbook<ExecSpace>(f, tree.level(l), series, next, l, n);
    } else {
      middle_products_ntt<ExecSpace>(ntt, tree.level(l), series, next, l, n);
    }
    std::swap(series, next);
  }
  return series;
}

// The power sums sum_j m_j^k, k < T, as the first T coefficients of a row of
// tree.leaves() words: rev(P') / rev(P) mod x^T.
template <class ExecSpace>
Words<typename ExecSpace::memory_space> power_sums(const field::Zp64& f,
                                                   const ThreePrimeNtt<ExecSpace>& ntt,
                                                   const SubproductTree<ExecSpace>& tree) {
  using Memory = typename ExecSpace::memory_space;
  const std::size_t T = tree.roots();
  const auto P = tree.root();
  Words<Memory> reversed("hepex::fast_vandermonde::reversed", T + 1),
      derivative("hepex::fast_vandermonde::derivative", T);
  Kokkos::parallel_for(
      "hepex::fast_vandermonde::reverse", Kokkos::RangePolicy<ExecSpace>(0, T + 1),
      KOKKOS_LAMBDA(const std::size_t i) {
        reversed(i) = P(T - i);
        if (i < T) derivative(i) = f.mul(f.from_uint(T - i), P(T - i));
      });
  const auto sums = multiply_truncated<ExecSpace>(
      ntt, derivative, inverse_series<ExecSpace>(f, ntt, reversed, T), T);
  Words<Memory> row("hepex::fast_vandermonde::power_sums", tree.leaves());
  Kokkos::deep_copy(Kokkos::subview(row, Kokkos::make_pair(std::size_t{0}, T)), sums);
  return row;
}

// One system's nodes (distinct, nonzero, below p) with their subproduct tree
// and denominators 1 / (m_j P'(m_j)) (0 where a node is zero or repeated), for
// any number of solves.
template <class ExecSpace>
class FastTransposedVandermonde {
 public:
  using Memory = typename ExecSpace::memory_space;

  // ntt must allow 2^transform_log(T) points: the tree's top products and
  // the power sums' truncated products of length T + T - 1.
  FastTransposedVandermonde(const field::Zp64& f, const ThreePrimeNtt<ExecSpace>& ntt,
                            const Kokkos::View<const std::uint64_t*, Memory>& nodes)
      : f_(f), ntt_(ntt), tree_(f, ntt, nodes) {
    inverse_ = invert_denominators(
        f, nodes, detail::descend(f, ntt, tree_, detail::power_sums(f, ntt, tree_)));
  }

  static int transform_log(std::size_t T) { return ceil_log2(2 * T); }

  std::size_t size() const { return tree_.roots(); }
  Kokkos::View<const std::uint64_t*, Memory> inverse_denominators() const { return inverse_; }

  // rhs: S rows of T words, row r holding b_1..b_T; the unknowns a_j in the
  // same layout.
  Kokkos::View<std::uint64_t*, Memory> solve(
      const Kokkos::View<const std::uint64_t*, Memory>& rhs) const {
    return solve_rows(f_, ntt_, tree_, inverse_, rhs);
  }

  // (Static so that its kernels may be CUDA extended lambdas.)
  static Kokkos::View<std::uint64_t*, Memory> solve_rows(
      const field::Zp64& f, const ThreePrimeNtt<ExecSpace>& ntt,
      const SubproductTree<ExecSpace>& tree,
      const Kokkos::View<const std::uint64_t*, Memory>& inverse,
      const Kokkos::View<const std::uint64_t*, Memory>& rhs) {
    const std::size_t T = tree.roots(), n = tree.leaves(), S = T == 0 ? 0 : rhs.extent(0) / T;
    Kokkos::View<std::uint64_t*, Memory> series("hepex::fast_vandermonde::rhs", S * n);
    Kokkos::parallel_for(
        "hepex::fast_vandermonde::spread", Kokkos::RangePolicy<ExecSpace>(0, S * T),
        KOKKOS_LAMBDA(const std::size_t t) { series(t / T * n + t % T) = rhs(t); });
    const auto leaves = detail::descend(f, ntt, tree, series);
    Kokkos::View<std::uint64_t*, Memory> a("hepex::fast_vandermonde::solution", S * T);
    Kokkos::parallel_for(
        "hepex::fast_vandermonde::divide", Kokkos::RangePolicy<ExecSpace>(0, S * T),
        KOKKOS_LAMBDA(const std::size_t t) {
          const std::size_t j = t % T;
          a(t) = f.mul(leaves(t / T * n + j), inverse(j));
        });
    return a;
  }

  // 1 / (m_j P'(m_j)) from the leaves P'(m_j) of the power sums' descent, by
  // Fermat (x^(p-2)): no division in the kernel.
  static Kokkos::View<const std::uint64_t*, Memory> invert_denominators(
      const field::Zp64& f, const Kokkos::View<const std::uint64_t*, Memory>& nodes,
      const Kokkos::View<const std::uint64_t*, Memory>& derivative) {
    Kokkos::View<std::uint64_t*, Memory> out("hepex::fast_vandermonde::inverse", nodes.extent(0));
    Kokkos::parallel_for(
        "hepex::fast_vandermonde::denominators", Kokkos::RangePolicy<ExecSpace>(0, out.extent(0)),
        KOKKOS_LAMBDA(const std::size_t j) {
          const std::uint64_t x = f.mul(nodes(j), derivative(j));
          out(j) = x == 0 ? 0 : f.pow(x, f.modulus() - 2);
        });
    return out;
  }

 private:
  field::Zp64 f_;
  ThreePrimeNtt<ExecSpace> ntt_;
  SubproductTree<ExecSpace> tree_;
  Kokkos::View<const std::uint64_t*, Memory> inverse_;
};

}  // namespace hepex::reconstruct::detail
