#include "multiply_rate.hpp"

#include <algorithm>
#include <cstdint>

#include "hepex/core/spaces.hpp"
#include "hepex/field/wide_multiply.hpp"

namespace hepex::bench {

namespace {

constexpr int chains = 8;    // independent products in flight per thread
constexpr int steps = 2048;  // products per chain
constexpr std::uint64_t multiplier = 0x9e3779b97f4a7c15ull;

// Each thread runs `chains` dependent chains x <- hi(x c) + lo(x c) and
// writes their sum, so that no product can be dropped.
template <class ExecSpace>
struct Chains {
  Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    std::uint64_t x[chains];
    for (int c = 0; c < chains; ++c) x[c] = static_cast<std::uint64_t>(i) * chains + c + 1;
    for (int s = 0; s < steps; ++s) {
      for (int c = 0; c < chains; ++c) {
        const auto p = field::mul_wide(x[c], multiplier);
        x[c] = p.hi + p.lo;
      }
    }
    std::uint64_t sum = 0;
    for (int c = 0; c < chains; ++c) sum += x[c];
    out(i) = sum;
  }
};

// Best of five runs over `threads` threads.
template <class ExecSpace>
double rate(std::int64_t threads) {
  Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> out("hepex::bench::chains",
                                                                     threads);
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>> policy(0, threads);
  Kokkos::parallel_for("hepex::bench::wide_multiply", policy, Chains<ExecSpace>{out});  // warm-up
  double best = 1e300;
  for (int r = 0; r < 5; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    Kokkos::parallel_for("hepex::bench::wide_multiply", policy, Chains<ExecSpace>{out});
    Kokkos::fence();
    best = std::min(best, timer.seconds());
  }
  return static_cast<double>(threads) * chains * steps / best;
}

}  // namespace

double device_wide_multiply_rate() {
  return rate<DeviceSpace>(has_accelerator ? 1 << 22 : 1 << 10);
}
double host_wide_multiply_rate() { return rate<HostSpace>(1 << 10); }

}  // namespace hepex::bench
