#pragma once
// The int64 method of modgemm: a tiled Kokkos kernel on word residues.
// Each team computes a 32 x 32 tile of C, staging 32 x 32 tiles of A and B in
// team scratch; each thread owns an R x R block of the tile (R = 2 for 256
// threads on a GPU, R = 32 for one thread on a CPU core). Products are summed
// exactly in three-word accumulators (field::TripleWord: for p < 2^63
// that is 2^192 / 2^126 = 2^66 terms, for p < 2^31 2^96 / 2^62 = 2^34), so
// nothing is reduced until the end: every p the word holds is exact.

#include <Kokkos_Core.hpp>

#include "hepex/core/error.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::linalg::detail {

template <class Word, class ExecSpace, int R>
struct ModGemmTiles {
  static constexpr int tile = 32, threads_per_side = tile / R;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Tile = Kokkos::View<Word[tile][tile + 1], typename ExecSpace::scratch_memory_space,
                            Kokkos::MemoryUnmanaged>;  // +1: no bank conflicts on columns
  field::Zp<Word> f;
  ConstDeviceMatrix<Word, typename ExecSpace::memory_space> a, b;
  DeviceMatrix<Word, typename ExecSpace::memory_space> c;
  bool accumulate;

  static std::size_t scratch_bytes() { return 2 * Tile::shmem_size(); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::size_t m = c.extent(0), n = c.extent(1), depth = a.extent(1);
    const std::size_t tiles_n = (n + tile - 1) / tile;
    const std::size_t i0 = team.league_rank() / tiles_n * tile,
                      j0 = team.league_rank() % tiles_n * tile;
    const int rank = team.team_rank(), ti = rank / threads_per_side, tj = rank % threads_per_side;
    Tile at(team.team_scratch(0)), bt(team.team_scratch(0));
    field::TripleWord<Word> sum[R][R];
    for (std::size_t l0 = 0; l0 < depth; l0 += tile) {
      // Stage A(i0.., l0..) and B(l0.., j0..), zero outside the matrices.
      for (int e = rank; e < tile * tile; e += team.team_size()) {
        const int x = e / tile, y = e % tile;
        at(x, y) = i0 + x < m && l0 + y < depth ? a(i0 + x, l0 + y) : Word(0);
        bt(x, y) = l0 + x < depth && j0 + y < n ? b(l0 + x, j0 + y) : Word(0);
      }
      team.team_barrier();
      for (int l = 0; l < tile; ++l) {
        Word bv[R];
        for (int s = 0; s < R; ++s) bv[s] = bt(l, tj + s * threads_per_side);
        for (int r = 0; r < R; ++r) {
          const Word av = at(ti + r * threads_per_side, l);
          for (int s = 0; s < R; ++s) sum[r][s].add_product(av, bv[s]);
        }
      }
      team.team_barrier();
    }
    for (int r = 0; r < R; ++r) {
      for (int s = 0; s < R; ++s) {
        const std::size_t i = i0 + ti + r * threads_per_side, j = j0 + tj + s * threads_per_side;
        if (i < m && j < n) {
          const Word value = sum[r][s].reduce(f);
          c(i, j) = accumulate ? f.add(c(i, j), value) : value;
        }
      }
    }
  }
};

template <class ExecSpace, class Word, int R>
void launch_tiles(const ExecSpace& space, const ModGemmTiles<Word, ExecSpace, R>& kernel) {
  using Kernel = ModGemmTiles<Word, ExecSpace, R>;
  const std::size_t tiles = (kernel.c.extent(0) + Kernel::tile - 1) / Kernel::tile *
                            ((kernel.c.extent(1) + Kernel::tile - 1) / Kernel::tile);
  if (tiles > 2147483647u) throw Error("modgemm int64: C has more than 2^31 tiles of 32 x 32");
  const int threads = Kernel::threads_per_side * Kernel::threads_per_side;
  Kokkos::parallel_for("hepex::modgemm::int64",
                       Kokkos::TeamPolicy<ExecSpace>(space, static_cast<int>(tiles), threads)
                           .set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes())),
                       kernel);
}

// C = A B or C += A B (mod p) by the int64 method.
template <class ExecSpace, class Word>
void modgemm_words(const ExecSpace& space, const field::Zp<Word>& f,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                   const DeviceMatrix<Word, typename ExecSpace::memory_space>& c, bool accumulate) {
  if (sizeof(Word) == 4 && a.extent(1) >= (std::size_t{1} << 34)) {
    throw Error("modgemm int64: k >= 2^34 terms could overflow the 96-bit sums of Zp32");
  }
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename ExecSpace::memory_space>::accessible) {
    launch_tiles(space, ModGemmTiles<Word, ExecSpace, 32>{f, a, b, c, accumulate});
  } else {
    launch_tiles(space, ModGemmTiles<Word, ExecSpace, 2>{f, a, b, c, accumulate});
  }
}

}  // namespace hepex::linalg::detail
