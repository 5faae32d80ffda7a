// Zippel's method mod p on random sparse polynomials (8 variables, total
// degree 30, 1000 terms: the CI size; set HEPEX_ZIPPEL_TERMS for larger runs),
// many functions at once, and a black box that fails on a fraction of points.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/zippel.hpp"
#include "random_functions.hpp"
#include "test_seed.hpp"

namespace {

using hepex::field::Zp64;
using namespace hepex::reconstruct;

PolynomialModP image(const PolynomialQ& q, const Zp64& f) {
  PolynomialModP p{q.variables, q.exponents, {}};
  for (const auto& c : q.coefficients) {
    p.coefficients.push_back(f.mul(mpz_fdiv_ui(c.get_num_mpz_t(), f.modulus()),
                                   f.inv(mpz_fdiv_ui(c.get_den_mpz_t(), f.modulus()))));
  }
  p.sort();
  return p;
}

// The polynomials as a host black box: per point, tables of powers, then
// one product per term (independent of the library's evaluation).
HostBlackBox polynomial_box(const std::vector<PolynomialModP>& polys, std::size_t variables,
                            std::uint32_t degree, std::size_t* failures = nullptr) {
  return HostBlackBox(
      variables, polys.size(), [=](const Zp64& f, const std::uint64_t* x, std::uint64_t* out) {
        // Fails on about 1/64 of the points when asked to: the
        // probes are replaced (a run of T+1 successes is
        // unlikely to be the first T+1 probes).
        std::uint64_t hash = 0;
        for (std::size_t v = 0; v < variables; ++v) hash ^= x[v] * (2 * v + 1);
        if (failures != nullptr && hash % 64 == 0) {
          ++*failures;
          return false;
        }
        std::vector<std::uint64_t> power(variables * (degree + 1));
        for (std::size_t v = 0; v < variables; ++v) {
          power[v * (degree + 1)] = 1;
          for (std::uint32_t d = 1; d <= degree; ++d)
            power[v * (degree + 1) + d] = f.mul(power[v * (degree + 1) + d - 1], x[v]);
        }
        for (std::size_t g = 0; g < polys.size(); ++g) {
          std::uint64_t sum = 0;
          for (std::size_t t = 0; t < polys[g].terms(); ++t) {
            std::uint64_t m = polys[g].coefficients[t];
            for (std::size_t v = 0; v < variables; ++v)
              m = f.mul(m, power[v * (degree + 1) + polys[g].exponent(t)[v]]);
            sum = f.add(sum, m);
          }
          out[g] = sum;
        }
        return true;
      });
}

std::size_t terms_from_environment(std::size_t fallback) {
  const char* text = std::getenv("HEPEX_ZIPPEL_TERMS");
  return text != nullptr ? std::strtoull(text, nullptr, 10) : fallback;
}

TEST(Zippel, SparsePolynomialEightVariablesDegree30) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const Zp64 f(hepex::field::large_primes(1).front());
  const std::size_t n = 8;
  const std::uint32_t degree = 30;
  const std::vector<PolynomialModP> truth = {
      image(hepex::test::random_polynomial(rng, n, terms_from_environment(1000), degree, 60, true),
            f),
      image(hepex::test::random_polynomial(rng, n, 40, degree, 60, false), f),
      PolynomialModP{n, {}, {}}};
  const auto box = polynomial_box(truth, n, degree);
  ZippelOptions options;
  auto got = zippel(box, f, hepex::test::seed(), options);
  ASSERT_EQ(got.size(), truth.size());
  for (std::size_t g = 0; g < truth.size(); ++g) {
    got[g].sort();
    EXPECT_TRUE(got[g].same_support(truth[g])) << "function " << g;
    EXPECT_EQ(got[g].coefficients, truth[g].coefficients) << "function " << g;
  }
}

TEST(Zippel, BlackBoxFailingOnSomePoints) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 7);
  const Zp64 f(hepex::field::large_primes(3).back());
  const std::size_t n = 4;
  const std::vector<PolynomialModP> truth = {
      image(hepex::test::random_polynomial(rng, n, 60, 12, 30, true), f)};
  std::size_t failures = 0;
  const auto box = polynomial_box(truth, n, 12, &failures);
  ZippelOptions options;
  auto got = zippel(box, f, hepex::test::seed(), options);
  got[0].sort();
  EXPECT_GT(failures, 0u);
  EXPECT_TRUE(got[0].same_support(truth[0]));
  EXPECT_EQ(got[0].coefficients, truth[0].coefficients);
}

TEST(Zippel, DegreeBeyondTheLimitIsANegativeAnswer) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const Zp64 f(1000003);
  const std::vector<std::uint32_t> e{9};
  PolynomialModP x9{1, e, {1}};
  const auto box = polynomial_box({x9}, 1, 9);
  ZippelOptions options;
  options.max_degree = 5;
  try {
    zippel(box, f, 1, options);
    ADD_FAILURE() << "degree 9 accepted with max_degree 5";
  } catch (const hepex::Error& err) {
    EXPECT_EQ(err.exit_code(), 3);
  }
}

}  // namespace
