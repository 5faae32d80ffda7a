// Newton and Thiele interpolation with early termination, against FLINT:
// nmod_poly interpolation for polynomials, nmod_poly arithmetic for the
// cross-multiplied check of rational functions.
#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/detail/univariate.hpp"
#include "test_seed.hpp"

namespace {

using hepex::field::Zp64;
using hepex::reconstruct::detail::NewtonBatch;
using hepex::reconstruct::detail::RationalFit;
using hepex::reconstruct::detail::Thiele;

class FlintPoly {
 public:
  explicit FlintPoly(std::uint64_t p) { nmod_poly_init(p_, p); }
  FlintPoly(std::uint64_t p, const std::vector<std::uint64_t>& c) : FlintPoly(p) {
    for (std::size_t k = 0; k < c.size(); ++k) nmod_poly_set_coeff_ui(p_, k, c[k]);
  }
  ~FlintPoly() { nmod_poly_clear(p_); }
  FlintPoly(const FlintPoly&) = delete;
  FlintPoly& operator=(const FlintPoly&) = delete;
  nmod_poly_struct* get() { return p_; }
  std::vector<std::uint64_t> coefficients() const {
    std::vector<std::uint64_t> c(nmod_poly_length(p_));
    for (std::size_t k = 0; k < c.size(); ++k) c[k] = nmod_poly_get_coeff_ui(p_, k);
    return c;
  }

 private:
  nmod_poly_t p_;
};

std::vector<std::uint64_t> random_poly(std::mt19937_64& rng, const Zp64& f, std::size_t degree) {
  std::vector<std::uint64_t> c(degree + 1);
  for (auto& x : c) x = f.from_uint(rng());
  if (c.back() == 0) c.back() = 1;
  return c;
}

// num/den == n/d (cross-multiplied by FLINT), of degrees exactly (dn, dd).
void expect_same_rational(std::uint64_t p, const std::vector<std::uint64_t>& num,
                          const std::vector<std::uint64_t>& den, FlintPoly& n, FlintPoly& d,
                          std::size_t dn, std::size_t dd) {
  FlintPoly rn(p, num), rd(p, den), left(p), right(p);
  nmod_poly_mul(left.get(), rn.get(), d.get());
  nmod_poly_mul(right.get(), n.get(), rd.get());
  EXPECT_TRUE(nmod_poly_equal(left.get(), right.get())) << dn << "/" << dd;
  EXPECT_EQ(num.size(), dn + 1);
  EXPECT_EQ(den.size(), dd + 1);
}

TEST(Newton, MatchesFlintInterpolationAndStopsEarly) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const std::uint64_t p = hepex::field::large_primes(1).front();
  const Zp64 f(p);
  for (std::size_t degree : {0u, 1u, 5u, 30u, 64u}) {
    // Three functions on shared nodes: of degree `degree`, degree/2 and zero.
    const auto a = random_poly(rng, f, degree), b = random_poly(rng, f, degree / 2);
    FlintPoly fa(p, a), fb(p, b);
    NewtonBatch newton(f, 3);
    std::vector<std::uint64_t> xs, ys;
    while (!newton.converged()) {
      const std::uint64_t x = f.from_uint(rng());
      const std::uint64_t y[3] = {nmod_poly_evaluate_nmod(fa.get(), x),
                                  nmod_poly_evaluate_nmod(fb.get(), x), 0};
      newton.add(x, y);
      xs.push_back(x);
      ys.push_back(y[0]);
      ASSERT_LE(newton.points(), degree + 2);
    }
    EXPECT_EQ(newton.points(), degree + 2);  // degree + 1 determine it, one confirms
    FlintPoly interpolated(p);
    nmod_poly_interpolate_nmod_vec(interpolated.get(), xs.data(), ys.data(),
                                   static_cast<slong>(xs.size()));
    EXPECT_EQ(newton.monomial(0), interpolated.coefficients());
    EXPECT_EQ(newton.monomial(1), b);
    EXPECT_TRUE(newton.monomial(2).empty());
  }
}

TEST(Thiele, ReconstructsRationalFunctionsOfEveryType) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 1);
  const std::uint64_t p = hepex::field::large_primes(2).back();
  const Zp64 f(p);
  for (auto [dn, dd] : std::vector<std::pair<std::size_t, std::size_t>>{
           {0, 0}, {3, 0}, {0, 3}, {4, 4}, {7, 2}, {2, 9}, {20, 20}}) {
    FlintPoly n(p, random_poly(rng, f, dn)), d(p, random_poly(rng, f, dd));
    Thiele thiele(f);
    std::size_t used = 0;
    for (bool complete = false; !complete; ++used) {
      const std::uint64_t x = f.from_uint(rng());
      const std::uint64_t dx = nmod_poly_evaluate_nmod(d.get(), x);
      if (dx == 0) continue;
      const auto added = thiele.add(x, f.mul(nmod_poly_evaluate_nmod(n.get(), x), f.inv(dx)));
      complete = added == Thiele::Added::predicted;
      ASSERT_LE(used, 2 * std::max(dn, dd) + 3);
    }
    std::vector<std::uint64_t> num, den;
    thiele.to_rational(num, den);
    expect_same_rational(p, num, den, n, d, dn, dd);
  }
}

// RationalFit needs about N + D + 3 points (plus the points between two
// reconstructions, at most 1/32 of them), where Thiele needs 2 max(N, D) + 2:
// f2 of FireFly's benchmarks has lines of degrees (300, 15).
TEST(RationalFit, ReconstructsInAboutNPlusDPoints) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 2);
  const std::uint64_t p = hepex::field::large_primes(3).back();
  const Zp64 f(p);
  for (auto [dn, dd] : std::vector<std::pair<std::size_t, std::size_t>>{
           {0, 0}, {3, 0}, {0, 3}, {4, 4}, {7, 2}, {2, 9}, {20, 20}, {300, 15}, {5, 120}}) {
    for (const std::size_t batch : {1u, 8u}) {
      FlintPoly n(p, random_poly(rng, f, dn)), d(p, random_poly(rng, f, dd));
      RationalFit fit(f, batch);
      // In batches of 8 the reconstruction runs at the 7th point of each: the
      // answer ends a batch (one more when size/32 exceeds the batch).
      const std::size_t bound = batch == 1 ? dn + dd + 3 + (dn + dd) / 32 + 2
                                           : dn + dd + 3 + 8 + ((dn + dd) / 32 / 8 + 1) * 8;
      for (bool complete = false; !complete;) {
        const std::uint64_t x = f.from_uint(rng());
        const std::uint64_t dx = nmod_poly_evaluate_nmod(d.get(), x);
        if (dx == 0) continue;
        complete = fit.add(x, f.mul(nmod_poly_evaluate_nmod(n.get(), x), f.inv(dx))) ==
                   RationalFit::Added::predicted;
        ASSERT_LE(fit.size(), bound) << dn << "/" << dd << ", batch " << batch;
      }
      std::vector<std::uint64_t> num, den;
      fit.to_rational(num, den);
      expect_same_rational(p, num, den, n, d, dn, dd);
    }
  }
}

}  // namespace
