// amplitudes::RamboBatchJobs over the test communicator (one process in
// hepex_tests, two ranks in hepex_mpi_tests): batch b's sum is, bit for bit,
// the sum in event order of the MEs of events [b N, (b + 1) N) of one RAMBO
// stream evaluated in one piece; a checkpoint skips every batch; results
// survive encoding; a batch too large for memory is refused before any work.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <random>

#include "distributed/counting_job.hpp"
#include "distributed/test_communicator.hpp"
#include "hepex/amplitudes/jobs.hpp"
#include "hepex/amplitudes/rambo.hpp"
#include "hepex/core/error.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex::amplitudes;
using hepex::test::communicator;

TEST(RamboBatchJobs, BatchSumsAreThoseOfOneStreamOnAnyRankCount) {
  std::mt19937_64 rng(hepex::test::seed());
  for (const Process process : {Process::gg_tt, Process::gg_ttg}) {
    SCOPED_TRACE(hepex::test::seed_trace() + " " + process_info(process).name);
    MatrixElement me(process);
    RamboBatchSettings settings;
    settings.events = 1 + hepex::test::random_below(rng, 40);
    settings.batches = 1 + hepex::test::random_below(rng, 6);
    settings.seed = hepex::test::random_word(rng);
    settings.sqrt_s = hepex::test::random_real(rng, 600.0, 14000.0);
    RamboBatchJobs jobs(me, settings);
    hepex::test::CountingJob<RamboBatch> counting(jobs);
    hepex::distributed::RunOptions options;
    options.checkpoint = hepex::test::shared_scratch_name(std::string("rambo-batch-jobs-") +
                                                          process_info(process).name);
    options.chunk = 1 + hepex::test::random_below(rng, 3);
    const auto results = hepex::distributed::run(communicator(), counting, options);

    // The oracle: all B N events at once, summed per batch in event order.
    const std::size_t n = settings.events * settings.batches;
    const auto& info = me.info();
    MomentaView<MatrixElement::Memory> momenta("momenta", n, info.particles, 4);
    rambo(hepex::DeviceSpace(), momenta, settings.sqrt_s, settings.seed, 0,
          me.options().parameters.top_mass);
    Kokkos::View<double*, MatrixElement::Memory> values("values", n);
    me.evaluate(momenta, values);
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
    if (communicator().rank() == 0) {
      ASSERT_EQ(results.size(), settings.batches);
      for (std::size_t b = 0; b < settings.batches; ++b) {
        double sum = 0;
        for (std::size_t e = b * settings.events; e < (b + 1) * settings.events; ++e)
          sum += host(e);
        EXPECT_EQ(results[b].sum, sum) << "batch " << b;
        EXPECT_GT(results[b].sum, 0);
        EXPECT_GE(results[b].seconds, 0);
      }
    }
    counting.ran = 0;
    const auto again = hepex::distributed::run(communicator(), counting, options);
    EXPECT_EQ(communicator().max(static_cast<long long>(counting.ran)), 0);
    if (communicator().rank() == 0) EXPECT_TRUE(again == results);
  }
}

TEST(RamboBatchJobs, ResultsSurviveEncodingAndTooLargeBatchesAreRefused) {
  MatrixElement me(Process::gg_tt);
  RamboBatchJobs jobs(me, {});
  std::mt19937_64 rng(hepex::test::seed());
  for (int trial = 0; trial < hepex::test::cases(100); ++trial) {
    const RamboBatch r{hepex::test::random_real(rng, -1e300, 1e300),
                       hepex::test::random_real(rng, 0, 1e-3)};
    EXPECT_TRUE(jobs.decode(jobs.encode(r)) == r) << hepex::test::seed_trace();
  }
  for (const std::string bad : {"", "0x1p+0", "0x1p+0 0x1p+0 0x1p+0", "1q 0x1p+0"})
    EXPECT_THROW(jobs.decode(bad), hepex::Error) << bad;
  RamboBatchSettings huge;
  huge.events = std::size_t{1} << 60;
  try {
    RamboBatchJobs refused(me, huge);
    ADD_FAILURE() << "a batch of 2^60 events was accepted";
  } catch (const hepex::Error& e) {
    EXPECT_NE(std::string(e.what()).find("GiB"), std::string::npos) << e.what();
  }
}

}  // namespace
