#pragma once
// The communicator the distributed tests run on: the process alone in
// hepex_tests, MPI_COMM_WORLD in hepex_mpi_tests (run under mpiexec -n 2).
// The same test sources serve both.

#include <filesystem>
#include <string>
#include <unistd.h>

#include "hepex/distributed/communicator.hpp"

namespace hepex::test {

const distributed::Communicator& communicator();

// A fresh, empty directory name shared by every rank (made up on rank 0).
inline std::string shared_scratch_name(const std::string& tag) {
  std::string name;
  if (communicator().rank() == 0) {
    name = (std::filesystem::temp_directory_path() /
            ("hepex-" + tag + "-" + std::to_string(::getpid())))
               .string();
    std::filesystem::remove_all(name);
  }
  communicator().broadcast(name);
  return name;
}

}  // namespace hepex::test
