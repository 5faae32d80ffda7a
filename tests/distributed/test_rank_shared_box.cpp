// RankSharedBox / serve_probes (reduce's probe batches over MPI ranks) on the
// test communicator: batches of random sizes (none, fewer points than
// ranks, many) come back exactly as the box alone gives them, failed points
// included, and a rank's failure reaches rank 0 as an error naming it, after
// which the ranks still serve. Alone (hepex_tests) the same checks run on one
// rank.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "distributed/test_communicator.hpp"
#include "hepex/core/error.hpp"
#include "hepex/reduce/detail/rank_shared_box.hpp"
#include "test_seed.hpp"

namespace {

using hepex::test::communicator;

// f_k(x) = (k + 1) x0 + x1^2 + k mod p; undefined where x0 = 3 mod 7; throws
// where x1 = 13 (the failure test's point).
class TestBox : public hepex::reconstruct::BlackBox {
 public:
  std::size_t variables() const override { return 2; }
  std::size_t functions() const override { return 5; }
  void evaluate(const hepex::field::Zp64& f, std::size_t count,
                const std::vector<std::uint64_t>& points, std::vector<std::uint64_t>& values,
                std::vector<std::uint8_t>& ok) const override {
    values.assign(count * 5, 0);
    ok.assign(count, 1);
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t x0 = points[2 * i], x1 = points[2 * i + 1];
      if (x1 == 13) throw std::runtime_error("the test's failing point");
      if (x0 % 7 == 3) ok[i] = 0;
      for (std::uint64_t k = 0; k < 5; ++k)
        values[i * 5 + k] =
            f.add(f.add(f.mul(f.from_uint(k + 1), x0), f.mul(x1, x1)), f.from_uint(k));
    }
  }
};

TEST(RankSharedBox, BatchesComeBackAsTheBoxGivesThem) {
  const auto& comm = communicator();
  const TestBox box;
  if (comm.rank() != 0) {
    hepex::reduce::detail::serve_probes(box, comm);
    return;
  }
  const std::uint64_t seed = hepex::test::seed();
  std::mt19937_64 rng(seed);
  const hepex::field::Zp64 f(2305843009213693951ull);
  {
    hepex::reduce::detail::RankSharedBox shared(box, comm);
    for (int batch = 0; batch < 60; ++batch) {
      const std::size_t count = batch < 4 ? static_cast<std::size_t>(batch) : rng() % 200;
      std::vector<std::uint64_t> points(2 * count);
      for (auto& x : points) x = rng() % 1000 + 14;  // never the failing 13
      std::vector<std::uint64_t> want, got;
      std::vector<std::uint8_t> want_ok, got_ok;
      box.evaluate(f, count, points, want, want_ok);
      shared.evaluate(f, count, points, got, got_ok);
      ASSERT_EQ(got, want) << "seed " << seed << ", batch " << batch << " of " << count;
      ASSERT_EQ(got_ok, want_ok) << "seed " << seed << ", batch " << batch;
    }
    // A point that throws, in the last rank's share: rank 0 gets its error.
    const std::size_t count = 10;
    std::vector<std::uint64_t> points(2 * count, 20);
    points[2 * (count - 1) + 1] = 13;
    std::vector<std::uint64_t> values;
    std::vector<std::uint8_t> ok;
    try {
      shared.evaluate(f, count, points, values, ok);
      FAIL() << "a failing evaluation came back as values";
    } catch (const hepex::Error& e) {
      EXPECT_NE(std::string(e.what()).find("rank " + std::to_string(comm.size() - 1)),
                std::string::npos)
          << e.what();
    }
    // ... and the ranks still serve.
    points.assign(2 * count, 30);
    shared.evaluate(f, count, points, values, ok);
    EXPECT_EQ(ok, std::vector<std::uint8_t>(count, 1));
  }
}

TEST(RankSharedBox, SharesAreContiguousAndCoverTheBatch) {
  for (int ranks = 1; ranks <= 9; ++ranks) {
    for (std::size_t count = 0; count <= 40; ++count) {
      std::size_t next = 0;
      for (int r = 0; r < ranks; ++r) {
        const auto [begin, end] = hepex::reduce::detail::rank_share(count, r, ranks);
        ASSERT_EQ(begin, next) << ranks << " ranks, " << count << " points, rank " << r;
        ASSERT_LE(end - begin, count / static_cast<std::size_t>(ranks) + 1);
        next = end;
      }
      ASSERT_EQ(next, count);
    }
  }
}

}  // namespace
