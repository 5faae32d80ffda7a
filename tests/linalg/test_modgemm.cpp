// Modular matrix products against FLINT's nmod_mat_mul: every method at the
// largest prime it claims, adversarial inputs (all p-1, and the largest
// centred magnitudes), depths just above the exact-block boundaries, fat
// vectors and k = 10^6, empty and 1x1 shapes, and C += A B, into a matrix
// and into scattered rows of a larger one; on every enabled execution space
// (exec_spaces.hpp), each once. A kept left operand is observed being
// reused (its conversion kernel not launched again, and a changed A giving
// the product of the A that was converted).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "exec_spaces.hpp"
#include "flint_oracle.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "kernel_log.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace hepex::test {

// The largest prime for which fp64 is exact: floor(p/2)^2 <= 2^53 needs
// p/2 <= 94906265 = floor(sqrt(2^53)), i.e. p <= 189812531.
std::uint64_t largest_fp64_prime() {
  const std::uint64_t p = field::prev_prime(2 * 94906265ull + 2);
  if (linalg::fp64_blocks(p).width < 1 || linalg::fp64_blocks(field::next_prime(p)).width >= 1) {
    return 0;
  }
  return p;
}

// The inputs each shape is tried with: random residues; all p - 1 (centred
// -1); and the largest centred magnitude h = floor(p/2) in A with +h or -h in
// B, giving |A B| = k h^2, the extreme the exactness bounds are made for.
enum class Pattern { random, all_minus_one, extreme_positive, extreme_negative };
constexpr Pattern patterns[] = {Pattern::random, Pattern::all_minus_one, Pattern::extreme_positive,
                                Pattern::extreme_negative};
const char* pattern_name(Pattern pattern) {
  switch (pattern) {
    case Pattern::random: return "random";
    case Pattern::all_minus_one: return "all p-1";
    case Pattern::extreme_positive: return "all h times all h";
    default: return "all h times all -h";
  }
}

template <class Word>
Matrix<Word> filled(std::size_t r, std::size_t c, std::uint64_t p, std::mt19937_64& rng,
                    Pattern pattern, bool second_operand) {
  Matrix<Word> a(r, c);
  const std::uint64_t h = p / 2;
  for (auto& x : a.data) {
    switch (pattern) {
      case Pattern::random: x = static_cast<Word>(rng() % p); break;
      case Pattern::all_minus_one: x = static_cast<Word>(p - 1); break;
      case Pattern::extreme_positive: x = static_cast<Word>(h); break;
      case Pattern::extreme_negative: x = static_cast<Word>(second_operand ? p - h : h); break;
    }
  }
  return a;
}

// The product into rows of a larger matrix (RowSubset): C's rows are m of
// the (m + 3) x (n + 2) matrix's rows in random order, from column 1; C's
// entries must become `want` and every other entry stay as it was.
template <class Word>
void check_into_rows(const field::Zp<Word>& f, linalg::GemmMethod method, Place backend,
                     const Matrix<Word>& a, const Matrix<Word>& b, const Matrix<Word>* c0,
                     const Matrix<Word>& want, std::mt19937_64& rng) {
  const std::size_t m = a.rows, n = b.cols;
  Matrix<Word> big(m + 3, n + 2);
  for (auto& x : big.data) x = static_cast<Word>(rng() % f.modulus());
  std::vector<int> order(m + 3);
  std::iota(order.begin(), order.end(), 0);
  hepex::test::random_shuffle(order.begin(), order.end(), rng);
  Matrix<Word> expected = big;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const auto row = static_cast<std::size_t>(order[i]);
      if (c0 != nullptr) big(row, 1 + j) = (*c0)(i, j);
      expected(row, 1 + j) = want(i, j);
    }
  }
  auto run = [&](auto space) {
    using Memory = typename decltype(space)::memory_space;
    auto target = to_device<Memory>(big);
    Kokkos::View<int*, Memory> rows("rows", m);
    auto host_rows = Kokkos::create_mirror_view(rows);
    for (std::size_t i = 0; i < m; ++i) host_rows(i) = order[i];
    Kokkos::deep_copy(rows, host_rows);
    const auto da = to_device<Memory>(a), db = to_device<Memory>(b);
    linalg::modgemm(space, f, ConstDeviceMatrix<Word, Memory>(da),
                    ConstDeviceMatrix<Word, Memory>(db),
                    linalg::RowSubset<Word, Memory>{target, rows, 1}, method, c0 != nullptr);
    return to_host(target);
  };
  const Matrix<Word> got = backend == Place::device ? run(DeviceSpace()) : run(HostSpace());
  ASSERT_TRUE(got == expected) << "into rows, " << (c0 != nullptr ? "C += A B, " : "C = A B, ")
                               << a.rows << "x" << a.cols << "x" << n << " on "
                               << place_name(backend);
}

