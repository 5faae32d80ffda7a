#include "hepex/distributed/communicator.hpp"

#include <climits>

#include "hepex/core/error.hpp"

namespace hepex::distributed {

#if HEPEX_HAS_MPI

namespace {

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw Error(std::string("MPI: ") + what + ": " + std::string(text, length),
                ErrorKind::runtime);
  }
}

int checked_int(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT_MAX)) {
    throw Error(std::string("MPI: ") + what + " of " + std::to_string(n) +
                    " bytes is beyond a message's int count",
                ErrorKind::runtime);
  }
  return static_cast<int>(n);
}

}  // namespace

Communicator::Communicator(MPI_Comm comm) : comm_(comm) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) throw Error("Communicator: MPI is not initialised", ErrorKind::runtime);
  check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  MPI_Comm_rank(node, &node_rank_);
  MPI_Comm_size(node, &node_size_);
  MPI_Comm_free(&node);
}

void Communicator::barrier() const {
  if (size_ > 1) check(MPI_Barrier(comm_), "MPI_Barrier");
}

void Communicator::broadcast(std::string& bytes, int root) const {
  if (size_ == 1) return;
  unsigned long long length = bytes.size();
  check(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, comm_), "MPI_Bcast");
  bytes.resize(length);
  check(MPI_Bcast(bytes.data(), checked_int(length, "a broadcast"), MPI_CHAR, root, comm_),
        "MPI_Bcast");
}

std::vector<std::string> Communicator::gather(const std::string& bytes, int root) const {
  if (size_ == 1) return {bytes};
  const int length = checked_int(bytes.size(), "a gathered message");
  std::vector<int> lengths(rank_ == root ? size_ : 0);
  check(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, root, comm_), "MPI_Gather");
  std::vector<int> displacements(lengths.size());
  std::size_t total = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    displacements[r] = checked_int(total, "a gather");
    total += static_cast<std::size_t>(lengths[r]);
  }
  std::string all(total, '\0');
  check(MPI_Gatherv(bytes.data(), length, MPI_CHAR, all.data(), lengths.data(),
                    displacements.data(), MPI_CHAR, root, comm_),
        "MPI_Gatherv");
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    out.push_back(all.substr(static_cast<std::size_t>(displacements[r]),
                             static_cast<std::size_t>(lengths[r])));
  }
  return out;
}

long long Communicator::max(long long value) const {
  if (size_ == 1) return value;
  long long result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_LONG_LONG, MPI_MAX, comm_), "MPI_Allreduce");
  return result;
}

#else

void Communicator::barrier() const {}
void Communicator::broadcast(std::string&, int) const {}
std::vector<std::string> Communicator::gather(const std::string& bytes, int) const {
  return {bytes};
}
long long Communicator::max(long long value) const { return value; }

#endif

int device_for_rank(const Communicator& comm, int visible_devices) {
  return visible_devices > 0 ? comm.node_rank() % visible_devices : 0;
}

}  // namespace hepex::distributed
