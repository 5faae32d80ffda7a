#pragma once
// The int64 method of modgemm: a Kokkos kernel on word residues. Products are
// summed in a double word and reduced every lambda = floor((2^(2W) - 1) /
// (p - 1)^2) terms (delayed reduction), so it is exact for every p the word
// holds.

#include <Kokkos_Core.hpp>

#include "hepex/core/matrix.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::linalg::detail {

// Products of two residues that fit a double word before it overflows.
template <class Word>
std::uint64_t delayed_reduction_terms(std::uint64_t p) {
  const unsigned __int128 double_word_max = sizeof(Word) == 8
                                                ? ~static_cast<unsigned __int128>(0)
                                                : static_cast<unsigned __int128>(~std::uint64_t{0});
  const unsigned __int128 square = static_cast<unsigned __int128>(p - 1) * (p - 1);
  constexpr std::uint64_t cap = std::uint64_t{1} << 40;
  return square == 0 ? cap
                     : static_cast<std::uint64_t>(
                           std::min<unsigned __int128>(double_word_max / square, cap));
}

// One thread per entry of C.
template <class Word, class ExecSpace>
struct ModGemmWords {
  field::Zp<Word> f;
  ConstDeviceMatrix<Word, typename ExecSpace::memory_space> a, b;
  DeviceMatrix<Word, typename ExecSpace::memory_space> c;
  std::uint64_t lambda;
  bool accumulate;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t n = c.extent(1), i = flat / n, j = flat % n;
    const std::size_t depth = a.extent(1);
    Word result = accumulate ? c(i, j) : Word(0);
    std::size_t l = 0;
    while (l < depth) {
      const std::size_t end = depth - l > lambda ? l + lambda : depth;
      Word hi = 0, lo = 0;
      for (; l < end; ++l) {
        const auto product = field::detail::mul_wide(a(i, l), b(l, j));
        lo += product.lo;
        hi += product.hi + (lo < product.lo ? 1 : 0);
      }
      // (hi 2^W + lo) mod p: hi itself may exceed p, so reduce it first.
      result = f.add(result, f.reduce_double_word(f.reduce_double_word(0, hi), lo));
    }
    c(i, j) = result;
  }
};

// C = A B or C += A B (mod p) by the int64 method.
template <class ExecSpace, class Word>
void modgemm_words(const ExecSpace& space, const field::Zp<Word>& f,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                   const DeviceMatrix<Word, typename ExecSpace::memory_space>& c, bool accumulate) {
  Kokkos::parallel_for("hepex::modgemm::int64",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, c.extent(0) * c.extent(1)),
                       ModGemmWords<Word, ExecSpace>{
                           f, a, b, c, delayed_reduction_terms<Word>(f.modulus()), accumulate});
}

}  // namespace hepex::linalg::detail
