#include "hepex/reduce/detail/rank_shared_box.hpp"

#include <cstring>
#include <exception>

#include "hepex/core/error.hpp"

namespace hepex::reduce::detail {

namespace {

// Messages are strings of 64-bit words: rank 0's batch [tag, modulus, count,
// points...]; a rank's answer [tag, values..., ok bytes] or [tag, error text].
constexpr std::uint64_t tag_stop = 0, tag_batch = 1, tag_values = 2, tag_error = 3;

void put(std::string& bytes, const std::uint64_t* words, std::size_t n) {
  if (n > 0) bytes.append(reinterpret_cast<const char*>(words), n * sizeof(std::uint64_t));
}
void put(std::string& bytes, std::uint64_t word) { put(bytes, &word, 1); }

std::uint64_t word_at(const std::string& bytes, std::size_t k) {
  std::uint64_t w = 0;
  std::memcpy(&w, bytes.data() + k * sizeof w, sizeof w);
  return w;
}

// This rank's share of the batch in `message`, evaluated: its answer.
std::string answer(const reconstruct::BlackBox& box, const distributed::Communicator& comm,
                   const std::string& message) {
  const field::Zp64 f(word_at(message, 1));
  const std::size_t count = word_at(message, 2), n = box.variables(), F = box.functions();
  const auto [begin, end] = rank_share(count, comm.rank(), comm.size());
  std::vector<std::uint64_t> points((end - begin) * n), values;
  if (!points.empty())
    std::memcpy(points.data(), message.data() + (3 + begin * n) * 8, points.size() * 8);
  std::vector<std::uint8_t> ok;
  std::string out;
  try {
    if (end > begin) box.evaluate(f, end - begin, points, values, ok);
  } catch (const std::exception& e) {
    put(out, tag_error);
    out += std::string("rank ") + std::to_string(comm.rank()) + ": " + e.what();
    return out;
  }
  put(out, tag_values);
  put(out, values.data(), (end - begin) * F);
  if (end > begin) out.append(reinterpret_cast<const char*>(ok.data()), end - begin);
  return out;
}

}  // namespace

std::pair<std::size_t, std::size_t> rank_share(std::size_t count, int rank, int ranks) {
  const auto r = static_cast<std::size_t>(rank), R = static_cast<std::size_t>(ranks);
  return {count * r / R, count * (r + 1) / R};
}

RankSharedBox::RankSharedBox(const reconstruct::BlackBox& box,
                             const distributed::Communicator& comm)
    : box_(box), comm_(comm) {
  if (comm.rank() != 0)
    throw Error("RankSharedBox: made on rank " + std::to_string(comm.rank()) + ", not 0");
}

RankSharedBox::~RankSharedBox() {
  std::string stop;
  put(stop, tag_stop);
  comm_.broadcast(stop);
}

void RankSharedBox::evaluate(const field::Zp64& f, std::size_t count,
                             const std::vector<std::uint64_t>& points,
                             std::vector<std::uint64_t>& values,
                             std::vector<std::uint8_t>& ok) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const std::size_t n = box_.variables(), F = box_.functions();
  std::string message;
  put(message, tag_batch);
  put(message, f.modulus());
  put(message, count);
  put(message, points.data(), count * n);
  comm_.broadcast(message);
  const std::vector<std::string> answers = comm_.gather(answer(box_, comm_, message));
  values.assign(count * F, 0);
  ok.assign(count, 0);
  for (int r = 0; r < comm_.size(); ++r) {
    const std::string& a = answers[static_cast<std::size_t>(r)];
    if (word_at(a, 0) == tag_error) throw Error(a.substr(8), ErrorKind::runtime);
    const auto [begin, end] = rank_share(count, r, comm_.size());
    if (a.size() != 8 + (end - begin) * (F * 8 + 1))
      throw Error("RankSharedBox: rank " + std::to_string(r) + " answered a batch of another size",
                  ErrorKind::runtime);
    if (end == begin) continue;  // no points for this rank (memcpy takes no null pointer)
    std::memcpy(values.data() + begin * F, a.data() + 8, (end - begin) * F * 8);
    std::memcpy(ok.data() + begin, a.data() + 8 + (end - begin) * F * 8, end - begin);
  }
}

void serve_probes(const reconstruct::BlackBox& box, const distributed::Communicator& comm) {
  while (true) {
    std::string message;
    comm.broadcast(message);
    if (word_at(message, 0) == tag_stop) return;
    comm.gather(answer(box, comm, message));
  }
}

}  // namespace hepex::reduce::detail
