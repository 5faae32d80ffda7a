#pragma once
// The fp64 and multiword methods of modgemm: exact integer products of
// doubles by the vendor DGEMM (seed modular-matrix-multiplication-gpu, §4),
// over k-blocks short enough that every partial sum is an integer below 2^53,
// each block reduced mod p and accumulated into C by one kernel.

#include <Kokkos_Core.hpp>

#include "hepex/backend/gemm.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"
#include "hepex/linalg/gemm_workspace.hpp"
#include "hepex/linalg/modgemm_methods.hpp"

namespace hepex::linalg::detail {

// Residues to centred doubles; `Source` is a matrix or a RowSubset.
template <class Word, class ExecSpace,
          class Source = ConstDeviceMatrix<Word, typename ExecSpace::memory_space>>
struct ToCentredDouble {
  field::Zp<Word> f;
  Source in;
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
// each way bring it to [0, p), done on integers with sign masks (branches
// on random signs mispredicted half the time: the reduction took 40% of a
// 512^3 DGEMM's time on one core). Larger p (multiword): x as an integer,
// reduced by the field. `Target` is a matrix or a RowSubset.
template <class Word, class ExecSpace,
          class Target = DeviceMatrix<Word, typename ExecSpace::memory_space>>
struct ReduceAccumulate {
  field::Zp<Word> f;
  DeviceMatrix<double, typename ExecSpace::memory_space> block;
  Target c;
  double p, inverse_p;
  Word weight;
  bool overwrite;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, const std::int64_t j) const {
    const double x = block(i, j);
    Word residue;
    if (p < 4503599627370496.0) {  // 2^52
      const auto modulus = static_cast<std::int64_t>(p);
      auto r = static_cast<std::int64_t>(
          x - p * static_cast<double>(static_cast<std::int64_t>(x * inverse_p)));
      r += (r >> 63) & modulus;  // (-2p, 2p) -> (-p, 2p)
      r += (r >> 63) & modulus;  // -> [0, 2p)
      r -= modulus;
      r += (r >> 63) & modulus;  // -> [0, p)
      residue = static_cast<Word>(r);
    } else {
      residue = f.from_int(static_cast<std::int64_t>(x));
    }
    if (weight != 1) residue = f.mul(weight, residue);  // the fp64 method's weight is 1
    c(i, j) = overwrite ? residue : f.add(residue, c(i, j));
  }
};

// x - p rint(x / p), for an exact integer |x| <= 2^53 - 2p and p < 2^51:
// q = rint(x (1/p)) is within one of rint(x / p) (two roundings of relative
// size 2^-53 move x / p by less than 2 / p), so |r| <= 1.5 p and
// |p q| <= |x| + 1.5 p < 2^53: the product and the difference are exact.
// rint by adding and removing 1.5 2^52 (|x / p| < 2^51), which vectorises
// on every target.
KOKKOS_INLINE_FUNCTION double centred_mod(const double x, const double p, const double inverse_p) {
  constexpr double round_shift = 6755399441055744.0;  // 1.5 * 2^52
  const double q = (x * inverse_p + round_shift) - round_shift;
  return x - p * q;
}

// x <- centred_mod(x) in place.
template <class ExecSpace>
struct CentreModP {
  DeviceMatrix<double, typename ExecSpace::memory_space> x;
  double p, inverse_p;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, const std::int64_t j) const {
    x(i, j) = centred_mod(x(i, j), p, inverse_p);
  }
};

// C <- block mod p, for exact integers x in centred_mod's range, in doubles
// so that the loop vectorises (the integer reduction of ReduceAccumulate
// does not). With y = x (1/p) and q = rint(y): two roundings of relative
// size 2^-53 and |x / p| < 2^51 give |y - x / p| < 1/2, so
// |x / p - q| <= |x / p - y| + |y - q| < 1, |r| < p, and one select brings
// r to [0, p).
template <class Word, class ExecSpace, class Target>
struct StoreResidues {
  DeviceMatrix<double, typename ExecSpace::memory_space> block;
  Target c;
  double p, inverse_p;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, const std::int64_t j) const {
    double r = centred_mod(block(i, j), p, inverse_p);
    r += r < 0 ? p : 0.0;
    c(i, j) = static_cast<Word>(r);
  }
};

