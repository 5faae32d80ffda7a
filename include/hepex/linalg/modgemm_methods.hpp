#pragma once
// The methods of modgemm and the ranges where each is exact (the kernels are
// in detail/modgemm_*.hpp; the seed is modular-matrix-multiplication-gpu, §4):
//
//  fp64       centred residues |a| <= h = floor(p/2) as doubles, vendor DGEMM
//             over k-blocks short enough that every partial sum is an exact
//             integer (ExactBlocks); exact while one product fits in 2^53
//             (p up to about 2^27.5).
//  multiword  centred residues split as hi 2^s + lo (s half their bits), each
//             product by the fp64 scheme, in the form that costs least
//             (MultiwordForm); exact up to p of about 2^54.5.
//  int8       the CRT over small moduli of Ozaki scheme II (Ozaki, Uchino,
//             Imamura, arXiv:2504.08009, §3): int8 x int8 -> int32 tensor-core
//             GEMMs, one per modulus; exact for every p < 2^63.
//  int64      a Kokkos kernel on word residues with delayed reduction in a
//             double word; exact for every p the word holds.
//  automatic  on a GPU int8 (measured fastest from p = 2^16 and n = 2048 up,
//             perf/results/linalg/README.md); on a CPU fp64 where it is exact,
//             else multiword, else int64 (the host int8 GEMM is plain loops).

#include <cstdint>
#include <string>
#include <vector>

#include "hepex/core/spaces.hpp"

namespace hepex::linalg {

enum class GemmMethod { automatic, fp64, multiword, int64, int8 };

// "auto", "fp64", "multiword", "int64", "int8"; hepex::Error for anything else.
GemmMethod parse_gemm_method(const std::string& name);
const char* gemm_method_name(GemmMethod method);

// The method `automatic` resolves to for p on `where` (runs_on: host or a
// GPU), or the requested one after checking that it is exact for p
// (hepex::Error otherwise).
GemmMethod resolve_gemm_method(GemmMethod requested, std::uint64_t p, Place where);

// The k-blocks of an exact product of integer-valued double matrices whose
// terms are at most `term` in magnitude, modulo p. With `carry`, the DGEMM
// of each block adds onto the previous partial sums (beta = 1) after they
// are centred mod p in place (|r| <= 1.5 p, see CentreModP), so C is
// touched once per product: width = floor((2^53 - 4p) / term) keeps every
// sum and every p q of the centring below 2^53 (needs p < 2^51). Without
// `carry` (that width is 0, or p is too large), each block of
// floor(2^53 / term) columns is reduced into C on its own. width 0: a
// single term can exceed 2^53, the product is not exact.
struct ExactBlocks {
  std::uint64_t width;
  bool carry;
};
ExactBlocks exact_blocks(double term, std::uint64_t p);

// The fp64 method's blocks for the prime p (width 0: fp64 is not exact).
ExactBlocks fp64_blocks(std::uint64_t p);

// The forms of the multiword method, with s = 2^bits:
//  split_b    A B = s (A Bh) + A Bl: two products, terms up to h max(|hi|, |lo|);
//  karatsuba  A B = (s^2 - s) Ah Bh + s (Ah + Al)(Bh + Bl) + (1 - s) Al Bl:
//             three products, terms up to (|hi| + |lo|)^2;
//  four       A B = s^2 Ah Bh + s (Ah Bl + Al Bh) + Al Bl: four products,
//             terms up to max(|hi|, |lo|)^2 (the widest exact range).
enum class MultiwordForm { split_b, karatsuba, four };

// The multiword split of centred residues |x| <= p/2: x = hi 2^bits + lo with
// |lo| <= 2^(bits-1) and |hi| <= floor(p/2 / 2^bits) + 1.
struct MultiwordSplit {
  int bits;                              // half the bits of p/2, rounded up
  double high, low;                      // bounds on |hi| and |lo|
  ExactBlocks split_b, karatsuba, four;  // the blocks of each form
  // The exact form with the least estimated cost for depth k on `where`:
  // products x (k + blocks x the cost of one pass over C, in DGEMM columns).
  MultiwordForm form(std::uint64_t k, Place where) const;
};
MultiwordSplit multiword_split(std::uint64_t p);

// The int8 method's CRT basis for the prime p and k-blocks of `depth` terms:
// pairwise coprime moduli m_t <= 256 taken greedily from 256 down until their
// product M exceeds 4 depth floor(p/2)^2 > 4 max |C| (§ "int8" in
// detail/modgemm_int8.hpp). The constants below are per modulus.
struct Int8CrtBasis {
  static constexpr int capacity = 32;
  int count = 0;
  std::uint32_t modulus[capacity];
  std::uint32_t reciprocal[capacity];        // floor(2^32 / m_t), for Barrett reduction
  std::uint32_t two31[capacity];             // 2^31 mod m_t
  std::uint32_t two32[capacity];             // 2^32 mod m_t
  std::uint32_t p_residue[capacity];         // p mod m_t
  std::uint32_t cofactor_inverse[capacity];  // (M / m_t)^{-1} mod m_t
  double inverse[capacity];                  // 1 / m_t
  std::uint64_t cofactor_mod_p[capacity];    // (M / m_t) mod p
  std::uint64_t product_mod_p;               // M mod p
};
Int8CrtBasis int8_crt_basis(std::uint64_t p, std::uint64_t depth);

// Terms per int8 k-block: |residue products| <= 2^14, so 131071 of them sum
// below 2^31; a multiple of 16 for the tensor-core kernels.
constexpr std::uint64_t int8_max_depth = 131056;

}  // namespace hepex::linalg
