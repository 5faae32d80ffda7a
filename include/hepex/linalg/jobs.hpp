#pragma once
// RREFs of many matrices as one job list (distributed/job.hpp): a job per
// matrix, its result the RREF already written in the output format (so rank
// 0 moves the bytes of every job to the output as they are) with its shape,
// rank, pivots and time. What `hepex rref A.mtx B.mtx ...` runs, over MPI
// ranks and with --checkpoint; the same from C++ and Python.

#include <cstddef>
#include <string>
#include <vector>

#include "hepex/core/spaces.hpp"
#include "hepex/distributed/job.hpp"
#include "hepex/io/matrix_file.hpp"

namespace hepex::linalg {

using io::MatrixFormat;
using MatrixInput = io::MatrixSource;

struct RrefJobResult {
  std::size_t rows = 0, cols = 0, rank = 0;
  double seconds = 0;       // the elimination alone
  std::vector<int> pivots;  // pivot columns, increasing
  std::string matrix;       // the RREF, in the job list's MatrixFormat

  bool operator==(const RrefJobResult& o) const {
    return rows == o.rows && cols == o.cols && rank == o.rank && seconds == o.seconds &&
           pivots == o.pivots && matrix == o.matrix;
  }
};

// F: field::Zp32, Zp64, Real64 or Complex128 (instantiated in src/linalg/jobs.cpp).
// Inputs: io::MatrixSource (a file, or text already read).
template <class F>
class RrefJobs final : public distributed::Job<RrefJobResult> {
 public:
  // `limits`: the most bytes a matrix may take, and how many copies of it
  // the elimination holds (io::ReadLimits; the CLI passes the host's and
  // the device's memory). Inputs are read when their job runs.
  RrefJobs(F field, std::vector<MatrixInput> inputs, Place place, MatrixFormat format,
           io::ReadLimits limits);

  // The field, the format and every input by content (files fingerprinted).
  std::string identity() const override;
  std::size_t size() const override { return inputs_.size(); }
  std::vector<RrefJobResult> run(const std::vector<std::size_t>& jobs) override;
  // The matrix's bytes, then the line "\nhepex-rref BYTES ROWS COLS RANK
  // SECONDS(hexfloat) PIVOT..." (after the matrix, so that neither encoding
  // nor decoding copies it).
  std::string encode(RrefJobResult result) const override;
  RrefJobResult decode(std::string bytes) const override;

  const std::vector<MatrixInput>& inputs() const { return inputs_; }

 private:
  F field_;
  std::vector<MatrixInput> inputs_;
  Place place_;
  MatrixFormat format_;
  io::ReadLimits limits_;
};

}  // namespace hepex::linalg
