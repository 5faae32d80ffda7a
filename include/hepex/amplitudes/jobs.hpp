#pragma once
// RAMBO batches of matrix elements as one job list (distributed/job.hpp):
// batch b holds events [b N, (b + 1) N) of one RAMBO stream, so B batches
// of N are the events of one run of B N, and a multi-rank run's sums are
// the single rank's bit for bit. What `hepex me --batches B` runs, over MPI
// ranks and with --checkpoint; the same from C++ and Python.

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/distributed/job.hpp"

namespace hepex::amplitudes {

struct RamboBatch {
  double sum = 0;      // the batch's MEs added on the host in event order
  double seconds = 0;  // the evaluation alone (momenta on the device -> MEs there)

  bool operator==(const RamboBatch& o) const { return sum == o.sum && seconds == o.seconds; }
};

struct RamboBatchSettings {
  std::size_t events = 16384;  // per batch
  std::size_t batches = 1;
  std::uint64_t seed = 20261122;
  double sqrt_s = 1500.0;            // GeV
  std::ostream* progress = nullptr;  // a line per batch run ("me: batch 3 of 8: ...")
};

// hepex::Error ("--events N: a batch needs X GiB ...") when a batch of
// `events` events of `info`'s process cannot fit in the host's or the
// device's memory (momenta and MEs).
void check_batch_memory(std::size_t events, const ProcessInfo& info);

class RamboBatchJobs final : public distributed::Job<RamboBatch> {
 public:
  // `me` evaluates every batch (it must outlive this object). hepex::Error
  // before any work when a batch's momenta and MEs cannot fit in memory.
  RamboBatchJobs(MatrixElement& me, RamboBatchSettings settings);

  // The process, the settings, and every option the MEs' bits depend on.
  std::string identity() const override;
  std::size_t size() const override { return settings_.batches; }
  std::vector<RamboBatch> run(const std::vector<std::size_t>& jobs) override;
  // "SUM SECONDS", both hexfloat (exact).
  std::string encode(RamboBatch batch) const override;
  RamboBatch decode(std::string bytes) const override;

  // One batch (what run() does for each job).
  RamboBatch evaluate(std::size_t batch);

 private:
  MatrixElement& me_;
  RamboBatchSettings settings_;
};

}  // namespace hepex::amplitudes