// C = A B or C += A B (mod p) by the fp64 or the multiword method (k >= 1);
// C (m x n) is a matrix or a RowSubset, read and written in place.
template <class ExecSpace, class Word, class Target>
void modgemm_doubles(const ExecSpace& space, const field::Zp<Word>& f,
                     const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                     const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                     const Target& c, bool accumulate, Place where, bool multiword,
                     GemmWorkspace<typename ExecSpace::memory_space>& workspace) {
  using Memory = typename ExecSpace::memory_space;
  using Doubles = DeviceMatrix<double, Memory>;
  const std::size_t m = a.extent(0), k = a.extent(1), n = b.extent(1);
  const std::uint64_t p = f.modulus();
  // Workspace slots: 0 the DGEMM output, 1-2 A and B (or their high
  // halves), 3-4 the low halves, 5-6 the Karatsuba sums.
  auto partial = workspace.template matrix<double>(0, m, n);
  bool overwrite = !accumulate;  // the first reduction writes C
  const double dp = static_cast<double>(p), inverse_p = 1.0 / dp;
  auto reduce_into_c = [&](Word weight) {
    for_each_entry(
        "hepex::modgemm::reduce", space, m, n,
        ReduceAccumulate<Word, ExecSpace, Target>{f, partial, c, dp, inverse_p, weight, overwrite});
    overwrite = false;
  };
  // C += weight * (X Y mod p) for exact-integer doubles X (m x k), Y (k x n),
  // over the exact blocks of ExactBlocks. `direct` (weight 1, carried
  // blocks): the partial sums start from C's centred residues (when
  // accumulating; |c| <= p/2 is within the carried range) and end stored
  // over C, so C is read once and written once, by vectorised passes.
  auto add_exact_product = [&](const Doubles& x, const Doubles& y, ExactBlocks blocks, Word weight,
                               bool direct) {
    if (direct && accumulate) {
      for_each_entry("hepex::modgemm::load_c", space, m, n,
                     ToCentredDouble<Word, ExecSpace, Target>{f, c, partial});
    }
    for (std::size_t l = 0; l < k; l += blocks.width) {
      const std::size_t width = std::min<std::size_t>(blocks.width, k - l);
      const bool onto_partial = (blocks.carry && l > 0) || (direct && accumulate);
      if (blocks.carry && l > 0) {
        for_each_entry("hepex::modgemm::centre", space, m, n,
                       CentreModP<ExecSpace>{partial, dp, inverse_p});
      } else if (l > 0) {
        reduce_into_c(weight);
      }
      Kokkos::Profiling::pushRegion("hepex::modgemm::vendor_dgemm");
      backend::dgemm(space, static_cast<int>(m), static_cast<int>(n), static_cast<int>(width),
                     x.data() + l, static_cast<int>(k), y.data() + l * n, static_cast<int>(n),
                     onto_partial ? 1.0 : 0.0, partial.data(), static_cast<int>(n));
      Kokkos::Profiling::popRegion();
    }
    if (direct) {
      for_each_entry("hepex::modgemm::store", space, m, n,
                     StoreResidues<Word, ExecSpace, Target>{partial, c, dp, inverse_p});
    } else {
      reduce_into_c(weight);
    }
  };
  using Conversion = typename GemmWorkspace<Memory>::Conversion;
  // A's conversion into the workspace, skipped when it holds this A already.
  auto convert_a = [&](Conversion form, auto&& convert) {
    workspace.convert_left({a.data(), m, k, p, form}, convert);
  };
  auto centred_a = [&] {
    auto ad = workspace.template matrix<double>(1, m, k);
    convert_a(Conversion::centred_doubles, [&] {
      for_each_entry("hepex::modgemm::centre_a", space, m, k,
                     ToCentredDouble<Word, ExecSpace>{f, a, ad});
    });
    return ad;
  };
  if (!multiword) {
    const auto ad = centred_a();
    auto bd = workspace.template matrix<double>(2, k, n);
    for_each_entry("hepex::modgemm::centre_b", space, k, n,
                   ToCentredDouble<Word, ExecSpace>{f, b, bd});
    const ExactBlocks blocks = fp64_blocks(p);
    add_exact_product(ad, bd, blocks, Word(1), blocks.carry);
    return;
  }
  // The forms and their weights: MultiwordForm.
  const MultiwordSplit split = multiword_split(p);
  const MultiwordForm form = split.form(k, where);
  const Word s = f.pow(f.from_uint(2), static_cast<std::uint64_t>(split.bits)), s2 = f.mul(s, s);
  if (form == MultiwordForm::split_b) {
    const auto ad = centred_a();
    auto bh = workspace.template matrix<double>(2, k, n),
         bl = workspace.template matrix<double>(4, k, n);
    for_each_entry("hepex::modgemm::split_b", space, k, n,
                   SplitCentred<Word, ExecSpace>{f, b, bh, bl, Doubles(), split.bits});
    add_exact_product(ad, bh, split.split_b, s, false);
    add_exact_product(ad, bl, split.split_b, Word(1), false);
    return;
  }
  const bool karatsuba = form == MultiwordForm::karatsuba;
  auto ah = workspace.template matrix<double>(1, m, k),
       bh = workspace.template matrix<double>(2, k, n);
  auto al = workspace.template matrix<double>(3, m, k),
       bl = workspace.template matrix<double>(4, k, n);
  Doubles as, bs;
  if (karatsuba) {
    as = workspace.template matrix<double>(5, m, k);
    bs = workspace.template matrix<double>(6, k, n);
  }
  convert_a(karatsuba ? Conversion::split_doubles_and_sums : Conversion::split_doubles, [&] {
    for_each_entry("hepex::modgemm::split_a", space, m, k,
                   SplitCentred<Word, ExecSpace>{f, a, ah, al, as, split.bits});
  });
  for_each_entry("hepex::modgemm::split_b", space, k, n,
                 SplitCentred<Word, ExecSpace>{f, b, bh, bl, bs, split.bits});
  if (karatsuba) {
    add_exact_product(ah, bh, split.karatsuba, f.sub(s2, s), false);
    add_exact_product(as, bs, split.karatsuba, s, false);
    add_exact_product(al, bl, split.karatsuba, f.sub(Word(1), s), false);
  } else {
    add_exact_product(ah, bh, split.four, s2, false);
    add_exact_product(ah, bl, split.four, s, false);
    add_exact_product(al, bh, split.four, s, false);
    add_exact_product(al, bl, split.four, Word(1), false);
  }
}

}  // namespace hepex::linalg::detail
