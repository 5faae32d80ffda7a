// The ansatz matrix builder against a direct host evaluation that computes
// each monomial as a product of powers (a different path from the kernel's
// product of repeated factors).
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "exec_spaces.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/real.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/matrix_builder.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace {

using hepex::Matrix;

template <class F>
typename F::value_type direct(const F& f, const Matrix<typename F::value_type>& samples,
                              std::size_t s, const std::vector<int>& monomial,
                              const std::vector<typename F::value_type>& prefactors) {
  std::map<int, std::uint64_t> powers;
  for (int v : monomial) ++powers[v];
  auto value = prefactors.empty() ? f.one() : prefactors[s];
  for (const auto& [v, e] : powers) value = f.mul(value, f.pow(samples(s, v), e));
  return value;
}

class MatrixBuilderOnSpace : public hepex::test::OnSpace {};

TEST_P(MatrixBuilderOnSpace, Zp64MatchesDirectEvaluationForSeveralSystems) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const hepex::field::Zp64 f(hepex::field::large_primes(1)[0]);
  const std::size_t samples_count = 37, variables = 6;
  Matrix<std::uint64_t> samples(samples_count, variables);
  for (auto& x : samples.data) x = f.from_uint(rng());
  std::vector<hepex::linalg::AnsatzSystem<std::uint64_t>> systems(3);
  for (auto& sys : systems) {
    for (int m = 0; m < 50; ++m) {
      std::vector<int> monomial(rng() % 7);  // degrees 0..6, mixed in one system
      for (auto& v : monomial) v = static_cast<int>(rng() % variables);
      sys.monomials.push_back(monomial);
    }
  }
  for (std::size_t s = 0; s < samples_count; ++s)
    systems[1].prefactors.push_back(f.from_uint(rng()));
  {
    const auto built = hepex::linalg::build_matrices(f, samples, systems, backend());
    ASSERT_EQ(built.size(), systems.size());
    for (std::size_t k = 0; k < systems.size(); ++k) {
      ASSERT_EQ(built[k].rows, samples_count);
      ASSERT_EQ(built[k].cols, systems[k].monomials.size());
      for (std::size_t s = 0; s < samples_count; ++s)
        for (std::size_t m = 0; m < systems[k].monomials.size(); ++m)
          ASSERT_EQ(built[k](s, m),
                    direct(f, samples, s, systems[k].monomials[m], systems[k].prefactors))
              << "system " << k << " sample " << s << " monomial " << m;
    }
  }
}

TEST_P(MatrixBuilderOnSpace, Real64MatchesDirectEvaluation) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 1);
  const hepex::field::Real64 f;
  Matrix<double> samples(11, 3);
  for (auto& x : samples.data) x = hepex::test::UniformReal(-2, 2)(rng);
  hepex::linalg::AnsatzSystem<double> sys{{{}, {0}, {1, 1}, {0, 1, 2}, {2, 2, 2, 0}}, {}};
  const auto built = hepex::linalg::build_matrices(f, samples, {sys}, backend());
  for (std::size_t s = 0; s < 11; ++s)
    for (std::size_t m = 0; m < sys.monomials.size(); ++m)
      EXPECT_NEAR(built[0](s, m), direct(f, samples, s, sys.monomials[m], {}), 1e-12);
}

TEST(MatrixBuilder, RejectsBadIndicesAndPrefactorCounts) {
  const hepex::field::Zp32 f(65521);
  Matrix<std::uint32_t> samples(4, 2, 1);
  EXPECT_THROW(hepex::linalg::build_matrices(f, samples, {{{{0, 2}}, {}}}), hepex::Error);
  EXPECT_THROW(hepex::linalg::build_matrices(f, samples, {{{{-1}}, {}}}), hepex::Error);
  EXPECT_THROW(hepex::linalg::build_matrices(f, samples, {{{{0}}, {1, 2, 3}}}), hepex::Error);
}

HEPEX_TEST_ON_SPACES(MatrixBuilderOnSpace);

}  // namespace
