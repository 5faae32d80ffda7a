// Matrix Market reading and writing: random round trips for every field, the
// coordinate format, big integers reduced mod p, and every malformed input
// rejected with the file and line.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "hepex/field/primes.hpp"
#include "hepex/io/matrix_market.hpp"
#include "hepex/linalg/rref_types.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace {

using hepex::Matrix;
using namespace hepex::io;

template <class F>
Matrix<typename F::value_type> round_trip(const Matrix<typename F::value_type>& a, const F& f) {
  std::stringstream text;
  write_matrix_market(text, a, f);
  return read_matrix_market(text, "round-trip", f);
}

TEST(MatrixMarket, RoundTripsEveryField) {
  std::mt19937_64 rng(hepex::test::seed());
  hepex::test::UniformReal u(-1e6, 1e6);
  const hepex::field::Zp64 zp(hepex::field::large_primes(1)[0]);
  const hepex::field::Real64 real;
  const hepex::field::Complex128 complex;
  for (auto [m, n] :
       std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {7, 3}, {3, 7}, {0, 4}}) {
    Matrix<std::uint64_t> a(m, n);
    Matrix<double> b(m, n);
    Matrix<Kokkos::complex<double>> c(m, n);
    for (std::size_t k = 0; k < m * n; ++k) {
      a.data[k] = zp.from_uint(rng());
      b.data[k] = u(rng) / 3.0;
      c.data[k] = Kokkos::complex<double>(u(rng) / 7.0, u(rng) / 11.0);
    }
    EXPECT_TRUE(round_trip(a, zp) == a);
    EXPECT_TRUE(round_trip(b, real) == b);  // 17 significant digits: exact
    EXPECT_TRUE(round_trip(c, complex) == c);
  }
}

TEST(MatrixMarket, ReadsCoordinateFilesAndReducesBigIntegers) {
  std::istringstream text(
      "%%MatrixMarket matrix coordinate integer general\n% a comment\n\n3 2 3\n"
      "1 1 -1\n3 2 100000000000000000000000000000000000007\n2 1 +5\n");
  const auto a = read_matrix_market(text, "c.mtx", hepex::field::Zp32(65521));
  ASSERT_EQ(a.rows, 3u);
  ASSERT_EQ(a.cols, 2u);
  EXPECT_EQ(a(0, 0), 65520u);
  EXPECT_EQ(a(1, 0), 5u);
  EXPECT_EQ(a(2, 1), 43358u);  // (10^38 + 7) mod 65521
  EXPECT_EQ(a(0, 1), 0u);
}

TEST(MatrixMarket, LeadingZerosAreDecimal) {  // found by the fuzzer: GMP's base 0 is octal
  std::istringstream text("%%MatrixMarket matrix array integer general\n1 2\n010\n-00000000693\n");
  const auto a = read_matrix_market(text, "z.mtx", hepex::field::Zp32(65521));
  EXPECT_EQ(a(0, 0), 10u);
  EXPECT_EQ(a(0, 1), 65521u - 693u);
}

