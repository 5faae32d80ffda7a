#include "mpi_session.hpp"

#include <cstdlib>

namespace hepex::cli {

namespace {

const distributed::Communicator* session_comm = nullptr;

#if HEPEX_HAS_MPI
// Variables that Open MPI, MPICH/Hydra, PMIx and Slurm's PMI set in the
// processes they launch.
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}
#endif

}  // namespace

MpiSession::MpiSession([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
#if HEPEX_HAS_MPI
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised && launched_by_mpi()) {
    MPI_Init(&argc, &argv);
    owns_mpi_ = true;
    initialised = 1;
  }
  if (initialised) comm_ = distributed::Communicator(MPI_COMM_WORLD);
#endif
  session_comm = &comm_;
}

MpiSession::~MpiSession() {
  session_comm = nullptr;
#if HEPEX_HAS_MPI
  if (owns_mpi_) MPI_Finalize();
#endif
}

const distributed::Communicator& communicator() {
  static const distributed::Communicator alone;
  return session_comm ? *session_comm : alone;
}

}  // namespace hepex::cli
