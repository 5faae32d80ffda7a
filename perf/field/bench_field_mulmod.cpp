// Multiply-accumulate throughput of Zp32/Zp64 on the default execution space:
// hepex's precomputed-reciprocal reduction against the plain `%` reduction of
// the double-word product (what the Zippel seed paper replaced: 140 s -> 1.48 s).
// Each thread runs a dependent chain acc <- acc * x + y (mod p) of `chain`
// steps; the counter reports multiply-adds per second.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "hepex/core/random.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::perf {

constexpr int chain = 256;

// acc*x + y mod p with hepex's field.
template <class Word>
struct PreinvMulAdd {
  field::Zp<Word> f;
  KOKKOS_INLINE_FUNCTION Word operator()(Word acc, Word x, Word y) const {
    return f.fma(acc, x, y);
  }
  Word modulus() const { return f.modulus(); }
};

// acc*x + y mod p with the hardware/compiler remainder of the double word.
template <class Word>
struct PlainModMulAdd {
  using Wide = std::conditional_t<sizeof(Word) == 4, std::uint64_t, unsigned __int128>;
  Word p;
  KOKKOS_INLINE_FUNCTION Word operator()(Word acc, Word x, Word y) const {
    return static_cast<Word>((static_cast<Wide>(acc) * x + y) % p);
  }
  Word modulus() const { return p; }
};

template <class Word, class MulAdd>
void run_chains(benchmark::State& state, const MulAdd op) {
  const std::size_t threads = static_cast<std::size_t>(state.range(0));
  Kokkos::View<Word*, DeviceMemory> out("out", threads);
  const Word p = op.modulus();
  for (auto _ : state) {
    Kokkos::Timer timer;
    Kokkos::parallel_for(
        "mulmod_chain", Kokkos::RangePolicy<DeviceSpace>(0, threads),
        KOKKOS_LAMBDA(const std::size_t i) {
          const std::uint64_t r = random::counter_u64(7, i);
          Word acc = static_cast<Word>(r % p), x = static_cast<Word>((r >> 20) % p);
          const Word y = static_cast<Word>((r >> 40) % p);
          for (int s = 0; s < chain; ++s) acc = op(acc, x, y);
          out(i) = acc;
        });
    DeviceSpace().fence();
    state.SetIterationTime(timer.seconds());
  }
  // Equal checksums across the two reductions show they computed the same chains.
  state.counters["mul_add_per_s"] = benchmark::Counter(
      static_cast<double>(threads) * chain * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  state.counters["checksum"] = static_cast<double>(host(0) ^ host(threads - 1));
}

std::uint64_t prime31() { return field::large_primes(1, std::uint64_t{1} << 31).front(); }
std::uint64_t prime63() { return field::large_primes(1).front(); }

void Zp32_preinv(benchmark::State& s) {
  run_chains<std::uint32_t>(s, PreinvMulAdd<std::uint32_t>{field::Zp32(prime31())});
}
void Zp32_plain_mod(benchmark::State& s) {
  run_chains<std::uint32_t>(s,
                            PlainModMulAdd<std::uint32_t>{static_cast<std::uint32_t>(prime31())});
}
void Zp64_preinv(benchmark::State& s) {
  run_chains<std::uint64_t>(s, PreinvMulAdd<std::uint64_t>{field::Zp64(prime63())});
}
void Zp64_plain_mod(benchmark::State& s) {
  run_chains<std::uint64_t>(s, PlainModMulAdd<std::uint64_t>{prime63()});
}

}  // namespace hepex::perf

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  // Enough threads to fill the device; fewer on a host backend.
  const std::int64_t threads = hepex::has_accelerator ? (1 << 22) : (1 << 14);
  benchmark::RegisterBenchmark("Zp32/preinv", hepex::perf::Zp32_preinv)
      ->Arg(threads)
      ->UseManualTime();
  benchmark::RegisterBenchmark("Zp32/plain_mod", hepex::perf::Zp32_plain_mod)
      ->Arg(threads)
      ->UseManualTime();
  benchmark::RegisterBenchmark("Zp64/preinv", hepex::perf::Zp64_preinv)
      ->Arg(threads)
      ->UseManualTime();
  benchmark::RegisterBenchmark("Zp64/plain_mod", hepex::perf::Zp64_plain_mod)
      ->Arg(threads)
      ->UseManualTime();
  benchmark::AddCustomContext("execution_space", hepex::DeviceSpace::name());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
