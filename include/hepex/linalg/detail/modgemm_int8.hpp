#pragma once
// The int8 method of modgemm: Ozaki scheme II (Ozaki, Uchino, Imamura,
// arXiv:2504.08009, §3) applied to Z/p. The exact integer product C of the
// centred residues (|C| <= depth h^2, h = floor(p/2)) is recovered from its
// residues modulo N pairwise coprime moduli m_t <= 256 whose product M
// exceeds 4 max|C|. Residue t of C is one int8 x int8 -> int32 GEMM of the
// operands reduced mod m_t (centred into [-128, 127]; k-blocks of at most
// int8_max_depth terms keep every sum below 2^31, so it is exact). With
// M_t = M / m_t, y_t = M_t^{-1} mod m_t and u_t = (C_t y_t) mod m_t,
//   X = sum_t u_t M_t = C + q M,   q = round(sum_t u_t / m_t),
// because |C| / M <= 1/4 keeps sum_t u_t / m_t = q + C / M far from a
// rounding point. Hence C mod p = sum_t u_t (M_t mod p) - q (M mod p), and
// the wide integer X is never formed. For p = 2^31 - 1 and k = 8192 that is
// 10 GEMMs where base-256 digits need 16; 18 instead of 64 at 2^63.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "hepex/backend/gemm.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/detail/for_each_entry.hpp"
#include "hepex/linalg/gemm_workspace.hpp"
#include "hepex/linalg/modgemm_methods.hpp"

namespace hepex::linalg::detail {

// x mod m for a 32-bit x by Barrett reduction with r = floor(2^32 / m): the
// quotient (x r) / 2^32 is floor(x / m) or one less, so one correction (no
// integer division: one multiply-high on the device).
KOKKOS_INLINE_FUNCTION std::uint32_t barrett(std::uint32_t x, std::uint32_t m, std::uint32_t r) {
  const auto q = static_cast<std::uint32_t>((static_cast<std::uint64_t>(x) * r) >> 32);
  const std::uint32_t rest = x - q * m;
  return rest >= m ? rest - m : rest;
}

// A word residue mod m_t: 32-bit words directly, 64-bit words as
// (hi mod m) (2^32 mod m) + (lo mod m) < 2^17.
template <class Word>
KOKKOS_INLINE_FUNCTION std::uint32_t word_mod(Word x, const Int8CrtBasis& basis, int t) {
  const std::uint32_t m = basis.modulus[t], r = basis.reciprocal[t];
  if constexpr (sizeof(Word) <= 4) {
    return barrett(static_cast<std::uint32_t>(x), m, r);
  } else {
    const std::uint32_t hi = barrett(static_cast<std::uint32_t>(x >> 32), m, r);
    const std::uint32_t lo = barrett(static_cast<std::uint32_t>(x), m, r);
    return barrett(hi * basis.two32[t] + lo, m, r);
  }
}

// The centred residue u of a in [0, p), reduced modulo m_t and centred into
// [-128, 127]: `Terms` consecutive terms of one row of the packed operand per
// thread, written as one store of Terms bytes. Packed operand t is
// rows_padded x depth_padded (k contiguous); row r, term l is
// source(r, offset + l) for A and source(offset + l, r) for B (`transposed`).
// Padding is written as 0.
//  A: Terms = 4, consecutive threads take consecutive quads of one row: the
//     loads (16-byte ones where the rows are aligned) and the 4-byte stores
//     of a warp are contiguous.
//  B: Terms = 16, a group of 32 threads takes 8 consecutive rows (columns of
//     the source: each load is 8 consecutive words) times 4 consecutive packs
//     (each row's stores are 64 contiguous bytes).
template <class Word, class ExecSpace, int Terms>
struct CrtResidues {
  // Terms int8 residues as words, assigned whole (Terms separate byte stores
  // would each touch a separate sector); byte u is bits 8 (u % 4) of word
  // u / 4 on these little-endian targets.
  struct alignas(Terms) Pack {
    std::uint32_t word[Terms / 4];
  };
  field::Zp<Word> f;
  ConstDeviceMatrix<Word, typename ExecSpace::memory_space> source;
  Kokkos::View<Pack*, typename ExecSpace::memory_space> packed;
  Int8CrtBasis basis;
  std::size_t offset, depth, rows, rows_padded, packs_per_row;
  bool transposed;
  bool vector_loads;  // A rows read 16 bytes at a time (see aligned_rows)

  // True when every run of Terms words of A starts on a 16-byte boundary.
  static bool aligned_rows(const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                           std::size_t offset) {
    return Terms * sizeof(Word) % 16 == 0 && reinterpret_cast<std::uintptr_t>(a.data()) % 16 == 0 &&
           a.extent(1) * sizeof(Word) % 16 == 0 && offset * sizeof(Word) % 16 == 0;
  }

