// ColumnVectorSpace and function_space_basis over Z/p, against spaces built
// with known dimensions and intersections.
#include <gtest/gtest.h>

#include <random>

#include "flint_oracle.hpp"
#include "hepex/core/random.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/linalg/vector_space.hpp"
#include "test_seed.hpp"

namespace {

using Word = std::uint64_t;
using hepex::Matrix;
using hepex::linalg::ColumnVectorSpace;

Matrix<Word> random(std::size_t r, std::size_t c, std::uint64_t p, std::mt19937_64& rng) {
  Matrix<Word> a(r, c);
  for (auto& x : a.data) x = rng() % p;
  return a;
}

TEST(ColumnVectorSpace, DimensionContainmentAndIntersection) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const std::uint64_t p = 2147483647;
  const hepex::field::Zp64 f(p);
  for (int trial = 0; trial < hepex::test::cases(20); ++trial) {
    // U = span(S | X), W = span(S | Y) with S (shared, dim s), X, Y generic in
    // an ambient space of dimension n >= s + x + y: dim(U ∩ W) = s.
    const std::size_t n = 14, s = 1 + trial % 4, x = 2 + trial % 3, y = 3;
    const auto shared = random(n, s, p, rng), only_u = random(n, x, p, rng),
               only_w = random(n, y, p, rng);
    // Redundant generators: U gets S twice and a combination of X.
    auto gen_u = hepex::linalg::detail::side_by_side(
        hepex::linalg::detail::side_by_side(shared, only_u), shared);
    const ColumnVectorSpace<hepex::field::Zp64> u(f, gen_u);
    const ColumnVectorSpace<hepex::field::Zp64> w(
        f, hepex::linalg::detail::side_by_side(only_w, shared));
    EXPECT_EQ(u.dimension(), s + x);
    EXPECT_EQ(w.dimension(), s + y);
    EXPECT_TRUE(u.contains(shared));
    EXPECT_TRUE(u.contains(hepex::test::flint_mul(only_u, random(x, 2, p, rng), p)));
    EXPECT_FALSE(u.contains(only_w));
    const auto both = u.intersection(w);
    EXPECT_EQ(both.dimension(), s);
    EXPECT_TRUE(u.contains(both));
    EXPECT_TRUE(w.contains(both));
    EXPECT_TRUE(both.contains(ColumnVectorSpace<hepex::field::Zp64>(f, shared)));
  }
}

TEST(FunctionSpace, FindsTheIndependentFunctions) {
  const hepex::field::Zp64 f(hepex::field::large_primes(1)[0]);
  using Point = std::pair<Word, Word>;
  // x, y, x + y, x*y, 2*x*y - x, y^2: a basis is {x, y, x*y, y^2} = {0, 1, 3, 5}.
  const std::function<std::vector<Word>(const Point&)> evaluate = [&](const Point& pt) {
    const Word x = pt.first, y = pt.second, xy = f.mul(x, y);
    return std::vector<Word>{x, y, f.add(x, y), xy, f.sub(f.add(xy, xy), x), f.mul(y, y)};
  };
  const std::function<Point(std::size_t)> sample = [&](std::size_t i) {
    return Point{f.from_uint(hepex::random::counter_u64(1, 2 * i)),
                 f.from_uint(hepex::random::counter_u64(1, 2 * i + 1))};
  };
  const auto basis =
      hepex::linalg::function_space_basis<hepex::field::Zp64, Point>(f, 6, evaluate, sample);
  EXPECT_EQ(basis.basis_functions, (std::vector<int>{0, 1, 3, 5}));
  EXPECT_GE(basis.samples, 7u);

  const std::function<std::vector<Word>(const Point&)> wrong = [](const Point&) {
    return std::vector<Word>{1, 2};
  };
  EXPECT_THROW(
      (hepex::linalg::function_space_basis<hepex::field::Zp64, Point>(f, 6, wrong, sample)),
      hepex::Error);
}

}  // namespace
