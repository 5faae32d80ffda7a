// GoogleTest entry point: Kokkos lives for the whole run.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <iostream>

#include "test_seed.hpp"

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  std::cout << "hepex tests: seed " << hepex::test::seed()
            << " (set HEPEX_TEST_SEED to change), default execution space "
            << Kokkos::DefaultExecutionSpace::name() << std::endl;
  return RUN_ALL_TESTS();
}
