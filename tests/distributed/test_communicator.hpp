#pragma once
// The communicator the distributed tests run on: the process alone in
// hepex_tests, MPI_COMM_WORLD in hepex_mpi_tests (run under mpiexec -n 2).
// The same test sources serve both.

#include <filesystem>
#include <string>

#include "hepex/distributed/communicator.hpp"
#include "scratch_directory.hpp"

namespace hepex::test {

const distributed::Communicator& communicator();

// A directory name that does not exist yet, shared by every rank: inside a
// scratch directory that rank 0 makes with mkdtemp (unique to this run, see
// scratch_directory.hpp) and keeps until the process ends.
inline std::string shared_scratch_name(const std::string& tag) {
  std::string name;
  if (communicator().rank() == 0) {
    static const ScratchDirectory scratch("tests");
    name = scratch.fresh(tag).string();
  }
  communicator().broadcast(name);
  return name;
}

}  // namespace hepex::test
