#include "hepex/distributed/communicator.hpp"

#include <climits>
#include <cstring>

#include "hepex/core/error.hpp"

namespace hepex::distributed {

#if HEPEX_HAS_MPI

namespace {

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw Error(std::string("MPI: ") + what + ": " + std::string(text, length), ErrorKind::runtime);
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

std::vector<std::vector<std::string>> Communicator::gather_parts(std::vector<std::string> parts,
                                                                 int root) const {
  std::vector<std::vector<std::string>> out;
  if (size_ == 1) {
    out.push_back(std::move(parts));
    return out;
  }
  // The parts' lengths first (one gather), then each part as its own message.
  std::vector<unsigned long long> lengths;
  for (const auto& part : parts) lengths.push_back(part.size());
  const int count = checked_int(lengths.size(), "a gather of parts");
  std::vector<int> counts(rank_ == root ? size_ : 0), displacements(counts.size());
  check(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm_), "MPI_Gather");
  std::size_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    displacements[r] = checked_int(total, "a gather of parts");
    total += static_cast<std::size_t>(counts[r]);
  }
  std::vector<unsigned long long> all_lengths(total);
  check(MPI_Gatherv(lengths.data(), count, MPI_UNSIGNED_LONG_LONG, all_lengths.data(),
                    counts.data(), displacements.data(), MPI_UNSIGNED_LONG_LONG, root, comm_),
        "MPI_Gatherv");
  constexpr int tag = 0x4865;  // point-to-point, so no match with any collective
  std::vector<MPI_Request> requests;
  if (rank_ != root) {
    for (const auto& part : parts) {
      requests.emplace_back();
      check(MPI_Isend(part.data(), checked_int(part.size(), "a gathered part"), MPI_CHAR, root, tag,
                      comm_, &requests.back()),
            "MPI_Isend");
    }
  } else {
    out.resize(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r) {
      auto& mine = out[static_cast<std::size_t>(r)];
      if (r == root) {
        mine = std::move(parts);
        continue;
      }
      const auto first = static_cast<std::size_t>(displacements[static_cast<std::size_t>(r)]);
      mine.resize(static_cast<std::size_t>(counts[static_cast<std::size_t>(r)]));
      for (std::size_t i = 0; i < mine.size(); ++i) {
        mine[i].resize(all_lengths[first + i]);
        requests.emplace_back();
        check(MPI_Irecv(mine[i].data(), checked_int(mine[i].size(), "a gathered part"), MPI_CHAR, r,
                        tag, comm_, &requests.back()),
              "MPI_Irecv");
      }
    }
  }
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
        "MPI_Waitall");
  return out;
}

std::vector<std::string> Communicator::all_gather(const std::string& bytes) const {
  if (size_ == 1) return {bytes};
  const int length = checked_int(bytes.size(), "an all-gathered message");
  std::vector<int> lengths(static_cast<std::size_t>(size_));
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm_), "MPI_Allgather");
  std::vector<int> displacements(lengths.size());
  std::size_t total = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    displacements[r] = checked_int(total, "an all-gather");
    total += static_cast<std::size_t>(lengths[r]);
  }
  std::string all(total, '\0');
  check(MPI_Allgatherv(bytes.data(), length, MPI_CHAR, all.data(), lengths.data(),
                       displacements.data(), MPI_CHAR, comm_),
        "MPI_Allgatherv");
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    out.push_back(all.substr(static_cast<std::size_t>(displacements[r]),
                             static_cast<std::size_t>(lengths[r])));
  }
  return out;
}

void Communicator::all_gather_into(const void* mine, void* all,
                                   const std::vector<std::size_t>& counts, std::size_t unit) const {
  if (counts.size() != static_cast<std::size_t>(size_)) {
    throw Error("all_gather_into: " + std::to_string(counts.size()) + " counts for " +
                std::to_string(size_) + " ranks");
  }
  if (size_ == 1) {
    if (counts[0] > 0) std::memcpy(all, mine, counts[0] * unit);
    return;
  }
  std::vector<int> sizes(counts.size()), displacements(counts.size());
  std::size_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    sizes[r] = checked_int(counts[r], "an all-gathered part's values");
    displacements[r] = checked_int(total, "an all-gather's values");
    total += counts[r];
  }
  MPI_Datatype value = MPI_DATATYPE_NULL;
  check(MPI_Type_contiguous(checked_int(unit, "a value"), MPI_BYTE, &value), "MPI_Type_contiguous");
  check(MPI_Type_commit(&value), "MPI_Type_commit");
  const int code = MPI_Allgatherv(mine, sizes[static_cast<std::size_t>(rank_)], value, all,
                                  sizes.data(), displacements.data(), value, comm_);
  MPI_Type_free(&value);
  check(code, "MPI_Allgatherv");
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
std::vector<std::vector<std::string>> Communicator::gather_parts(std::vector<std::string> parts,
                                                                 int) const {
  std::vector<std::vector<std::string>> out;
  out.push_back(std::move(parts));
  return out;
}
std::vector<std::string> Communicator::all_gather(const std::string& bytes) const {
  return {bytes};
}
void Communicator::all_gather_into(const void* mine, void* all,
                                   const std::vector<std::size_t>& counts, std::size_t unit) const {
  if (counts.size() != 1) {
    throw Error("all_gather_into: " + std::to_string(counts.size()) + " counts for 1 rank");
  }
  if (counts[0] > 0) std::memcpy(all, mine, counts[0] * unit);
}
long long Communicator::max(long long value) const { return value; }

#endif

int device_for_rank(const Communicator& comm, int visible_devices) {
  return visible_devices > 0 ? comm.node_rank() % visible_devices : 0;
}

}  // namespace hepex::distributed