template <class Word>
void check_method(Place backend, linalg::GemmMethod method, std::uint64_t p,
                  const std::vector<std::size_t>& depths,
                  std::vector<std::pair<std::size_t, std::size_t>> shapes = {
                      {1, 1}, {13, 7}, {5, 33}, {17, 3}, {2, 70}}) {
  SCOPED_TRACE("p=" + std::to_string(p) + " method=" + linalg::gemm_method_name(method) + " " +
               seed_trace());
  std::mt19937_64 rng(seed() ^ p);
  const field::Zp<Word> f(p);
  {
    for (std::size_t k : depths) {
      for (Pattern pattern : patterns) {
        for (auto [m, n] : shapes) {
          const auto a = filled<Word>(m, k, p, rng, pattern, false);
          const auto b = filled<Word>(k, n, p, rng, pattern, true);
          const auto c0 = filled<Word>(m, n, p, rng, pattern, true);
          Matrix<Word> want = k ? flint_mul(a, b, p) : Matrix<Word>(m, n, 0);
          ASSERT_TRUE(linalg::modgemm(f, a, b, method, backend) == want)
              << m << "x" << k << "x" << n << " " << pattern_name(pattern) << " on "
              << place_name(backend);
          check_into_rows<Word>(f, method, backend, a, b, nullptr, want, rng);
          for (std::size_t e = 0; e < want.data.size(); ++e) {
            want.data[e] = f.add(want.data[e], c0.data[e]);
          }
          ASSERT_TRUE(linalg::modgemm(f, a, b, method, backend, &c0) == want)
              << "C += A B, " << m << "x" << k << "x" << n << " on " << place_name(backend);
          check_into_rows<Word>(f, method, backend, a, b, &c0, want, rng);
        }
      }
    }
  }
}

