// GoogleTest entry point: Kokkos lives for the whole run.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <iostream>

#include "distributed/test_communicator.hpp"
#include "test_seed.hpp"

// The distributed tests run on the process alone here (tests/mpi: on MPI ranks).
const hepex::distributed::Communicator& hepex::test::communicator() {
  static const hepex::distributed::Communicator alone;
  return alone;
}

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  std::cout << "hepex tests: seed " << hepex::test::seed()
            << " (set HEPEX_TEST_SEED to change), default execution space "
            << Kokkos::DefaultExecutionSpace::name() << std::endl;
  return RUN_ALL_TESTS();
}
