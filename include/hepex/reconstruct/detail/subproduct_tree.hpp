#pragma once
// The subproduct tree of the nodes m_0..m_{T-1} (von zur Gathen & Gerhard,
// Modern Computer Algebra, §10.1; Bostan, Lecerf & Schost, "Tellegen's
// principle into practice", ISSAC 2003, §3): the leaves Z - m_j, padded to
// n = 2^L leaves with the constant 1, and every level of pairwise products up
// to the root prod_j (Z - m_j). All levels are kept (the transposed
// multipoint evaluation of fast_vandermonde.hpp descends them). One launch
// per level and stage: the low levels by schoolbook products summed exactly
// in three words, the others through the three-prime NTT, so the tree costs
// O(M(T) log T) instead of the O(T^2) schoolbook top.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hepex/core/host_cores.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/field/wide_multiply.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/reconstruct/detail/accumulate.hpp"
#include "hepex/reconstruct/detail/ntt.hpp"
#include "hepex/reconstruct/detail/polynomial_product.hpp"

namespace hepex::reconstruct::detail {

// Levels whose factors have fewer coefficients than this multiply by
// schoolbook; measured per level (perf/results/reconstruct/README.md). One host core
// (Serial, Release, 2^15 leaves): factors of 513 coefficients took 7.4 ms
// schoolbook and 9.6 ms by NTT, 1025 took 12.8 ms and 7.4 ms. H100 (2^22
// leaves): 1025 coefficients 2.6 ms and 3.0 ms, 2049 5.1 ms and 3.5 ms.
template <class ExecSpace>
inline constexpr std::size_t tree_schoolbook_below = runs_on_host_cores<ExecSpace> ? 1024 : 2048;

// Level l -> l + 1: input polynomial i (h + 1 words, h = 2^l) covers leaves
// [i h, (i + 1) h) and has degree = how many of them are roots; output i =
// input 2i times input 2i + 1 (2h + 1 words), a thread per coefficient.
template <class Memory>
struct SchoolbookPairs {
  field::Zp64 f;
  Kokkos::View<const std::uint64_t*, Memory> in;
  Kokkos::View<std::uint64_t*, Memory> out;
  std::size_t h, count;
  KOKKOS_INLINE_FUNCTION std::size_t degree(const std::size_t i) const {
    return count > i * h ? (count - i * h < h ? count - i * h : h) : 0;
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t width = 2 * h + 1, pair = flat / width, k = flat % width;
    const std::size_t da = degree(2 * pair), db = degree(2 * pair + 1);
    const std::size_t a = 2 * pair * (h + 1), b = a + h + 1;
    field::TripleWord<std::uint64_t> sum;
    if (k <= da + db) {
      const std::size_t last = k < da ? k : da;
      for (std::size_t i = k > db ? k - db : 0; i <= last; ++i)
        detail::add_product(sum, in(a + i), in(b + k - i));
    }
    out(flat) = sum.reduce(f);
  }
};

// Level 0: factor i is Z - roots[i], or the constant 1 beyond the roots.
template <class ExecSpace>
Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> leaves(
    const field::Zp64& f,
    const Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>& roots,
    std::size_t n) {
  Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> level(
      "hepex::subproduct_tree::level", 2 * n);
  const std::size_t count = roots.extent(0);
  Kokkos::parallel_for(
      "hepex::subproduct_tree::leaves", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const std::size_t i) {
        level(2 * i) = i < count ? f.neg(roots(i)) : 1;
        level(2 * i + 1) = i < count ? 1 : 0;
      });
  return level;
}

// Level l -> l + 1 by cyclic products of length 2h = 2^(l+1): the product
// of two polynomials of h + 1 coefficients has 2h + 1, and the last one,
// the product c of the two leading coefficients, wraps onto the constant
// term (two products there: within the CRT bound), so it is
// subtracted there and stored at the top.
template <class ExecSpace>
void multiply_pairs(const field::Zp64& f, const ThreePrimeNtt<ExecSpace>& ntt,
                    const Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>& in,
                    const Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space>& out,
                    int l) {
  const std::size_t h = std::size_t{1} << l, n = in.extent(0) / (h + 1);
  const int log_n = l + 1;
  const auto factors = ntt.spectra(n, log_n, "hepex::subproduct_tree::factors");
  ntt.load(
      factors, log_n, KOKKOS_LAMBDA(const std::size_t s, const std::size_t k) {
        return k <= h ? in(s * (h + 1) + k) : std::uint64_t{0};
      });
  ntt.forward(factors, log_n);
  const auto products = ntt.spectra(n / 2, log_n, "hepex::subproduct_tree::products");
  ntt.multiply(
      products, factors, KOKKOS_LAMBDA(const std::size_t s) { return 2 * s; }, factors,
      KOKKOS_LAMBDA(const std::size_t s) { return 2 * s + 1; }, log_n);
  ntt.inverse(products, log_n);
  ntt.store(
      products, log_n,
      KOKKOS_LAMBDA(const std::size_t s, const std::size_t k, const std::uint64_t x) {
        const std::size_t a = 2 * s * (h + 1), o = s * (2 * h + 1);
        if (k != 0) {
          out(o + k) = x;
          return;
        }
        const std::uint64_t top = f.mul(in(a + h), in(a + 2 * h + 1));
        out(o) = f.sub(x, top);
        out(o + 2 * h) = top;
      });
}

template <class ExecSpace>
class SubproductTree {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Words = Kokkos::View<std::uint64_t*, Memory>;

  // ntt must allow transforms of 2^height() points (height_for(count)).
  SubproductTree(const field::Zp64& f, const ThreePrimeNtt<ExecSpace>& ntt,
                 const Kokkos::View<const std::uint64_t*, Memory>& roots)
      : count_(roots.extent(0)), height_(height_for(count_)) {
    const std::size_t n = leaves(), count = count_;
    Words level = detail::leaves<ExecSpace>(f, roots, n);
    levels_.push_back(level);
    for (int l = 0; l < height_; ++l) {
      const std::size_t h = std::size_t{1} << l;
      Words next("hepex::subproduct_tree::level", n / (2 * h) * (2 * h + 1));
      if (h + 1 < detail::tree_schoolbook_below<ExecSpace>) {
        Kokkos::parallel_for("hepex::subproduct_tree::schoolbook",
                             Kokkos::RangePolicy<ExecSpace>(0, next.extent(0)),
                             detail::SchoolbookPairs<Memory>{f, level, next, h, count});
      } else {
        detail::multiply_pairs(f, ntt, level, next, l);
      }
      levels_.push_back(next);
      level = next;
    }
  }

  // L with 2^L >= count leaves (0 for at most one).
  static int height_for(std::size_t count) { return ceil_log2(count); }

  std::size_t roots() const { return count_; }
  int height() const { return height_; }
  std::size_t leaves() const { return std::size_t{1} << height_; }
  // Level l: leaves() >> l polynomials of 2^l + 1 coefficients, lowest first.
  Kokkos::View<const std::uint64_t*, Memory> level(int l) const { return levels_[l]; }
  // prod_j (Z - m_j): roots() + 1 coefficients (and zeros beyond).
  Kokkos::View<const std::uint64_t*, Memory> root() const { return levels_.back(); }

 private:
  std::size_t count_;
  int height_;
  std::vector<Words> levels_;
};

}  // namespace hepex::reconstruct::detail