// A workspace that keeps the left operand: the products (A1, B1), (A1, B2),
// (A2, B1), (A1, B2) in that order through one workspace, each against
// FLINT. The reuse is observed, not assumed: A's conversion kernel (KernelLog)
// runs for the first, third and fourth products only; and A1 overwritten in
// place after the first product (with A1', the caller's promise broken on
// purpose) gives A1 B2 on the second, from the conversion kept, and A1' B2 on
// the fourth, converted again after A2. Without keeping, every product
// converts and sees A1'. The int8 method keeps A only when one k-block
// (int8_max_depth) covers it: beyond, nothing is reused.
template <class Space, class Word>
void check_kept_left_operand(linalg::GemmMethod method, std::uint64_t p, std::size_t m,
                             std::size_t k, std::size_t n) {
  using Memory = typename Space::memory_space;
  SCOPED_TRACE("p=" + std::to_string(p) + " method=" + linalg::gemm_method_name(method) + " " +
               std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) + " on " +
               Space::name() + " " + seed_trace());
  std::mt19937_64 rng(seed() ^ p ^ k);
  const field::Zp<Word> f(p);
  // A1, A2, and A1' (what A1's memory holds after the first product).
  const Matrix<Word> a[3] = {filled<Word>(m, k, p, rng, Pattern::random, false),
                             filled<Word>(m, k, p, rng, Pattern::random, false),
                             filled<Word>(m, k, p, rng, Pattern::random, false)};
  const Matrix<Word> b[2] = {filled<Word>(k, n, p, rng, Pattern::random, true),
                             filled<Word>(k, n, p, rng, Pattern::random, true)};
  const bool int8 = method == linalg::GemmMethod::int8;
  const std::size_t conversions_per_product =
      int8 ? (k + linalg::int8_max_depth - 1) / linalg::int8_max_depth : 1;
  for (const bool keep : {true, false}) {
    SCOPED_TRACE(keep ? "keeping A" : "not keeping A");
    const bool reused = keep && !(int8 && k > linalg::int8_max_depth);
    const auto da0 = to_device<Memory>(a[0]), da1 = to_device<Memory>(a[1]);
    const auto db0 = to_device<Memory>(b[0]), db1 = to_device<Memory>(b[1]);
    DeviceMatrix<Word, Memory> c("c", m, n);
    linalg::GemmWorkspace<Memory> workspace;
    workspace.keep_left_operand(keep);
    KernelLog log;
    const auto conversions = [&] {
      return log.count({"hepex::modgemm::centre_a", "hepex::modgemm::split_a",
                        "hepex::modgemm::crt_residues_a"});
    };
    const auto product = [&](const DeviceMatrix<Word, Memory>& x,
                             const DeviceMatrix<Word, Memory>& y) {
      linalg::modgemm(Space(), f, ConstDeviceMatrix<Word, Memory>(x),
                      ConstDeviceMatrix<Word, Memory>(y), c, method, false, &workspace);
      return to_host(c);
    };
    ASSERT_TRUE(product(da0, db0) == flint_mul(a[0], b[0], p)) << "A1 B1";
    ASSERT_EQ(conversions(), conversions_per_product) << "A1 B1";
    Kokkos::deep_copy(da0, to_device<Memory>(a[2]));  // A1 becomes A1' in place
    const Matrix<Word> second = product(da0, db1);
    EXPECT_TRUE(second == flint_mul(a[reused ? 0 : 2], b[1], p))
        << "A1 B2: " << (reused ? "not the kept conversion of A1" : "not A1' B2");
    EXPECT_EQ(conversions(), (reused ? 1 : 2) * conversions_per_product) << "A1 B2";
    EXPECT_TRUE(product(da1, db0) == flint_mul(a[1], b[0], p)) << "A2 B1";
    EXPECT_EQ(conversions(), (reused ? 2 : 3) * conversions_per_product) << "A2 B1";
    EXPECT_TRUE(product(da0, db1) == flint_mul(a[2], b[1], p)) << "A1' B2 after A2";
    EXPECT_EQ(conversions(), (reused ? 3 : 4) * conversions_per_product) << "A1' B2";
  }
}

}  // namespace hepex::test

namespace {

using hepex::linalg::fp64_blocks;
using hepex::linalg::GemmMethod;

class ModGemmOnSpace : public hepex::test::OnSpace {};

TEST_P(ModGemmOnSpace, Fp64AtItsLargestPrimeAndBlockBoundaries) {
  const std::uint64_t p = hepex::test::largest_fp64_prime();
  // At the edge (p = 189812507) one product per block, added onto the
  // centred partial sums: h^2 + 4p still fits in 2^53.
  ASSERT_EQ(fp64_blocks(p).width, 1u);
  ASSERT_TRUE(fp64_blocks(p).carry);
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::fp64, p, {0, 1, 2, 3, 40});
  // The smallest primes, where the reduction's rounding of x / p is coarsest.
  for (std::uint64_t small : {2, 3, 5}) {
    hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::fp64, small, {1, 2, 40});
  }
  // < 2^23: (2^53 - 4q) / 4194296^2 = 512.0..., blocks added onto the
  // centred partial sums.
  const std::uint64_t q = 8388593;
  const std::size_t lambda = fp64_blocks(q).width;
  ASSERT_EQ(lambda, 512u);
  ASSERT_TRUE(fp64_blocks(q).carry);
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::fp64, q,
                                           {lambda, lambda + 1, 2 * lambda + 1});
}

