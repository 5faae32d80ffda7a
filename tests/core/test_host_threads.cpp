// HostThreads (core/host_threads.hpp), the pool of the reconstruction's
// algebra: every index of a for_each is visited exactly once whatever the
// count, grain and pool size; a body's exception reaches the caller and the
// pool works on afterwards; a for_each from inside a body runs inline; two
// threads sharing one pool both get complete results.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "hepex/core/host_threads.hpp"
#include "test_seed.hpp"

namespace {

using hepex::HostThreads;

TEST(HostThreads, EveryIndexExactlyOnce) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 41);
  // 0: the default (the host space's threads where it has several, as in
  // the GPU build's OpenMP; else the affinity mask's cores).
  for (const std::size_t size : {0u, 1u, 2u, 3u, 8u}) {
    HostThreads pool(size);
    if (size > 0) ASSERT_EQ(pool.size(), size);
    ASSERT_GE(pool.size(), 1u);
    for (int round = 0; round < 200; ++round) {
      const std::size_t count = rng() % 3 == 0 ? rng() % 5 : rng() % 5000;
      const std::size_t grain = 1 + rng() % 64;
      std::vector<std::atomic<int>> seen(count);
      pool.for_each(
          count,
          [&](std::size_t begin, std::size_t end) {
            ASSERT_LE(begin, end);
            ASSERT_LE(end, count);
            for (std::size_t i = begin; i < end; ++i) ++seen[i];
          },
          grain);
      for (std::size_t i = 0; i < count; ++i)
        ASSERT_EQ(seen[i].load(), 1)
            << "pool " << size << ", count " << count << ", grain " << grain << ", index " << i;
    }
  }
}

TEST(HostThreads, ABodysExceptionReachesTheCallerAndThePoolGoesOn) {
  for (const std::size_t size : {0u, 4u}) {
    HostThreads pool(size);
    for (int round = 0; round < 50; ++round) {
      EXPECT_THROW(pool.for_each(1000,
                                 [&](std::size_t begin, std::size_t end) {
                                   for (std::size_t i = begin; i < end; ++i)
                                     if (i == static_cast<std::size_t>(round * 17))
                                       throw std::runtime_error("index " + std::to_string(i));
                                 }),
                   std::runtime_error);
      std::atomic<std::size_t> sum{0};
      pool.for_each(1000, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) sum += i;
      });
      EXPECT_EQ(sum.load(), 999u * 1000u / 2);
    }
  }
}

TEST(HostThreads, NestedCallsRunInline) {
  HostThreads pool(0);
  std::atomic<std::size_t> visits{0};
  pool.for_each(40, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      pool.for_each(10, [&](std::size_t b, std::size_t e) { visits += e - b; });
  });
  EXPECT_EQ(visits.load(), 400u);
}

TEST(HostThreads, TwoCallersShareOnePool) {
  HostThreads pool(3);
  std::vector<std::size_t> totals(2, 0);
  std::vector<std::thread> callers;
  for (std::size_t c = 0; c < 2; ++c) {
    callers.emplace_back([&, c] {
      for (int round = 0; round < 100; ++round) {
        std::atomic<std::size_t> sum{0};
        pool.for_each(
            777, [&](std::size_t begin, std::size_t end) { sum += end - begin; }, 3);
        totals[c] += sum.load();
      }
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(totals[0], 77700u);
  EXPECT_EQ(totals[1], 77700u);
}

TEST(HostThreads, AvailableThreadsFollowTheAffinityMask) {
  EXPECT_GE(hepex::available_host_threads(), 1u);
  EXPECT_LE(hepex::available_host_threads(), std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_EQ(hepex::resolve_host_threads(0), hepex::available_host_threads());
  EXPECT_EQ(hepex::resolve_host_threads(5), 5u);
}

}  // namespace