  std::size_t threads() const {
    return transposed ? rows_padded / 8 * ((packs_per_row + 3) / 4) * 32
                      : rows_padded * packs_per_row;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    std::size_t row, pack;
    if (transposed) {
      const std::size_t group = flat / 32, lane = flat % 32;
      const std::size_t groups_per_rows = (packs_per_row + 3) / 4;
      row = group / groups_per_rows * 8 + lane % 8;
      pack = group % groups_per_rows * 4 + lane / 8;
      if (pack >= packs_per_row) return;
    } else {
      row = flat / packs_per_row;
      pack = flat % packs_per_row;
    }
    if (row >= rows || pack * Terms >= depth) {  // padding only
      for (int t = 0; t < basis.count; ++t)
        packed((t * rows_padded + row) * packs_per_row + pack) = Pack{};
      return;
    }
    Word value[Terms];
    bool negative[Terms];
    const Word half = f.modulus() / 2;
    if (vector_loads && pack * Terms + Terms <= depth) {
      struct alignas(16) Chunk {
        Word word[16 / sizeof(Word)];
      };
      constexpr int per_chunk = 16 / sizeof(Word);
      const auto* chunks = reinterpret_cast<const Chunk*>(&source(row, offset + pack * Terms));
      for (int c = 0; c < Terms / per_chunk; ++c) {
        const Chunk chunk = chunks[c];
        for (int e = 0; e < per_chunk; ++e) value[c * per_chunk + e] = chunk.word[e];
      }
    } else {
      for (int u = 0; u < Terms; ++u) {
        const std::size_t l = pack * Terms + u;
        value[u] =
            l < depth ? (transposed ? source(offset + l, row) : source(row, offset + l)) : Word(0);
      }
    }
    for (int u = 0; u < Terms; ++u) negative[u] = value[u] > half;  // centred: value - p
    for (int t = 0; t < basis.count; ++t) {
      Pack out;
      const int m = static_cast<int>(basis.modulus[t]),
                p_mod_m = static_cast<int>(basis.p_residue[t]);
      for (int w = 0; w < Terms / 4; ++w) {
        std::uint32_t word = 0;
        for (int u = 4 * w; u < 4 * w + 4; ++u) {
          int r = static_cast<int>(word_mod(value[u], basis, t));
          if (negative[u]) r = r >= p_mod_m ? r - p_mod_m : r + m - p_mod_m;
          const auto digit = static_cast<std::uint8_t>(2 * r >= m ? r - m : r);  // two's complement
          word |= static_cast<std::uint32_t>(digit) << (8 * (u - 4 * w));
        }
        out.word[w] = word;
      }
      packed((t * rows_padded + row) * packs_per_row + pack) = out;
    }
  }
};

// C(i, j) += (sum_t u_t (M_t mod p) - q (M mod p)) mod p from the N residue
// products (planes of rows_padded x cols_padded int32); C(i, j) = ... when
// `overwrite`. One call does four consecutive entries of a row, reading
// each plane 16 bytes at a time (cols_padded is a multiple of 16): on the
// H100 the one-entry version ran at half the memory bandwidth.
template <class Word, class ExecSpace>
struct CrtRecombine {
  struct alignas(16) Quad {
    std::int32_t entry[4];
  };
  using Sum = std::conditional_t<sizeof(Word) == 4, std::uint64_t, field::TripleWord<Word>>;
  field::Zp<Word> f;
  Kokkos::View<const Quad*, typename ExecSpace::memory_space> planes;
  DeviceMatrix<Word, typename ExecSpace::memory_space> c;
  Int8CrtBasis basis;
  std::size_t rows_padded, cols_padded;
  bool overwrite;

  static std::size_t quads(std::size_t cols) { return (cols + 3) / 4; }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, const std::int64_t quad) const {
    const std::size_t plane = rows_padded * cols_padded / 4, at = i * cols_padded / 4 + quad;
    // sum_t u_t (M_t mod p), exact: u_t < 2^8 and M_t mod p < p, so for
    // p < 2^31 one 64-bit word holds all (at most 32) terms.
    Sum sum[4] = {};
    double fraction[4] = {};  // sum_t u_t / m_t = q + C / M
    for (int t = 0; t < basis.count; ++t) {
      const Quad products = planes(t * plane + at);
      const std::uint32_t m = basis.modulus[t], r = basis.reciprocal[t];
      for (int e = 0; e < 4; ++e) {
        // C_t mod m_t from C_t + 2^31 in [0, 2^32), then u_t = (C_t y_t) mod m_t.
        std::uint32_t residue =
            barrett(static_cast<std::uint32_t>(products.entry[e]) + 2147483648u, m, r);
        residue =
            residue >= basis.two31[t] ? residue - basis.two31[t] : residue + m - basis.two31[t];
        const std::uint32_t u = barrett(residue * basis.cofactor_inverse[t], m, r);
        fraction[e] += static_cast<double>(u) * basis.inverse[t];
        if constexpr (sizeof(Word) == 4) {
          sum[e] += std::uint64_t{u} * basis.cofactor_mod_p[t];
        } else {
          sum[e].add_product(static_cast<Word>(u), static_cast<Word>(basis.cofactor_mod_p[t]));
        }
      }
    }
    for (int e = 0; e < 4; ++e) {
      const std::int64_t j = 4 * quad + e;
      if (j >= static_cast<std::int64_t>(c.extent(1))) break;
      Word reduced;
      if constexpr (sizeof(Word) == 4) {
        reduced = f.from_uint(sum[e]);
      } else {
        reduced = sum[e].reduce(f);
      }
      const auto q = static_cast<std::uint64_t>(fraction[e] + 0.5);
      const Word value =
          f.sub(reduced, f.mul(f.from_uint(q), static_cast<Word>(basis.product_mod_p)));
      c(i, j) = overwrite ? value : f.add(c(i, j), value);
    }
  }
};

