// The README's example (keep the two identical): Z/p arithmetic in a Kokkos
// kernel, then rational reconstruction.
#include <hepex/hepex.hpp>
#include <iostream>

int main(int argc, char* argv[]) {
  hepex::Runtime runtime(argc, argv);                                 // Kokkos init/finalize
  const hepex::field::Zp64 F(hepex::field::large_primes(1).front());  // 2^63 - 25
  long holds = 0;                                                     // Fermat on the device
  Kokkos::parallel_reduce(
      "fermat", Kokkos::RangePolicy<hepex::DeviceSpace>(1, 1000000),
      KOKKOS_LAMBDA(const long i, long& n) {
        n += F.pow(F.from_int(i), F.modulus() - 1) == F.one();
      },
      holds);
  hepex::field::CrtLift lift(1);  // -22/7 from two primes
  for (std::uint64_t p : hepex::field::large_primes(2)) {
    const hepex::field::Zp64 Fp(p);
    lift.add(p, {Fp.mul(Fp.from_int(-22), Fp.inv(Fp.from_int(7)))});
  }
  std::cout << holds << " " << lift.to_rationals().values[0] << '\n';  // 999999 -22/7
}
