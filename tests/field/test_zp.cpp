// Zp32 and Zp64 against GMP: every operation, on the host and in a kernel on
// the default execution space, for edge primes and random primes, with edge
// operands (0, 1, p-1, ...) mixed into thousands of random cases.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/field/zp.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace hepex::test {

// One case: operands and the results of every operation.
enum ZpOp {
  op_add,
  op_sub,
  op_neg,
  op_mul,
  op_fma,
  op_inv,
  op_pow,
  op_from_int,
  op_from_uint,
  op_centred,
  op_shoup,
  op_count
};
const char* const zp_op_names[op_count] = {"add",       "sub",     "neg",      "mul",
                                           "fma",       "inv",     "pow",      "from_int",
                                           "from_uint", "centred", "mul_shoup"};

struct ZpCase {
  std::uint64_t a, b, c, e;  // field elements a, b, c < p; exponent e
  std::int64_t s;            // signed input of from_int
  std::uint64_t u;           // unsigned input of from_uint
};

// Every operation on one case; the same code runs on the host and in kernels.
template <class Word>
KOKKOS_INLINE_FUNCTION void evaluate(const field::Zp<Word>& f, const ZpCase& k,
                                     std::uint64_t* out) {
  const Word a = static_cast<Word>(k.a), b = static_cast<Word>(k.b), c = static_cast<Word>(k.c);
  out[op_add] = f.add(a, b);
  out[op_sub] = f.sub(a, b);
  out[op_neg] = f.neg(a);
  out[op_mul] = f.mul(a, b);
  out[op_fma] = f.fma(a, b, c);
  out[op_inv] = f.inv(a);
  out[op_pow] = f.pow(a, k.e);
  out[op_from_int] = f.from_int(k.s);
  out[op_from_uint] = f.from_uint(k.u);
  out[op_centred] = static_cast<std::uint64_t>(static_cast<std::int64_t>(f.centred(a)));
  out[op_shoup] = f.mul_shoup(a, b, f.shoup(b));
}

template <class Word>
std::vector<std::uint64_t> evaluate_on_device(const field::Zp<Word>& f,
                                              const std::vector<ZpCase>& cases) {
  const std::size_t n = cases.size();
  Kokkos::View<ZpCase*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host_in(
      const_cast<ZpCase*>(cases.data()), n);
  Kokkos::View<ZpCase*, DeviceMemory> in("zp_cases", n);
  Kokkos::deep_copy(in, host_in);
  Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, DeviceMemory> out("zp_results", n, op_count);
  Kokkos::deep_copy(out, ~std::uint64_t{0});  // poison: every entry must be written
  Kokkos::parallel_for(
      "zp_evaluate", Kokkos::RangePolicy<DeviceSpace>(0, n),
      KOKKOS_LAMBDA(const std::size_t i) { evaluate(f, in(i), &out(i, 0)); });
  auto host_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<std::uint64_t>(host_out.data(), host_out.data() + n * op_count);
}

// The GMP result of operation `op` on case k mod p (the oracle).
mpz_class expected(ZpOp op, const ZpCase& k, std::uint64_t p_word) {
  const mpz_class p(static_cast<unsigned long>(p_word));
  const mpz_class a(static_cast<unsigned long>(k.a)), b(static_cast<unsigned long>(k.b)),
      c(static_cast<unsigned long>(k.c));
  mpz_class r;
  auto mod = [&](const mpz_class& x) {
    mpz_class m;
    mpz_fdiv_r(m.get_mpz_t(), x.get_mpz_t(), p.get_mpz_t());
    return m;
  };
  switch (op) {
    case op_add: return mod(a + b);
    case op_sub: return mod(a - b);
    case op_neg: return mod(-a);
    case op_mul:
    case op_shoup: return mod(a * b);
    case op_fma: return mod(a * b + c);
    case op_inv:
      if (a == 0) return 0;  // documented: inv(0) returns 0
      mpz_invert(r.get_mpz_t(), a.get_mpz_t(), p.get_mpz_t());
      return r;
    case op_pow: {
      const mpz_class e(static_cast<unsigned long>(k.e));
      mpz_powm(r.get_mpz_t(), a.get_mpz_t(), e.get_mpz_t(), p.get_mpz_t());
      return r;
    }
    case op_from_int: return mod(mpz_class(static_cast<long>(k.s)));
    case op_from_uint: return mod(mpz_class(static_cast<unsigned long>(k.u)));
    case op_centred: {
      // In (-p/2, p/2], stored as the two's complement of the signed result.
      const mpz_class centred = 2 * a > p ? mpz_class(a - p) : a;
      return centred < 0 ? mpz_class(centred + (mpz_class(1) << 64)) : centred;
    }
    default: return -1;
  }
}

