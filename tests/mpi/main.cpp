// hepex_mpi_tests: the distributed tests on MPI_COMM_WORLD, run by ctest
// under mpiexec -n 2. MPI is initialised here, as an application would.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <iostream>
#include <memory>

#include "distributed/test_communicator.hpp"
#include "test_seed.hpp"

namespace {
std::unique_ptr<hepex::distributed::Communicator> world;
}

const hepex::distributed::Communicator& hepex::test::communicator() { return *world; }

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    world = std::make_unique<hepex::distributed::Communicator>(MPI_COMM_WORLD);
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    if (world->rank() != 0) {  // one rank reports
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
    }
    if (world->rank() == 0) {
      std::cout << "hepex MPI tests: " << world->size() << " ranks, seed " << hepex::test::seed()
                << std::endl;
    }
    status = RUN_ALL_TESTS();
    status = static_cast<int>(world->max(status));  // any rank's failure fails the run
    world.reset();
  }
  MPI_Finalize();
  return status;
}
