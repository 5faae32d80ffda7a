// Every family's entry points from several threads at once, against the
// oracles (issue 36, W1: three threads evaluating matrix elements through one
// Serial build got 14 of 15 results wrong, silently). hepex serialises its
// Kokkos work (core/kokkos_lock.hpp), so each thread must get exactly what it
// gets alone: RREF and products against FLINT, reconstructions against
// their known answers, MEs against MadGraph's reference events, from one
// shared object and from one object per thread.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <random>
#include <thread>
#include <vector>

#include "amplitudes/reference_data.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "hepex/linalg/rref.hpp"
#include "hepex/reconstruct/rational.hpp"
#include "linalg/flint_oracle.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex;

constexpr int threads = 4;

// Runs body(t, round) on `threads` threads at once, `rounds` times each; the
// failures (messages) of every thread.
std::vector<std::string> on_threads(int rounds, const std::function<std::string(int, int)>& body) {
  std::vector<std::string> failures(threads);
  std::atomic<int> ready{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      ++ready;
      while (ready.load() < threads) std::this_thread::yield();  // start together
      for (int r = 0; r < rounds && failures[t].empty(); ++r) {
        try {
          failures[t] = body(t, r);
        } catch (const std::exception& e) {
          failures[t] = std::string("threw: ") + e.what();
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  std::vector<std::string> out;
  for (int t = 0; t < threads; ++t)
    if (!failures[t].empty()) out.push_back("thread " + std::to_string(t) + ": " + failures[t]);
  return out;
}

Matrix<std::uint32_t> random_matrix(std::size_t rows, std::size_t cols, std::uint32_t p,
                                    std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Matrix<std::uint32_t> a(rows, cols);
  for (auto& x : a.data) x = static_cast<std::uint32_t>(rng() % p);
  // Rank deficiency: the last row a sum of the first two.
  for (std::size_t j = 0; j < cols; ++j) a(rows - 1, j) = (a(0, j) + a(1, j)) % p;
  return a;
}

// On the device space and the host space (OpenMP in a GPU build), by turns.
TEST(Threads, RrefAgainstFlint) {
  SCOPED_TRACE(test::seed_trace());
  const std::uint32_t p = 2147483647;
  const field::Zp32 f(p);
  const auto failures = on_threads(4, [&](int t, int r) -> std::string {
    const std::size_t n = 60 + 37 * static_cast<std::size_t>(t);
    auto a = random_matrix(n, n + 5, p, test::seed() + 100 * t + r);
    test::FlintMatrix oracle(a, p);
    const slong rank = nmod_mat_rref(oracle.get());
    const auto result = linalg::rref(f, a, (t + r) % 2 ? Place::host : Place::device);
    if (result.rank != static_cast<std::size_t>(rank)) return "rank " + std::to_string(result.rank);
    if (a.data != oracle.to_matrix<std::uint32_t>().data) return "the RREF differs from FLINT's";
    return {};
  });
  EXPECT_TRUE(failures.empty()) << failures.front();
}

TEST(Threads, ModgemmAgainstFlint) {
  SCOPED_TRACE(test::seed_trace());
  const std::uint32_t p = 65521;
  const field::Zp32 f(p);
  const auto failures = on_threads(3, [&](int t, int r) -> std::string {
    const std::size_t m = 40 + 21 * static_cast<std::size_t>(t), k = 70, n = 33;
    const auto a = random_matrix(m, k, p, test::seed() + 7 * t + r);
    const auto b = random_matrix(k, n, p, test::seed() + 7 * t + r + 1000);
    const char* methods[] = {"fp64", "int64", "int8", "multiword"};
    const auto c = linalg::modgemm(f, a, b, linalg::parse_gemm_method(methods[t % 4]));
    return c.data == test::flint_mul(a, b, p).data ? std::string() : "the product differs";
  });
  EXPECT_TRUE(failures.empty()) << failures.front();
}

TEST(Threads, ReconstructKnownFunctions) {
  SCOPED_TRACE(test::seed_trace());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"1/x + 1/y", "(x + y)/(x*y)"},
      {"(x^2 - y^2)/(x - y) + 3/7", "(7*x + 7*y + 3)/(7)"},
      {"(x*y + 2)^3/(x - 2*y + 5)", "(x^3*y^3 + 6*x^2*y^2 + 12*x*y + 8)/(x - 2*y + 5)"},
      {"x^5/(1 + x*y)", "(x^5)/(x*y + 1)"}};
  const auto failures = on_threads(3, [&](int t, int r) -> std::string {
    const auto& c = cases[static_cast<std::size_t>(t + r) % cases.size()];
    reconstruct::ReconstructOptions options;
    options.seed = test::seed() + static_cast<std::uint64_t>(t);
    const auto box =
        reconstruct::expression_black_box({io::Expression::parse(c.first, {"x", "y"})}, 2);
    const auto result = reconstruct::reconstruct(*box, options);
    const auto text = reconstruct::to_string(result.functions.at(0), {"x", "y"});
    return text == c.second ? std::string() : c.first + " gave " + text;
  });
  EXPECT_TRUE(failures.empty()) << failures.front();
}

// gg_ttgg on MadGraph's on-shell events: one MatrixElement shared by every
// thread, then one per thread (both were wrong before, issue 36 W1).
TEST(Threads, MatrixElementsAgainstMadGraph) {
  SCOPED_TRACE(test::seed_trace());
  using amplitudes::MatrixElement;
  const auto process = amplitudes::Process::gg_ttgg;
  const auto& info = amplitudes::process_info(process);
  const auto ref = test::read_reference(info, true, 48);
  const auto check = [&](MatrixElement& me) -> std::string {
    const auto values = me.evaluate(ref.momenta);
    for (std::size_t e = 0; e < values.size(); ++e) {
      if (!(std::abs(values[e] / ref.me[e] - 1) < 1e-12)) {
        return "event " + std::to_string(e) + ": " + std::to_string(values[e]) + " against " +
               std::to_string(ref.me[e]);
      }
    }
    return {};
  };
  MatrixElement shared(process);
  auto failures = on_threads(4, [&](int, int) { return check(shared); });
  EXPECT_TRUE(failures.empty()) << "shared: " << failures.front();
  failures = on_threads(2, [&](int, int) {
    MatrixElement own(process);
    return check(own);
  });
  EXPECT_TRUE(failures.empty()) << "one per thread: " << failures.front();
}

}  // namespace