// C = A B or C += A B (mod p) by the int8 method, over k-blocks of
// int8_max_depth terms (k >= 1).
template <class ExecSpace, class Word>
void modgemm_int8(const ExecSpace& space, const field::Zp<Word>& f,
                  const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                  const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                  const DeviceMatrix<Word, typename ExecSpace::memory_space>& c, bool accumulate,
                  Place where, GemmWorkspace<typename ExecSpace::memory_space>& workspace) {
  using ResiduesA = CrtResidues<Word, ExecSpace, 4>;
  using ResiduesB = CrtResidues<Word, ExecSpace, 16>;
  const std::size_t m = a.extent(0), k = a.extent(1), n = b.extent(1);
  const Int8CrtBasis basis =
      int8_crt_basis(f.modulus(), std::min<std::uint64_t>(k, int8_max_depth));
  const std::size_t count = static_cast<std::size_t>(basis.count);
  // Sizes padded to multiples of 16 for the tensor-core kernels.
  auto round16 = [](std::size_t x) { return (x + 15) / 16 * 16; };
  const std::size_t mp = round16(m), np = round16(n);
  const std::size_t kp = round16(std::min<std::uint64_t>(k, int8_max_depth));
  // Workspace slots: 0 the residue products, 1-2 the residues of A and B.
  using Recombine = CrtRecombine<Word, ExecSpace>;
  const auto planes = workspace.template array<typename Recombine::Quad>(0, count * mp * np / 4);
  const auto ar = workspace.template array<typename ResiduesA::Pack>(1, count * mp * kp / 4);
  const auto br = workspace.template array<typename ResiduesB::Pack>(2, count * np * kp / 16);
  for (std::size_t l0 = 0; l0 < k; l0 += int8_max_depth) {
    const std::size_t depth = std::min<std::size_t>(int8_max_depth, k - l0);
    const std::size_t kc = round16(depth);
    const ResiduesA of_a{
        f, a, ar, basis, l0, depth, m, mp, kc / 4, false, ResiduesA::aligned_rows(a, l0)};
    const ResiduesB of_b{f, b, br, basis, l0, depth, n, np, kc / 16, true, false};
    // A's residues are kept across products (GemmWorkspace) only when one
    // k-block covers A.
    const bool whole_a = k <= int8_max_depth;
    workspace.convert_left(
        {whole_a ? a.data() : nullptr, m, k, f.modulus(),
         GemmWorkspace<typename ExecSpace::memory_space>::Conversion::int8_residues},
        [&] {
          Kokkos::parallel_for("hepex::modgemm::crt_residues_a",
                               Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                                   space, 0, static_cast<std::int64_t>(of_a.threads())),
                               of_a);
        });
    Kokkos::parallel_for("hepex::modgemm::crt_residues_b",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                             space, 0, static_cast<std::int64_t>(of_b.threads())),
                         of_b);
    Kokkos::Profiling::pushRegion("hepex::modgemm::vendor_int8_gemm");
    const auto* a8 = reinterpret_cast<const std::int8_t*>(ar.data());
    const auto* b8 = reinterpret_cast<const std::int8_t*>(br.data());
    // The tensor-core kernels take the padded sizes; the host loops only
    // what C needs.
    const bool padded = where == Place::device;
    backend::int8_gemm(space, basis.count, static_cast<int>(padded ? mp : m),
                       static_cast<int>(padded ? np : n), static_cast<int>(kc), a8,
                       static_cast<int>(kc), static_cast<std::ptrdiff_t>(mp * kc), b8,
                       static_cast<int>(kc), static_cast<std::ptrdiff_t>(np * kc),
                       reinterpret_cast<std::int32_t*>(planes.data()), static_cast<int>(np),
                       static_cast<std::ptrdiff_t>(mp * np));
    Kokkos::Profiling::popRegion();
    for_each_entry("hepex::modgemm::crt_recombine", space, m, Recombine::quads(n),
                   Recombine{f, planes, c, basis, mp, np, !accumulate && l0 == 0});
  }
  space.fence();
}

}  // namespace hepex::linalg::detail