TEST_P(ModGemmOnSpace, MultiwordUpToItsLargestPrime) {
  using hepex::linalg::multiword_split;
  // The largest prime: 27-bit halves with |hi| <= floor(h / 2^27) + 1 <=
  // 94906265 = floor(sqrt(2^53)), i.e. p < 2 * 94906265 * 2^27 (about
  // 2^54.5): the 4-product form has lambda = 1, the Karatsuba sums are not
  // exact at all; p is not exact in a double, so the reduction goes through
  // the integer path.
  const std::uint64_t top = hepex::field::prev_prime(2 * 94906265ull << 27);
  const std::uint64_t beyond = hepex::field::next_prime(top);
  ASSERT_EQ(multiword_split(top).four.width, 1u);
  ASSERT_EQ(multiword_split(top).karatsuba.width, 0u);
  EXPECT_EQ(multiword_split(beyond).four.width, 0u);
  hepex::test::check_method<std::uint64_t>(backend(), GemmMethod::multiword, top,
                                           {0, 1, 2, 3, 5, 40});
  // Below 2^52: the Karatsuba sums (2^26 + 1) are exact two terms at a time,
  // the 4-product form eight, B split alone not at all: Karatsuba is taken
  // up to k = 2, the 4-product form beyond.
  using hepex::linalg::MultiwordForm;
  const auto edge_split = multiword_split(hepex::field::prev_prime(1ull << 52));
  ASSERT_EQ(edge_split.karatsuba.width, 2u);
  ASSERT_EQ(edge_split.four.width, 8u);
  ASSERT_EQ(edge_split.split_b.width, 0u);
  ASSERT_EQ(edge_split.form(2, hepex::Place::host), MultiwordForm::karatsuba);
  ASSERT_EQ(edge_split.form(9, hepex::Place::host), MultiwordForm::four);
  hepex::test::check_method<std::uint64_t>(
      backend(), GemmMethod::multiword, hepex::field::prev_prime(1ull << 52), {1, 2, 3, 8, 9, 40});
  // 2^31 - 1, where fp64 is not exact: 16-bit halves of B; A B = s A Bh +
  // A Bl in blocks of 255 on a CPU, carried across blocks.
  const auto p31 = multiword_split(2147483647);
  ASSERT_EQ(p31.split_b.width, 255u);
  ASSERT_TRUE(p31.split_b.carry);
  ASSERT_EQ(p31.form(1000, hepex::Place::host), MultiwordForm::split_b);
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::multiword, 2147483647,
                                           {1, 7, 100, 255, 256, 511, 766});
  // Below 2^44: Karatsuba, carried across blocks; the depths straddle them.
  const std::uint64_t p44 = hepex::field::prev_prime(1ull << 44);
  const auto mid = multiword_split(p44);
  const std::size_t w = mid.karatsuba.width;
  ASSERT_TRUE(mid.karatsuba.carry);
  for (std::size_t k : {w, w + 1, 2 * w + 1}) {
    ASSERT_EQ(mid.form(k, hepex::Place::host), MultiwordForm::karatsuba) << k;
  }
  hepex::test::check_method<std::uint64_t>(backend(), GemmMethod::multiword, p44,
                                           {w, w + 1, 2 * w + 1});
  EXPECT_THROW(
      hepex::linalg::resolve_gemm_method(GemmMethod::multiword, beyond, hepex::Place::host),
      hepex::Error);
}

TEST_P(ModGemmOnSpace, Int64AtTheLargestPrimes) {
  // Zp64 at 2^63 - 25: lambda = floor((2^128 - 1) / (p - 1)^2) = 4 products per reduction.
  hepex::test::check_method<std::uint64_t>(backend(), GemmMethod::int64,
                                           hepex::field::large_primes(1)[0], {0, 1, 4, 5, 9, 64});
  // Zp32 at 2^31 - 1: lambda = floor((2^64 - 1) / (p - 1)^2) = 4.
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::int64, 2147483647,
                                           {1, 4, 5, 9, 64});
  hepex::test::check_method<std::uint64_t>(backend(), GemmMethod::int64, 2, {1, 7});
}

TEST_P(ModGemmOnSpace, Int8AtEveryWordSize) {
  hepex::test::check_method<std::uint64_t>(backend(), GemmMethod::int8,
                                           hepex::field::large_primes(1)[0], {0, 1, 3, 4, 5, 64});
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::int8, 2147483647, {1, 5, 64});
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::int8, 65521, {1, 7, 100});
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::int8, 251, {1, 9});
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::int8, 2, {1, 9});
}

