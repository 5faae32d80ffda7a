// Berlekamp-Massey and Krylov sequences over Z/p: recurrences with known
// polynomials, companion matrices, and random matrices with a non-trivial
// minimal polynomial against FLINT's nmod_mat_minpoly.
#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include <random>

#include "exec_spaces.hpp"
#include "flint_oracle.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/linalg/krylov.hpp"
#include "test_seed.hpp"

namespace {

using Word = std::uint64_t;
using hepex::Matrix;

std::vector<Word> flint_minpoly(const Matrix<Word>& t, std::uint64_t p) {
  hepex::test::FlintMatrix m(t, p);
  nmod_poly_t poly;
  nmod_poly_init(poly, p);
  nmod_mat_minpoly(poly, m.get());
  std::vector<Word> c(static_cast<std::size_t>(nmod_poly_length(poly)));
  for (std::size_t i = 0; i < c.size(); ++i)
    c[i] = nmod_poly_get_coeff_ui(poly, static_cast<slong>(i));
  nmod_poly_clear(poly);
  return c;
}

// The companion matrix of monic m(x) = x^D + c_{D-1} x^{D-1} + ... + c_0.
Matrix<Word> companion(const hepex::field::Zp64& f, const std::vector<Word>& monic) {
  const std::size_t d = monic.size() - 1;
  Matrix<Word> t(d, d, 0);
  for (std::size_t i = 1; i < d; ++i) t(i, i - 1) = 1;
  for (std::size_t i = 0; i < d; ++i) t(i, d - 1) = f.neg(monic[i]);
  return t;
}

TEST(BerlekampMassey, RecoversRandomRecurrences) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  for (std::uint64_t p : {std::uint64_t{65521}, hepex::field::large_primes(1)[0]}) {
    const hepex::field::Zp64 f(p);
    for (std::size_t degree : {1u, 2u, 7u, 30u}) {
      std::vector<Word> monic(degree + 1);
      for (auto& c : monic) c = rng() % p;
      monic[degree] = 1;
      if (monic[0] == 0) monic[0] = 1;
      // s_{n+d} = -sum_i c_i s_{n+i}, random start.
      std::vector<Word> s(2 * degree + 5);
      for (std::size_t i = 0; i < degree; ++i) s[i] = rng() % p;
      for (std::size_t n = degree; n < s.size(); ++n) {
        Word v = 0;
        for (std::size_t i = 0; i < degree; ++i) v = f.fma(monic[i], s[n - degree + i], v);
        s[n] = f.neg(v);
      }
      const auto found = hepex::linalg::berlekamp_massey(f, s);
      // The minimal polynomial divides `monic` and is almost surely equal to it.
      EXPECT_EQ(found, monic) << "degree " << degree << " p " << p;
    }
    EXPECT_EQ(hepex::linalg::berlekamp_massey(f, std::vector<Word>(6, 0)), std::vector<Word>{1});
  }
}

class KrylovOnSpace : public hepex::test::OnSpace {};

TEST_P(KrylovOnSpace, SequencesMatchDirectPowers) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 1);
  const std::uint64_t p = 2147483647;
  const hepex::field::Zp64 f(p);
  const std::size_t d = 9, b = 3, length = 13;  // doubling: 16 blocks, 13 used
  Matrix<Word> t(d, d), e(d, b);
  std::vector<Word> r(d);
  for (auto& x : t.data) x = rng() % p;
  for (auto& x : e.data) x = rng() % p;
  for (auto& x : r) x = rng() % p;
  using hepex::linalg::KrylovProducts;
  for (const KrylovProducts products : {KrylovProducts::stepwise, KrylovProducts::doubling}) {
    const auto s = hepex::linalg::krylov_sequences(f, t, r, e, length, backend(), products);
    Matrix<Word> v = e;
    for (std::size_t i = 0; i < length; ++i) {
      for (std::size_t j = 0; j < b; ++j) {
        Word dot = 0;
        for (std::size_t k = 0; k < d; ++k) dot = f.fma(r[k], v(k, j), dot);
        ASSERT_EQ(s[j][i], dot) << "i " << i << " column " << j
                                << (products == KrylovProducts::doubling ? " doubling"
                                                                         : " stepwise");
      }
      v = hepex::test::flint_mul(t, v, p);
    }
  }
}

TEST(Krylov, MinimalPolynomialOfCompanionAndStructuredMatrices) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 2);
  const std::uint64_t p = hepex::field::large_primes(1, 1ull << 62)[0];
  const hepex::field::Zp64 f(p);
  // Companion matrix: its minimal polynomial is the polynomial itself.
  std::vector<Word> monic(17);
  for (auto& c : monic) c = rng() % p;
  monic.back() = 1;
  EXPECT_EQ(hepex::linalg::minimal_polynomial(f, companion(f, monic)), monic);
  // S diag(a, a, a, b, b, c, ...) S^-1 style: a random similarity of a block
  // diagonal with repeated blocks has minimal polynomial of degree < D.
  for (int trial = 0; trial < hepex::test::cases(4); ++trial) {
    std::vector<Word> small(5);
    for (auto& c : small) c = rng() % p;
    small.back() = 1;
    const auto block = companion(f, small);  // 4 x 4
    const std::size_t d = 12;
    Matrix<Word> diag(d, d, 0);
    for (std::size_t k = 0; k < 3; ++k)
      for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 4; ++j) diag(4 * k + i, 4 * k + j) = block(i, j);
    Matrix<Word> s(d, d), s_inv;
    for (auto& x : s.data) x = rng() % p;
    hepex::test::FlintMatrix fs(s, p), fi(d, d, p);
    ASSERT_TRUE(nmod_mat_inv(fi.get(), fs.get()));
    s_inv = fi.to_matrix<Word>();
    const auto t = hepex::test::flint_mul(hepex::test::flint_mul(s, diag, p), s_inv, p);
    const auto found = hepex::linalg::minimal_polynomial(f, t, 7 + trial);
    EXPECT_EQ(found, flint_minpoly(t, p));
    EXPECT_EQ(found, small);  // degree 4, not 12
  }
}

TEST_P(KrylovOnSpace, KellerGehrigMinimalPolynomialOfRandomMatrices) {
  // Random dense T (minimal polynomial = characteristic polynomial, almost
  // surely) and a random similarity of a block diagonal with repeated blocks
  // (degree below D), both against FLINT, at a 62-bit and a 16-bit prime.
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed() + 3);
  for (std::uint64_t p : {hepex::field::large_primes(1, 1ull << 62)[0], std::uint64_t{65521}}) {
    const hepex::field::Zp64 f(p);
    for (std::size_t d : {1u, 5u, 33u}) {
      Matrix<Word> t(d, d);
      for (auto& x : t.data) x = rng() % p;
      EXPECT_EQ(hepex::linalg::minimal_polynomial(f, t, 11, backend(),
                                                  hepex::linalg::KrylovProducts::doubling),
                flint_minpoly(t, p))
          << "D " << d << " p " << p << " " << where();
    }
  }
}

HEPEX_TEST_ON_SPACES(KrylovOnSpace);

}  // namespace