// Edge operands mixed with uniform random ones.
std::vector<ZpCase> make_cases(std::uint64_t p, std::size_t count, std::mt19937_64& rng) {
  const std::vector<std::uint64_t> edges = {0, 1, 2, p - 1, p - 2, p / 2, p / 2 + 1};
  const std::vector<std::int64_t> signed_edges = {0,
                                                  1,
                                                  -1,
                                                  std::numeric_limits<std::int64_t>::min(),
                                                  std::numeric_limits<std::int64_t>::max(),
                                                  static_cast<std::int64_t>(p),
                                                  -static_cast<std::int64_t>(p),
                                                  -static_cast<std::int64_t>(p) - 1};
  const std::vector<std::uint64_t> exponent_edges = {0, 1, 2, p - 1, p - 2, p, ~std::uint64_t{0}};
  hepex::test::UniformInt<std::uint64_t> element(0, p - 1);
  auto pick = [&](const std::vector<std::uint64_t>& special) {
    return rng() % 4 == 0 ? special[rng() % special.size()] % p : element(rng);
  };
  std::vector<ZpCase> cases(count);
  for (auto& k : cases) {
    k.a = pick(edges);
    k.b = pick(edges);
    k.c = pick(edges);
    k.e = rng() % 4 == 0 ? exponent_edges[rng() % exponent_edges.size()] : rng();
    k.s = rng() % 4 == 0 ? signed_edges[rng() % signed_edges.size()]
                         : static_cast<std::int64_t>(rng());
    k.u = rng() % 8 == 0 ? ~std::uint64_t{0} - rng() % 3 : rng();
  }
  return cases;
}

std::string describe(const ZpCase& k, std::uint64_t p) {
  std::ostringstream out;
  out << "p=" << p << " a=" << k.a << " b=" << k.b << " c=" << k.c << " e=" << k.e << " s=" << k.s
      << " u=" << k.u;
  return out.str();
}

// Compares results (cases x op_count) with GMP; reports the first few misses.
void compare_with_gmp(const char* where, std::uint64_t p, const std::vector<ZpCase>& cases,
                      const std::vector<std::uint64_t>& results) {
  int reported = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    for (int op = 0; op < op_count; ++op) {
      const mpz_class want = expected(static_cast<ZpOp>(op), cases[i], p);
      const mpz_class got(static_cast<unsigned long>(results[i * op_count + op]));
      if (got != want && reported++ < 5) {
        ADD_FAILURE() << where << ": " << zp_op_names[op] << " got " << got << ", GMP says " << want
                      << " for " << describe(cases[i], p) << " (" << seed_trace() << ")";
      }
    }
  }
  EXPECT_EQ(reported, 0) << where << ": mismatches with GMP for p=" << p;
}

template <class Word>
void check_prime(std::uint64_t p, std::size_t count, std::mt19937_64& rng) {
  const field::Zp<Word> f(p);
  ASSERT_EQ(f.modulus(), p);
  const auto cases = make_cases(p, count, rng);
  std::vector<std::uint64_t> host(cases.size() * op_count);
  for (std::size_t i = 0; i < cases.size(); ++i) evaluate(f, cases[i], &host[i * op_count]);
  compare_with_gmp("host", p, cases, host);
  compare_with_gmp(DeviceSpace::name(), p, cases, evaluate_on_device(f, cases));
}

// Edge primes of each word size, and random primes of every bit length.
template <class Word>
std::vector<std::uint64_t> primes_to_test(std::mt19937_64& rng) {
  constexpr int bits = field::Zp<Word>::max_modulus_bits;
  std::vector<std::uint64_t> primes = {2, 3, 5, 65521, 2147483647};  // 2^31-1 is prime
  if (bits == 63) {
    for (std::uint64_t p : {4294967291ull, 4294967311ull, (1ull << 61) - 1}) primes.push_back(p);
    for (std::uint64_t p : field::large_primes(2, 1ull << 62)) primes.push_back(p);
    for (std::uint64_t p : field::large_primes(3)) primes.push_back(p);  // just below 2^63
  } else {
    for (std::uint64_t p : field::large_primes(3, 1ull << 31)) primes.push_back(p);
  }
  for (int b = 4; b <= bits; b += 3) {
    const std::uint64_t lo = 1ull << (b - 1);
    primes.push_back(field::next_prime(lo + rng() % lo - 1));
  }
  return primes;
}

template <class Word>
void check_all_primes() {
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(seed());
  for (std::uint64_t p : primes_to_test<Word>(rng)) check_prime<Word>(p, 2048, rng);
}

}  // namespace hepex::test

namespace {

TEST(Zp32, EveryOperationMatchesGmpOnHostAndDevice) {
  hepex::test::check_all_primes<std::uint32_t>();
}

TEST(Zp64, EveryOperationMatchesGmpOnHostAndDevice) {
  hepex::test::check_all_primes<std::uint64_t>();
}

TEST(Zp, RejectsCompositeAndOutOfRangeModuli) {
  using hepex::field::Zp32;
  using hepex::field::Zp64;
  auto message = [](auto make) {
    try {
      make();
    } catch (const hepex::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([] { Zp32(2147483648ull); }).find("too large"), std::string::npos);
  EXPECT_NE(message([] { Zp32(4294967291ull); }).find("below 2^31"), std::string::npos);
  EXPECT_NE(message([] { Zp64(9223372036854775837ull); }).find("too large"), std::string::npos);
  EXPECT_NE(message([] { Zp64(65535); }).find("not a prime (divisible by 3)"), std::string::npos);
  EXPECT_NE(message([] { Zp64(0); }).find("not a prime"), std::string::npos);
  EXPECT_NE(message([] { Zp64(1); }).find("not a prime"), std::string::npos);
  // 2^62 - 1 = 3 * 715827883 * 2147483647: composite with a small factor.
  EXPECT_NE(message([] { Zp64((1ull << 62) - 1); }).find("not a prime"), std::string::npos);
  EXPECT_NO_THROW(Zp64(9223372036854775783ull));  // the largest prime below 2^63
  EXPECT_NO_THROW(Zp32(2147483647u));             // the largest prime below 2^31
}

}  // namespace
