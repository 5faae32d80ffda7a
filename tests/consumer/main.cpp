// Uses hepex from another project: field arithmetic in a Kokkos kernel on the
// default device, and multi-prime reconstruction of a rational on the host.
#include <hepex/hepex.hpp>
#include <iostream>

int main(int argc, char* argv[]) {
  hepex::Runtime runtime(argc, argv);
  const hepex::field::Zp64 F(hepex::field::large_primes(1).front());  // 2^63 - 25

  // Fermat on the device: i^(p-1) = 1 for every i in [1, n).
  const long n = 1000000;
  long holds = 0;
  Kokkos::parallel_reduce(
      "fermat", Kokkos::RangePolicy<hepex::DeviceSpace>(1, n),
      KOKKOS_LAMBDA(const long i, long& count) {
        count += F.pow(F.from_int(i), F.modulus() - 1) == F.one() ? 1 : 0;
      },
      holds);
  std::cout << "Fermat holds for " << holds << " of " << n - 1 << '\n';

  // Recover -22/7 from its images modulo two primes.
  hepex::field::CrtLift lift(1);
  for (std::uint64_t p : hepex::field::large_primes(2)) {
    const hepex::field::Zp64 Fp(p);
    lift.add(p, {Fp.mul(Fp.from_int(-22), Fp.inv(Fp.from_int(7)))});
  }
  std::cout << "reconstructed: " << lift.to_rationals().values[0] << '\n';
}