std::string error_of(const std::string& text, bool complex = false) {
  std::istringstream in(text);
  try {
    if (complex) {
      read_matrix_market(in, "m.mtx", hepex::field::Complex128());
    } else {
      read_matrix_market(in, "m.mtx", hepex::field::Zp32(7));
    }
  } catch (const hepex::Error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(MatrixMarket, RejectsMalformedInputWithFileAndLine) {
  const std::string head = "%%MatrixMarket matrix array integer general\n";
  EXPECT_EQ(error_of(""), "m.mtx:1: empty file, expected a %%MatrixMarket header");
  EXPECT_EQ(error_of("1 2\n"),
            "m.mtx:1: not a Matrix Market matrix (expected '%%MatrixMarket matrix ...')");
  EXPECT_EQ(error_of("%%MatrixMarket matrix array pattern general\n1 1\n1\n"),
            "m.mtx:1: entry type 'pattern' is not integer, real or complex");
  EXPECT_EQ(error_of("%%MatrixMarket matrix dense integer general\n"),
            "m.mtx:1: format 'dense' is neither 'array' nor 'coordinate'");
  EXPECT_EQ(error_of(head), "m.mtx: missing the size line");
  EXPECT_EQ(error_of(head + "2\n"), "m.mtx:2: size line must be 'rows cols'");
  EXPECT_EQ(error_of(head + "2 x\n"), "m.mtx:2: column count 'x' is not a non-negative integer");
  EXPECT_EQ(error_of(head + "-2 2\n"), "m.mtx:2: row count '-2' is not a non-negative integer");
  EXPECT_EQ(error_of(head + "1 2\n1\n2.5\n"), "m.mtx:4: entry '2.5' is not an integer");
  EXPECT_EQ(error_of(head + "1 2\n1\n"), "m.mtx: expected 2 entries, found 1");
  EXPECT_EQ(error_of(head + "1 1\n1 2\n"), "m.mtx:3: expected one value per line");
  EXPECT_EQ(error_of(head + "1 1\n1\n9\n"), "m.mtx:4: unexpected data after the last entry");
  EXPECT_EQ(error_of(head + "99999999999 99999999999\n"),
            "m.mtx: a 99999999999 x 99999999999 matrix of 4-byte entries is too large to address");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate integer general\n2 2 5\n"),
            "m.mtx:2: more entries than positions");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate integer general\n2 2 1\n0 1 1\n"),
            "m.mtx:3: position (0, 1) is outside the 2 x 2 matrix");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1\n"),
            "m.mtx:3: expected 'row column value imag'");
  EXPECT_EQ(error_of("%%MatrixMarket matrix array real general\n1 1\n1e999\n", true),
            "m.mtx:3: entry '1e999' is beyond the largest double (about 1.8e308)");
  EXPECT_EQ(error_of("%%MatrixMarket matrix array real general\n1 1\n1e-400\n", true),
            "m.mtx:3: entry '1e-400' is below the smallest double (about 4.9e-324) and would be 0");
  EXPECT_EQ(error_of("%%MatrixMarket matrix array complex general\n1 1\n1 nan\n", true),
            "m.mtx:3: entry 'nan' is NaN, not a finite number");
  EXPECT_EQ(error_of("%%MatrixMarket matrix array complex general\n1 1\n1 2\n"),
            "m.mtx:3: complex entries in a modular run");
}

TEST(MatrixMarket, SizeLimitIsCheckedBeforeAllocation) {
  std::istringstream in("%%MatrixMarket matrix array integer general\n1000 1000\n");
  ReadLimits limits;
  limits.max_bytes = 1u << 20;
  EXPECT_THROW(read_matrix_market(in, "m.mtx", hepex::field::Zp64(65521), limits), hepex::Error);
}

// On a device the matrix is held once, plus the work's scratch; both are
// counted before any allocation, and the message names them.
TEST(MatrixMarket, DeviceMemoryCountsOneCopyAndTheScratch) {
  const std::string header = "%%MatrixMarket matrix array integer general\n1000 1000\n";
  ReadLimits limits;
  limits.max_bytes = std::size_t{1} << 40;
  limits.copies = 3;
  limits.device_bytes = 10u << 20;  // 10 MiB: the 8 MB matrix fits alone
  limits.device_workspace = [](std::size_t rows, std::size_t cols, std::size_t entry) {
    return rows * cols * entry / 2;  // 4 MB more: too much
  };
  std::istringstream in(header);
  try {
    read_matrix_market(in, "m.mtx", hepex::field::Zp64(65521), limits);
    ADD_FAILURE() << "14 MB on a 10 MiB device";
  } catch (const hepex::Error& e) {
    EXPECT_NE(std::string(e.what()).find("MiB of device memory for the matrix and 3 MiB for the "
                                         "work's scratch, more than the device's 10 MiB"),
              std::string::npos)
        << e.what();
  }
  limits.device_workspace = nullptr;  // the matrix alone fits: the reader goes on to the entries
  std::istringstream short_input(header);
  try {
    read_matrix_market(short_input, "m.mtx", hepex::field::Zp64(65521), limits);
    ADD_FAILURE() << "a file without entries";
  } catch (const hepex::Error& e) {
    EXPECT_EQ(std::string(e.what()).find("device memory"), std::string::npos) << e.what();
  }
  // The estimate rref uses at n = 100,000 of 4-byte residues: 37.3 GiB for
  // the matrix, 64.0 GiB in all, above the 63.1 GiB an H200 measured with
  // panels of 1024, and below the 80 GB of an H100.
  const double gib = static_cast<double>(std::size_t{1} << 30);
  const double all =
      (4e10 + static_cast<double>(hepex::linalg::rref_device_workspace(100000, 100000, 4))) / gib;
  EXPECT_GT(all, 63.13);
  EXPECT_LT(all, 66.0);
}

}  // namespace
