#pragma once
// IBP reduction: every target integral of a linear system (system.hpp) as a
// combination of master integrals with rational-function coefficients in
// the parameters (docs/reduce.md).
//
//  1. Learn once, at a random point mod a random 63-bit prime: the order's
//     elimination (detail/elimination.hpp) gives the pivots, the equations
//     the targets need and the masters.
//  2. A probe is a replay: at a parameter point, the needed equations'
//     coefficients (the compiled expression black box) and the same
//     elimination with the same pivots; a learned pivot that vanishes there
//     fails the point. The probe gives every coefficient of the table.
//  3. The table is reconstructed from that one black box (hepex::reconstruct,
//     every probe shared by all coefficients: factor scan, shifts, primes,
//     rational reconstruction over Q).
//  4. Checked mod a prime that took no part: at one random point a fresh
//     elimination of the whole system (not the replay) must find the same
//     masters and the table's values, at the others the learned
//     elimination's replay must give the table's values, else hepex::Error:
//     a wrong table is never returned.

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "hepex/distributed/communicator.hpp"
#include "hepex/reconstruct/polynomial.hpp"
#include "hepex/reconstruct/rational.hpp"
#include "hepex/reduce/system.hpp"

namespace hepex::reduce {

struct ReduceOptions {
  // The integral order, most complex first (every integral of the system
  // must be in it); empty: the default Laporta order (more_complex).
  std::vector<Integral> order;
  std::vector<Integral> targets;
  // Preferred masters: moved to the simplest end of the order (in the
  // order given), so that they are masters wherever the system allows.
  std::vector<Integral> preferred_masters;
  // A probe log (reconstruct/probe_log.hpp): every probe kept in this file,
  // so that a killed run resumes; its seed is taken when seed_given is
  // false. Removed after success if remove_checkpoint. Empty: none.
  std::string checkpoint;
  bool seed_given = true, remove_checkpoint = true;
  reconstruct::ReconstructOptions reconstruction;  // seed, primes, degree, factor scan, progress
  // Points mod another prime checking the table: a fresh elimination of
  // the whole system at the first, the learned one replayed at the others.
  std::size_t check_points = 2;
  // With a GPU: probe batches of at least this many points replay there,
  // smaller ones on the host (tests force the GPU with 1).
  std::size_t device_min_points = 4096;
  // Probe batches spread over these ranks (detail/rank_shared_box.hpp):
  // reduce() is then collective, every rank learns (the seed is rank 0's),
  // and the table comes back on rank 0 (the other ranks get a Reduction
  // with served set and nothing else). Null: this process alone.
  const distributed::Communicator* communicator = nullptr;
};

struct Reduction {
  std::vector<Integral> targets, masters;
  // table[t][m]: the coefficient of masters[m] in targets[t] (0 where absent).
  std::vector<std::vector<reconstruct::RationalFunction>> table;
  std::vector<std::size_t> master_targets;  // targets that are masters themselves
  std::vector<Integral> unmet_preferred;    // preferred masters that are not masters
  std::size_t replayed = 0;                 // probes answered by the checkpoint's log
  std::size_t equations = 0, equations_needed = 0, integrals = 0;
  std::size_t probes = 0, primes = 0;
  std::size_t instructions = 0, registers = 0;  // the traced replay program (per point)
  std::uint64_t seed = 0;
  double learn_seconds = 0, probe_seconds = 0, algebra_seconds = 0, check_seconds = 0;
  bool served = false;  // a rank other than 0: it evaluated probes, rank 0 has the table
};

// hepex::Error (usage) for a target or order problem before any work;
// reconstruct::ReconstructionFailure when the table needs more primes.
Reduction reduce(const System& system, const ReduceOptions& options);

// Steps 1 and 2 alone: the learned, traced reduction as a black box of the
// parameters whose functions are the table's T x M coefficients mod p (what
// reduce() reconstructs), with the masters. For benchmarks of the probes
// and for callers with a reconstruction of their own.
struct LearnedReduction {
  std::unique_ptr<reconstruct::BlackBox> box;
  std::vector<Integral> masters;
  std::size_t instructions = 0, registers = 0;
};
LearnedReduction learn_reduction(const System& system, const ReduceOptions& options);

// "TARGET -> (c1)*MASTER1 + (c2)*MASTER2 + ..." (or "TARGET -> 0"), one
// target a line, coefficients in hepex's expression grammar (factored where
// shorter if `factored`).
void write_table(std::ostream& out, const Reduction& r, const std::vector<std::string>& parameters,
                 bool factored);

}  // namespace hepex::reduce
