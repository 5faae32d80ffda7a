#pragma once
// The fp64 and multiword methods of modgemm: exact integer products of
// doubles by the vendor DGEMM (seed modular-matrix-multiplication-gpu, §4),
// over k-blocks short enough that every partial sum is an integer below 2^53,
// each block reduced mod p and accumulated into C by one kernel.

#include <Kokkos_Core.hpp>

#include "hepex/core/matrix.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"
#include "hepex/linalg/gemm_workspace.hpp"
#include "hepex/linalg/modgemm_methods.hpp"
#include "hepex/linalg/vendor_gemm.hpp"

namespace hepex::linalg::detail {

// Residues to centred doubles.
template <class Word, class ExecSpace>
struct ToCentredDouble {
  field::Zp<Word> f;
  ConstDeviceMatrix<Word, typename ExecSpace::memory_space> in;
  DeviceMatrix<double, typename ExecSpace::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, const std::int64_t j) const {
    out(i, j) = static_cast<double>(f.centred(in(i, j)));
  }
};

// Centred residues split in two words, x = hi * 2^bits + lo with lo in
// [-2^(bits-1), 2^(bits-1)) (the multiword method), as doubles; with `sum`
// allocated, also hi + lo (the Karatsuba operand).
template <class Word, class ExecSpace>
struct SplitCentred {
  field::Zp<Word> f;
  ConstDeviceMatrix<Word, typename ExecSpace::memory_space> in;
  DeviceMatrix<double, typename ExecSpace::memory_space> hi, lo, sum;
  int bits;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, const std::int64_t j) const {
    const std::int64_t x = f.centred(in(i, j));
    const std::int64_t half = std::int64_t{1} << (bits - 1);
    const std::int64_t low = ((x + half) & ((std::int64_t{1} << bits) - 1)) - half;
    const std::int64_t high = (x - low) >> bits;
    hi(i, j) = static_cast<double>(high);
    lo(i, j) = static_cast<double>(low);
    if (sum.extent(0) != 0) sum(i, j) = static_cast<double>(high + low);
  }
};

// C <- C + weight * (block mod p), or C <- weight * (block mod p) when
// `overwrite`: block holds exact integers, |x| <= 2^53.
// For p < 2^52 (p exact in a double): q = trunc(x / p) is off by at most one,
// p q < 2^53 is exact, so r = x - p q lies in (-2p, 2p) and two corrections
// each way bring it to [0, p). Larger p (multiword): x as an integer, reduced
// by the field.
template <class Word, class ExecSpace>
struct ReduceAccumulate {
  field::Zp<Word> f;
  DeviceMatrix<double, typename ExecSpace::memory_space> block;
  DeviceMatrix<Word, typename ExecSpace::memory_space> c;
  double p, inverse_p;
  Word weight;
  bool overwrite;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, const std::int64_t j) const {
    const double x = block(i, j);
    Word residue;
    if (p < 4503599627370496.0) {  // 2^52
      double r = x - p * static_cast<double>(static_cast<std::int64_t>(x * inverse_p));
      if (r < 0) r += p;
      if (r < 0) r += p;
      if (r >= p) r -= p;
      if (r >= p) r -= p;
      residue = static_cast<Word>(r);
    } else {
      residue = f.from_int(static_cast<std::int64_t>(x));
    }
    c(i, j) = overwrite ? f.mul(weight, residue) : f.fma(weight, residue, c(i, j));
  }
};