TEST_P(ModGemmOnSpace, Int8AcrossTheExactInt32BlockBoundary) {
  // int8_max_depth terms per int32 block: k = 131069 needs two blocks; all h
  // times all -h is the largest |A B| the CRT basis must cover.
  for (std::uint64_t p : {std::uint64_t{65521}, hepex::field::large_primes(1)[0]}) {
    const hepex::field::Zp64 f(p);
    const std::size_t k = hepex::linalg::int8_max_depth + 13;
    const std::uint64_t h = p / 2;
    hepex::Matrix<std::uint64_t> a(1, k, h), b(k, 1, p - h);
    const std::uint64_t want = f.mul(f.from_uint(k), f.mul(h, p - h));
    EXPECT_EQ(hepex::linalg::modgemm(f, a, b, GemmMethod::int8, backend())(0, 0), want) << p;
  }
}

TEST(ModGemm, AutomaticPicksAnExactMethod) {
  using hepex::Place;
  using hepex::linalg::resolve_gemm_method;
  const std::uint64_t p63 = hepex::field::large_primes(1)[0];
  EXPECT_EQ(resolve_gemm_method(GemmMethod::automatic, 65521, Place::device), GemmMethod::int8);
  EXPECT_EQ(resolve_gemm_method(GemmMethod::automatic, p63, Place::device), GemmMethod::int8);
  EXPECT_EQ(resolve_gemm_method(GemmMethod::automatic, 65521, Place::host), GemmMethod::fp64);
  EXPECT_EQ(resolve_gemm_method(GemmMethod::automatic, 2147483647, Place::host),
            GemmMethod::multiword);
  EXPECT_EQ(resolve_gemm_method(GemmMethod::automatic, p63, Place::host), GemmMethod::int64);
}

TEST_P(ModGemmOnSpace, AutomaticMethodIsExact) {
  const std::uint64_t p63 = hepex::field::large_primes(1)[0];
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::automatic, 65521, {1, 100});
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::automatic, 2147483647, {1, 100});
  hepex::test::check_method<std::uint64_t>(backend(), GemmMethod::automatic, p63, {1, 100});
}

TEST(ModGemm, MethodOutsideItsExactRangeIsAnError) {
  EXPECT_THROW(
      hepex::linalg::resolve_gemm_method(GemmMethod::fp64, 2147483647, hepex::Place::device),
      hepex::Error);
  EXPECT_EQ(hepex::linalg::parse_gemm_method("multiword"), GemmMethod::multiword);
  EXPECT_THROW(hepex::linalg::parse_gemm_method("fast"), hepex::Error);
  const hepex::field::Zp32 f(65521);
  EXPECT_THROW(hepex::linalg::modgemm(f, hepex::Matrix<std::uint32_t>(2, 3),
                                      hepex::Matrix<std::uint32_t>(4, 2)),
               hepex::Error);
}

TEST_P(ModGemmOnSpace, FatVectorsAndLongDepths) {
  // Sparse-FGLM's shapes: D x D times D x b with b = 32, 33 (one past a
  // tensor-core tile), and a depth of 10^6 (8 int8 blocks; 1954 exact DGEMM
  // blocks at p = 8388593).
  const std::vector<std::pair<std::size_t, std::size_t>> fat{{40, 32}, {9, 33}};
  for (GemmMethod method : {GemmMethod::fp64, GemmMethod::int8, GemmMethod::int64}) {
    hepex::test::check_method<std::uint32_t>(backend(), method, 65521, {10007}, fat);
  }
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::multiword, 2147483647, {10007},
                                           fat);
  const std::vector<std::pair<std::size_t, std::size_t>> thin{{2, 3}};
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::fp64, 8388593, {1000003}, thin);
  hepex::test::check_method<std::uint32_t>(backend(), GemmMethod::int8, 2147483647, {1000003},
                                           thin);
}

