#pragma once
// MPI for the `hepex` executable: initialised when an MPI launcher (mpiexec,
// srun with PMI) started the process, finalised on exit; otherwise the
// process runs alone. The library itself never initialises MPI.

#include "hepex/distributed/communicator.hpp"

namespace hepex::cli {

class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  const distributed::Communicator& comm() const { return comm_; }

 private:
  bool owns_mpi_ = false;
  distributed::Communicator comm_;
};

// The session's communicator, for the commands (the process alone before
// main has made a session).
const distributed::Communicator& communicator();

}  // namespace hepex::cli