// C = A B or C += A B (mod p) by the fp64 or the multiword method (k >= 1).
template <class ExecSpace, class Word>
void modgemm_doubles(const ExecSpace& space, const field::Zp<Word>& f,
                     const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                     const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                     const DeviceMatrix<Word, typename ExecSpace::memory_space>& c, bool accumulate,
                     Backend where, bool multiword,
                     GemmWorkspace<typename ExecSpace::memory_space>& workspace) {
  using Memory = typename ExecSpace::memory_space;
  using Doubles = DeviceMatrix<double, Memory>;
  const std::size_t m = a.extent(0), k = a.extent(1), n = b.extent(1);
  const std::uint64_t p = f.modulus();
  // Workspace slots: 0 the DGEMM output, 1-2 A and B (or their high
  // halves), 3-4 the low halves, 5-6 the Karatsuba sums.
  auto partial = workspace.template matrix<double>(0, m, n);
  bool overwrite = !accumulate;  // the first block writes C
  // C += weight * (X Y mod p) for exact-integer doubles X (m x k), Y (k x n),
  // in DGEMM blocks of `block` columns whose sums stay below 2^53.
  auto add_exact_product = [&](const Doubles& x, const Doubles& y, std::uint64_t block,
                               Word weight) {
    block = std::min<std::uint64_t>(block, k);
    for (std::size_t l = 0; l < k; l += block) {
      const std::size_t width = std::min<std::size_t>(block, k - l);
      space.fence();  // the vendor call runs on its own stream
      Kokkos::Profiling::pushRegion("hepex::modgemm::vendor_dgemm");
      backend::dgemm(where, static_cast<int>(m), static_cast<int>(n), static_cast<int>(width),
                     x.data() + l, static_cast<int>(k), y.data() + l * n, static_cast<int>(n),
                     partial.data(), static_cast<int>(n));
      Kokkos::Profiling::popRegion();
      for_each_entry(
          "hepex::modgemm::reduce", space, m, n,
          ReduceAccumulate<Word, ExecSpace>{f, partial, c, static_cast<double>(p),
                                            1.0 / static_cast<double>(p), weight, overwrite});
      overwrite = false;
    }
  };
  if (!multiword) {
    auto ad = workspace.template matrix<double>(1, m, k);
    auto bd = workspace.template matrix<double>(2, k, n);
    for_each_entry("hepex::modgemm::centre_a", space, m, k,
                   ToCentredDouble<Word, ExecSpace>{f, a, ad});
    for_each_entry("hepex::modgemm::centre_b", space, k, n,
                   ToCentredDouble<Word, ExecSpace>{f, b, bd});
    add_exact_product(ad, bd, fp64_block(p), Word(1));
    return;
  }
  // A B = s^2 Ah Bh + s (Ah Bl + Al Bh) + Al Bl with s = 2^bits. Karatsuba:
  // Ah Bl + Al Bh = (Ah + Al)(Bh + Bl) - Ah Bh - Al Bl, so
  // A B = (s^2 - s) Ah Bh + s (Ah + Al)(Bh + Bl) + (1 - s) Al Bl.
  const MultiwordSplit split = multiword_split(p);
  const bool karatsuba = split.karatsuba(k);
  auto ah = workspace.template matrix<double>(1, m, k),
       bh = workspace.template matrix<double>(2, k, n);
  auto al = workspace.template matrix<double>(3, m, k),
       bl = workspace.template matrix<double>(4, k, n);
  Doubles as, bs;
  if (karatsuba) {
    as = workspace.template matrix<double>(5, m, k);
    bs = workspace.template matrix<double>(6, k, n);
  }
  for_each_entry("hepex::modgemm::split_a", space, m, k,
                 SplitCentred<Word, ExecSpace>{f, a, ah, al, as, split.bits});
  for_each_entry("hepex::modgemm::split_b", space, k, n,
                 SplitCentred<Word, ExecSpace>{f, b, bh, bl, bs, split.bits});
  const Word s = f.pow(f.from_uint(2), static_cast<std::uint64_t>(split.bits)), s2 = f.mul(s, s);
  if (karatsuba) {
    add_exact_product(ah, bh, split.block3, f.sub(s2, s));
    add_exact_product(as, bs, split.block3, s);
    add_exact_product(al, bl, split.block3, f.sub(Word(1), s));
  } else {
    add_exact_product(ah, bh, split.block4, s2);
    add_exact_product(ah, bl, split.block4, s);
    add_exact_product(al, bh, split.block4, s);
    add_exact_product(al, bl, split.block4, Word(1));
  }
}

}  // namespace hepex::linalg::detail