TEST(ModGemm, Int8CrtBasisAgainstGmp) {
  // The basis the int8 method uses: pairwise coprime moduli <= 256 whose
  // product M exceeds 4 depth h^2, and the CRT constants it precomputes,
  // checked with GMP integers.
  for (std::uint64_t p : {std::uint64_t{2}, std::uint64_t{251}, std::uint64_t{65521},
                          std::uint64_t{2147483647}, hepex::field::large_primes(1)[0]}) {
    for (std::uint64_t depth :
         {std::uint64_t{1}, std::uint64_t{8192}, hepex::linalg::int8_max_depth}) {
      SCOPED_TRACE("p=" + std::to_string(p) + " depth=" + std::to_string(depth));
      const auto basis = hepex::linalg::int8_crt_basis(p, depth);
      mpz_class product = 1, bound = mpz_class(std::to_string(p / 2)) * (p / 2) * 4 * depth;
      for (int t = 0; t < basis.count; ++t) product *= basis.modulus[t];
      EXPECT_GT(product, bound);
      EXPECT_LE(product / basis.modulus[basis.count - 1], bound) << "one modulus more than needed";
      EXPECT_EQ(mpz_class(product % mpz_class(std::to_string(p))).get_str(),
                std::to_string(basis.product_mod_p));
      for (int t = 0; t < basis.count; ++t) {
        const std::uint32_t m = basis.modulus[t];
        ASSERT_LE(m, 256u);
        for (int s = 0; s < t; ++s) EXPECT_EQ(std::gcd(m, basis.modulus[s]), 1u);
        const mpz_class cofactor = product / m;
        EXPECT_EQ(mpz_class(cofactor * basis.cofactor_inverse[t] % m), 1 % m);
        EXPECT_EQ(mpz_class(cofactor % mpz_class(std::to_string(p))).get_str(),
                  std::to_string(basis.cofactor_mod_p[t]));
        EXPECT_EQ(basis.p_residue[t], p % m);
        EXPECT_EQ(basis.two32[t], (std::uint64_t{1} << 32) % m);
      }
    }
  }
  EXPECT_EQ(hepex::linalg::int8_crt_basis(2147483647, 8192).count,
            10);  // 16 base-256 digit products
  EXPECT_EQ(hepex::linalg::int8_crt_basis(hepex::field::large_primes(1)[0], 8192).count,
            18);  // 64 digit products
}

template <class Space>
class ModGemmKeptLeft : public ::testing::Test {};
TYPED_TEST_SUITE(ModGemmKeptLeft, hepex::test::EnabledSpaces, hepex::test::SpaceNames);

TYPED_TEST(ModGemmKeptLeft, ReusedOnlyForTheSameA) {
  using Space = TypeParam;
  using hepex::test::check_kept_left_operand;
  check_kept_left_operand<Space, std::uint32_t>(GemmMethod::fp64, 65521, 13, 600, 7);
  check_kept_left_operand<Space, std::uint32_t>(GemmMethod::multiword, 2147483647, 13, 600, 7);
  check_kept_left_operand<Space, std::uint64_t>(GemmMethod::multiword,
                                                hepex::field::prev_prime(1ull << 44), 9, 1100, 5);
  check_kept_left_operand<Space, std::uint64_t>(GemmMethod::multiword,
                                                hepex::field::prev_prime(1ull << 52), 9, 40, 5);
  check_kept_left_operand<Space, std::uint32_t>(GemmMethod::int8, 2147483647, 13, 600, 7);
  check_kept_left_operand<Space, std::uint64_t>(GemmMethod::int8, hepex::field::large_primes(1)[0],
                                                3, hepex::linalg::int8_max_depth + 17, 2);
}

TEST(ModGemm, EmptyShapes) {
  const hepex::field::Zp32 f(65521);
  EXPECT_EQ(hepex::linalg::modgemm(f, hepex::Matrix<std::uint32_t>(0, 3),
                                   hepex::Matrix<std::uint32_t>(3, 2))
                .rows,
            0u);
  EXPECT_EQ(hepex::linalg::modgemm(f, hepex::Matrix<std::uint32_t>(2, 3),
                                   hepex::Matrix<std::uint32_t>(3, 0))
                .cols,
            0u);
}

HEPEX_TEST_ON_SPACES(ModGemmOnSpace);

}  // namespace
