#include "hepex/reconstruct/product_tree_device.hpp"

#include <algorithm>

#include "hepex/core/spaces.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/field/wide_multiply.hpp"
#include "hepex/reconstruct/detail/accumulate.hpp"

namespace hepex::reconstruct {

namespace {

using Words = Kokkos::View<std::uint64_t*, DeviceMemory>;

// Level 0: factor i is Z - roots[i], or the constant 1 beyond the roots.
struct Leaves {
  field::Zp64 f;
  Kokkos::View<const std::uint64_t*, DeviceMemory> roots;
  Words out;
  std::size_t count;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    out(2 * i) = i < count ? f.neg(roots(i)) : 1;
    out(2 * i + 1) = i < count ? 1 : 0;
  }
};

// Level l to l + 1: input polynomial i covers roots [i h, (i + 1) h) with
// h = 2^l (degree = how many of them exist, h + 1 words); output polynomial
// i = input 2i times input 2i + 1 (2h + 1 words).
struct Pairs {
  field::Zp64 f;
  Kokkos::View<const std::uint64_t*, DeviceMemory> in;
  Words out;
  std::size_t h, count;
  KOKKOS_INLINE_FUNCTION std::size_t degree(const std::size_t i) const {
    return count > i * h ? (count - i * h < h ? count - i * h : h) : 0;
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t width = 2 * h + 1, pair = flat / width, k = flat % width;
    const std::size_t da = degree(2 * pair), db = degree(2 * pair + 1);
    const std::size_t a = 2 * pair * (h + 1), b = a + h + 1;
    field::detail::TripleWord<std::uint64_t> sum;
    if (k <= da + db) {
      const std::size_t last = k < da ? k : da;
      for (std::size_t i = k > db ? k - db : 0; i <= last; ++i)
        detail::add_product(sum, in(a + i), in(b + k - i));
    }
    out(flat) = sum.reduce(f);
  }
};

}  // namespace

std::vector<std::uint64_t> product_of_linear_factors_on_device(const field::Zp64& f,
                                                               const std::uint64_t* roots,
                                                               std::size_t count) {
  std::size_t n = 1;
  while (n < count) n *= 2;
  Words level("hepex::product_tree::level", 2 * n);
  Kokkos::parallel_for(
      "hepex::product_tree::leaves", Kokkos::RangePolicy<DeviceSpace>(0, n),
      Leaves{f,
             to_view<DeviceMemory>(std::vector<std::uint64_t>(roots, roots + count),
                                   "hepex::product_tree::roots"),
             level, count});
  for (std::size_t h = 1; h < n; h *= 2) {
    Words next("hepex::product_tree::level", n / (2 * h) * (2 * h + 1));
    Kokkos::parallel_for("hepex::product_tree::pairs",
                         Kokkos::RangePolicy<DeviceSpace>(0, next.extent(0)),
                         Pairs{f, level, next, h, count});
    level = next;
  }
  std::vector<std::uint64_t> out = to_vector(level);
  out.resize(count + 1);
  return out;
}

}  // namespace hepex::reconstruct
