#pragma once
// The methods of modgemm and the ranges where each is exact (the kernels are
// in detail/modgemm_*.hpp; the seed is modular-matrix-multiplication-gpu, §4):
//
//  fp64       centred residues |a| <= h = floor(p/2) as doubles, vendor DGEMM
//             over k-blocks of lambda = floor(2^53 / h^2) columns (every
//             partial sum an exact integer), one reduce-and-accumulate kernel
//             per block. Exact while lambda >= 1 (p up to about 2^27.5).
//  multiword  centred residues split as hi 2^s + lo (s half their bits): the
//             3-product Karatsuba form (Ah+Al)(Bh+Bl), Ah Bh, Al Bl where its
//             sums stay exact, else the 4-product form, each product by the
//             fp64 scheme; exact up to p of about 2^54.5.
//  int8       the CRT over small moduli of Ozaki scheme II (Ozaki, Uchino,
//             Imamura, arXiv:2504.08009, §3): int8 x int8 -> int32 tensor-core
//             GEMMs, one per modulus; exact for every p < 2^63.
//  int64      a Kokkos kernel on word residues with delayed reduction in a
//             double word; exact for every p the word holds.
//  automatic  on a GPU int8 (measured fastest from p = 2^16 and n = 2048 up,
//             perf/results/modgemm.md); on a CPU fp64 where it is exact,
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
GemmMethod resolve_gemm_method(GemmMethod requested, std::uint64_t p, Backend where);

// Columns of A per exact DGEMM block for the prime p (0: fp64 is not exact).
std::uint64_t fp64_block(std::uint64_t p);

// The multiword split of centred residues |x| <= p/2: x = hi 2^bits + lo with
// |lo| <= 2^(bits-1) and |hi| <= floor(p/2 / 2^bits) + 1.
struct MultiwordSplit {
  int bits;              // half the bits of p/2, rounded up
  double high, low;      // bounds on |hi| and |lo|
  std::uint64_t block4;  // exact DGEMM block of the 4-product form (0: not exact)
  std::uint64_t block3;  // exact block of the Karatsuba form, |hi + lo| <= high + low
  // Karatsuba where it needs no more DGEMM calls than the 4-product form for
  // depth k (its block is smaller: the sums have one bit more).
  bool karatsuba(std::uint64_t k) const;
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
