// .npy reading and writing: random files of every accepted dtype, C and
// Fortran order, both byte orders and format versions 1.0-3.0, written by
// the small writer below (not by write_npy) and read into every field, Z/p
// reduction checked against GMP; write_npy round trips; every malformed file
// refused with its name; the Matrix Market coordinate writer read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "hepex/field/big_integer.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/io/matrix_market.hpp"
#include "hepex/io/npy.hpp"
#include "hepex/io/npy_rows.hpp"
#include "scratch_directory.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace {

using hepex::Matrix;
using hepex::io::read_npy;

// A .npy file's bytes, from the format's description: magic, version, header
// length (2 bytes in 1.0, 4 in 2.0/3.0), the dict (keys in `key_order`),
// spaces and '\n' up to a multiple of `align`, then `data`.
std::string npy_file(const std::string& descr, bool fortran, const std::string& shape,
                     const std::string& data, int major = 1, std::size_t align = 64,
                     int key_order = 0) {
  const std::string items[] = {"'descr': '" + descr + "'",
                               std::string("'fortran_order': ") + (fortran ? "True" : "False"),
                               "'shape': " + shape};
  const int order[3][3] = {{0, 1, 2}, {2, 0, 1}, {1, 2, 0}};
  std::string dict = "{";
  for (int k : order[key_order % 3]) dict += items[k] + ", ";
  dict += "}";
  const std::size_t length_bytes = major == 1 ? 2 : 4, fixed = 8 + length_bytes;
  while ((fixed + dict.size() + 1) % align != 0) dict += ' ';
  dict += '\n';
  std::string file = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
  for (std::size_t k = 0; k < length_bytes; ++k)
    file += static_cast<char>(dict.size() >> (8 * k) & 0xff);
  return file + dict + data;
}

// value's bytes, little-endian or big-endian (each half of a complex on its
// own); the test machine is little-endian.
template <class V>
void append(std::string& data, const V& value, bool big, std::size_t part = sizeof(V)) {
  char bytes[sizeof(V)];
  std::memcpy(bytes, &value, sizeof(V));
  for (std::size_t k = 0; big && k < sizeof(V); k += part)
    std::reverse(bytes + k, bytes + k + part);
  data.append(bytes, sizeof(V));
}

template <class F>
Matrix<typename F::value_type> read_text(const std::string& bytes, const F& f,
                                         const hepex::io::ReadLimits& limits = {}) {
  std::istringstream in(bytes);
  return read_npy(in, "t.npy", f, limits);
}

// One random file of dtype `code` (e.g. "i4"): a random shape (1-D or 2-D,
// zero extents included), order, byte order, version and header layout;
// `value(rng)` gives a stored value, `expect(value)` its element.
template <class F, class Raw, class Value, class Expect>
void check_random_file(const F& f, const std::string& code, std::mt19937_64& rng, Value value,
                       Expect expect) {
  const std::size_t rows = rng() % 9, cols = rng() % 2 == 0 ? 1 : rng() % 9;
  const bool vector = cols == 1 && rng() % 2 == 0, fortran = rng() % 2 == 0;
  const bool one_byte = sizeof(Raw) == 1, big = rng() % 2 == 0;
  const std::string order = one_byte && rng() % 2 == 0 ? "|" : big ? ">" : "<";
  Matrix<typename F::value_type> expected(rows, cols);
  std::vector<Raw> values(rows * cols);
  for (std::size_t k = 0; k < values.size(); ++k) {
    values[k] = value(rng);
    expected.data[k] = expect(values[k]);
  }
  std::string data;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const std::size_t at = fortran ? (k % rows) * cols + k / rows : k;
    append(data, values[at], order == ">", code[0] == 'c' ? sizeof(Raw) / 2 : sizeof(Raw));
  }
  const std::string shape = vector ? "(" + std::to_string(rows) + ",)"
                                   : "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
  const int major = 1 + static_cast<int>(rng() % 3);
  const std::string file = npy_file(order + code, fortran, shape, data, major,
                                    rng() % 2 == 0 ? 64 : 16, static_cast<int>(rng() % 3));
  SCOPED_TRACE(order + code + " " + shape + (fortran ? " Fortran" : " C") + " version " +
               std::to_string(major));
  EXPECT_TRUE(read_text(file, f) == expected);
}

// Integers of every width into Z/p: any sign and size, reduced as GMP does.
template <class Word, class Raw>
void check_integers(const hepex::field::Zp<Word>& f, const std::string& code,
                    std::mt19937_64& rng) {
  const auto value = [](std::mt19937_64& r) {
    Raw x;
    const std::uint64_t bits = r();
    std::memcpy(&x, &bits, sizeof(Raw));
    return x;
  };
  const auto expect = [&](Raw x) {
    const mpz_class big = std::is_signed<Raw>::value ? mpz_class(static_cast<long>(x))
                                                     : mpz_class(static_cast<unsigned long>(x));
    return hepex::field::from_big(f, big);
  };
  check_random_file<hepex::field::Zp<Word>, Raw>(f, code, rng, value, expect);
}

template <class Word>
void check_every_integer_type(const hepex::field::Zp<Word>& f, std::mt19937_64& rng) {
  check_integers<Word, std::int8_t>(f, "i1", rng);
  check_integers<Word, std::int16_t>(f, "i2", rng);
  check_integers<Word, std::int32_t>(f, "i4", rng);
  check_integers<Word, std::int64_t>(f, "i8", rng);
  check_integers<Word, std::uint8_t>(f, "u1", rng);
  check_integers<Word, std::uint16_t>(f, "u2", rng);
  check_integers<Word, std::uint32_t>(f, "u4", rng);
  check_integers<Word, std::uint64_t>(f, "u8", rng);
}

// Floating-point values of type Raw (finite, within float range), and
// integers that Real holds exactly, into a real or complex field.
template <class F, class Real>
void check_floating_types(const F& f, std::mt19937_64& rng) {
  using T = typename F::value_type;
  hepex::test::UniformReal u(-1e6, 1e6);
  const auto real = [&](auto raw) {
    using Raw = decltype(raw);
    check_random_file<F, Raw>(
        f, std::is_same<Raw, float>::value ? "f4" : "f8", rng,
        [&](std::mt19937_64& r) { return static_cast<Raw>(u(r) / 3); },
        [](Raw x) { return T(static_cast<Real>(x)); });
  };
  real(float{});
  real(double{});
  const auto exact_integer = [&](auto raw, const char* code) {
    using Raw = decltype(raw);
    const int bits = std::min<int>(8 * sizeof(Raw) - 1, std::numeric_limits<Real>::digits);
    check_random_file<F, Raw>(
        f, code, rng,
        [&](std::mt19937_64& r) {
          const auto m = static_cast<std::int64_t>(r() >> (64 - bits));
          return static_cast<Raw>(r() % 2 == 0 ? m : -m);
        },
        [](Raw x) { return T(static_cast<Real>(x)); });
  };
  exact_integer(std::int8_t{}, "i1");
  exact_integer(std::int32_t{}, "i4");
  exact_integer(std::int64_t{}, "i8");
}

template <class Real>
void check_complex_types(const hepex::field::ComplexField<Real>& f, std::mt19937_64& rng) {
  using Raw = hepex::io::detail::NpyComplex<double>;
  hepex::test::UniformReal u(-1e6, 1e6);
  check_random_file<hepex::field::ComplexField<Real>, Raw>(
      f, "c16", rng,
      [&](std::mt19937_64& r) {
        return Raw{u(r), u(r)};
      },
      [](Raw x) {
        return Kokkos::complex<Real>(static_cast<Real>(x.re), static_cast<Real>(x.im));
      });
  using Raw8 = hepex::io::detail::NpyComplex<float>;
  check_random_file<hepex::field::ComplexField<Real>, Raw8>(
      f, "c8", rng,
      [&](std::mt19937_64& r) {
        return Raw8{static_cast<float>(u(r)), static_cast<float>(u(r))};
      },
      [](Raw8 x) { return Kokkos::complex<Real>(x.re, x.im); });
  check_floating_types<hepex::field::ComplexField<Real>, Real>(f, rng);
}

constexpr int rounds = 40;  // seeds seed() .. seed() + 39

TEST(Npy, ReadsEveryDtypeIntoEveryField) {
  for (int round = 0; round < rounds; ++round) {
    const std::uint64_t seed = hepex::test::seed() + static_cast<std::uint64_t>(round);
    SCOPED_TRACE(hepex::test::seed_trace() + " round " + std::to_string(round) + " (rng seed " +
                 std::to_string(seed) + ")");
    std::mt19937_64 rng(seed);
    const auto small = hepex::field::large_primes(1)[0];
    const std::uint64_t primes32[] = {2, 7, 65521, 2147483647};
    check_every_integer_type(hepex::field::Zp32(primes32[round % 4]), rng);
    check_every_integer_type(hepex::field::Zp64(round % 2 == 0 ? small : 3), rng);
    check_floating_types<hepex::field::Real64, double>(hepex::field::Real64(), rng);
    check_floating_types<hepex::field::Real32, float>(hepex::field::Real32(), rng);
    check_complex_types(hepex::field::Complex128(), rng);
    check_complex_types(hepex::field::Complex64(), rng);
  }
}

// write_npy's files read back, with numpy's header layout.
template <class F>
void check_write(const F& f, const Matrix<typename F::value_type>& a, const std::string& descr) {
  std::stringstream file;
  hepex::io::write_npy(file, a, f);
  const std::string bytes = file.str();
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header =
      static_cast<unsigned char>(bytes[8]) + 256u * static_cast<unsigned char>(bytes[9]);
  EXPECT_EQ((10 + header) % 64, 0u);
  const std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" +
                           std::to_string(a.rows) + ", " + std::to_string(a.cols) + "), }";
  const std::string text = bytes.substr(10, header);
  EXPECT_EQ(text.substr(0, dict.size()), dict);
  EXPECT_EQ(text.find_first_not_of(' ', dict.size()), header - 1);  // spaces, then '\n'
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(bytes.size(), 10 + header + a.data.size() * sizeof(typename F::value_type));
  EXPECT_TRUE(read_text(bytes, f) == a);
}

TEST(Npy, WriteRoundTripsEveryField) {
  std::mt19937_64 rng(hepex::test::seed());
  SCOPED_TRACE(hepex::test::seed_trace());
  hepex::test::UniformReal u(-1e6, 1e6);
  const hepex::field::Zp32 zp32(2147483647);
  const hepex::field::Zp64 zp64(hepex::field::large_primes(1)[0]);
  for (auto [m, n] :
       std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {7, 3}, {3, 7}, {0, 4}, {130, 1}}) {
    Matrix<std::uint32_t> a(m, n);
    Matrix<std::uint64_t> b(m, n);
    Matrix<double> c(m, n);
    Matrix<float> d(m, n);
    Matrix<Kokkos::complex<double>> e(m, n);
    Matrix<Kokkos::complex<float>> g(m, n);
    for (std::size_t k = 0; k < m * n; ++k) {
      a.data[k] = zp32.from_uint(rng());
      b.data[k] = zp64.from_uint(rng());
      c.data[k] = u(rng) / 3;
      d.data[k] = static_cast<float>(u(rng) / 7);
      e.data[k] = Kokkos::complex<double>(u(rng) / 11, u(rng) / 13);
      g.data[k] = Kokkos::complex<float>(static_cast<float>(u(rng)), static_cast<float>(u(rng)));
    }
    check_write(zp32, a, "<u4");
    check_write(zp64, b, "<u8");
    check_write(hepex::field::Real64(), c, "<f8");
    check_write(hepex::field::Real32(), d, "<f4");
    check_write(hepex::field::Complex128(), e, "<c16");
    check_write(hepex::field::Complex64(), g, "<c8");
  }
}

TEST(Npy, ReadsAndWritesFilesByPath) {
  hepex::test::ScratchDirectory dir("npy");
  const std::string path = (dir.path() / "A.npy").string();
  const hepex::field::Zp32 f(65521);
  Matrix<std::uint32_t> a(2, 3);
  for (std::size_t k = 0; k < 6; ++k) a.data[k] = static_cast<std::uint32_t>(1000 * k + 1);
  hepex::io::write_npy(path, a, f);
  EXPECT_TRUE(read_npy(path, f) == a);
  try {
    read_npy((dir.path() / "missing.npy").string(), f);
    FAIL() << "a missing file was read";
  } catch (const hepex::Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.npy: cannot open the file"), std::string::npos);
  }
  EXPECT_THROW(hepex::io::write_npy((dir.path() / "no" / "B.npy").string(), a, f), hepex::Error);
}

template <class F = hepex::field::Zp32>
std::string error_of(const std::string& bytes, const F& f = F(7),
                     const hepex::io::ReadLimits& limits = {}) {
  try {
    read_text(bytes, f, limits);
  } catch (const hepex::Error& e) {
    return e.what();
  }
  return "accepted";
}

std::string u4(std::initializer_list<std::uint32_t> values) {
  std::string data;
  for (auto v : values) append(data, v, false);
  return data;
}

TEST(Npy, RefusesMalformedFilesWithTheirName) {
  const std::string ok = npy_file("<u4", false, "(2, 2)", u4({1, 2, 3, 4}));
  EXPECT_EQ(error_of(ok), "accepted");
  EXPECT_EQ(error_of(""), "t.npy: not a .npy file (it does not start with \"\\x93NUMPY\")");
  EXPECT_EQ(error_of("%%MatrixMarket matrix array integer general\n"),
            "t.npy: not a .npy file (it does not start with \"\\x93NUMPY\")");
  EXPECT_EQ(error_of(ok.substr(0, 7)), "t.npy: the file ends inside the .npy header");
  EXPECT_EQ(error_of(ok.substr(0, 40)),
            "t.npy: the file ends inside the .npy header (30 of its 118 bytes)");
  std::string version = ok;
  version[6] = 4;
  EXPECT_EQ(error_of(version),
            "t.npy: .npy format version 4.0 is not supported (1.0, 2.0 and 3.0 are)");
  version[6] = 1;
  version[7] = 1;
  EXPECT_EQ(error_of(version),
            "t.npy: .npy format version 1.1 is not supported (1.0, 2.0 and 3.0 are)");
  std::string no_newline = ok;
  no_newline[127] = ' ';
  EXPECT_EQ(error_of(no_newline), "t.npy: malformed .npy header: it does not end with a newline");

  const auto header_error = [](const std::string& dict) {
    std::string file = std::string("\x93NUMPY\x01\x00", 8);
    file += static_cast<char>(dict.size() + 1);
    file += '\0';
    return error_of(file + dict + "\n");
  };
  EXPECT_EQ(header_error("{'descr': '<u4', 'shape': (1, 1), }"),
            "t.npy: malformed .npy header: no 'fortran_order' key in \"{'descr': '<u4', 'shape': "
            "(1, 1), }\"");
  EXPECT_EQ(header_error("{'descr': '<u4', 'fortran_order': False, 'shape': (1, 1), 'x': 1}"),
            "t.npy: malformed .npy header: unexpected key 'x' in \"{'descr': '<u4', "
            "'fortran_order': False, 'shape': (1, 1), 'x': 1}\"");
  EXPECT_EQ(header_error("{'descr': '<u4', 'fortran_order': false, 'shape': (1, 1)}"),
            "t.npy: malformed .npy header: 'fortran_order' is neither True nor False in "
            "\"{'descr': '<u4', 'fortran_order': false, 'shape': (1, 1)}\"");
  EXPECT_EQ(header_error("{'descr': '<u4', 'fortran_order': False, 'shape': (1, -1)}"),
            "t.npy: malformed .npy header: a dimension is not a non-negative integer in "
            "\"{'descr': '<u4', 'fortran_order': False, 'shape': (1, -1)}\"");
  EXPECT_EQ(
      header_error("{'descr': '<u4', 'descr': '<u4', 'fortran_order': False, 'shape': (1, 1)}"),
      "t.npy: malformed .npy header: key 'descr' appears twice in \"{'descr': '<u4', 'descr': "
      "'<u4', 'fortran_order': False, 'shape': (1, 1)}\"");
  EXPECT_EQ(header_error("{'descr': '<u4', 'fortran_order': False, 'shape': (1, 1)} x"),
            "t.npy: malformed .npy header: text after the dict in \"{'descr': '<u4', "
            "'fortran_order': False, 'shape': (1, 1)} x\"");
  EXPECT_EQ(
      header_error("{'descr': [('a', '<u4')], 'fortran_order': False, 'shape': (1,)}"),
      "t.npy: structured dtypes (a list as 'descr') are not supported; save a plain numeric array");

  const auto dtype_error = [](const std::string& descr) {
    return error_of(npy_file(descr, false, "(1, 1)", std::string(16, '\0')));
  };
  EXPECT_EQ(dtype_error("|O"),
            "t.npy: dtype '|O' is not supported: object arrays are pickled; save integers as "
            "int64/uint64 (a.astype(numpy.int64)) and floating point as float64 or complex128");
  for (const char* descr : {"<f2", "|b1", "<U3", "<M8[ns]", "|V16"}) {
    EXPECT_EQ(dtype_error(descr), std::string("t.npy: dtype '") + descr +
                                      "' is not supported: hepex reads int8-int64, uint8-uint64, "
                                      "float32, float64, complex64 and complex128");
  }
  EXPECT_EQ(dtype_error("|u4"),
            "t.npy: dtype '|u4' is not supported: byte order '|' on a multi-byte type");
  EXPECT_EQ(dtype_error("<f8"),
            "t.npy: dtype '<f8' cannot be read here: a modular run reads integer dtypes "
            "(int8-int64, uint8-uint64)");
  EXPECT_EQ(
      error_of(npy_file("<c16", false, "(1,)", std::string(16, '\0')), hepex::field::Real64()),
      "t.npy: dtype '<c16' cannot be read here: complex entries in a real run (use --field "
      "complex)");

  EXPECT_EQ(error_of(npy_file("<u4", false, "(2, 2, 1)", u4({1, 2, 3, 4}))),
            "t.npy: a 3-dimensional array (shape (2, 2, 1)); hepex reads a matrix (2-D) or a "
            "vector (1-D)");
  EXPECT_EQ(
      error_of(npy_file("<u4", false, "()", u4({1}))),
      "t.npy: a 0-dimensional array (shape ()); hepex reads a matrix (2-D) or a vector (1-D)");
  EXPECT_EQ(error_of(npy_file("<u8", false, "(4294967296, 4294967296)", "")),
            "t.npy: a 4294967296 x 4294967296 matrix of 8-byte entries is too large to address");
  hepex::io::ReadLimits limits;
  limits.max_bytes = 1u << 20;
  limits.copies = 3;
  EXPECT_NE(error_of(npy_file("<u4", false, "(1000, 1000)", ""), hepex::field::Zp32(7), limits)
                .find("t.npy: a 1000 x 1000 matrix of 4-byte entries needs 3 copies"),
            std::string::npos);

  EXPECT_EQ(error_of(npy_file("<u4", false, "(1000, 1000)", std::string(123, '\0'))),
            "t.npy: 1000 x 1000 <u4 needs 4000000 bytes of data, the file has 123");
  EXPECT_EQ(error_of(npy_file("<i8", true, "(3,)", std::string(20, '\0'))),
            "t.npy: (3,) <i8 needs 24 bytes of data, the file has 20");
  EXPECT_EQ(error_of(ok + "xyz"),
            "t.npy: 2 x 2 <u4 needs 16 bytes of data, the file has 3 more bytes after them");
}

TEST(Npy, RefusesNonFiniteAndInexactEntriesWithTheirPlace) {
  std::string data;
  for (double x : {1.0, 2.0, 3.0, std::nan("")}) append(data, x, false);
  EXPECT_EQ(error_of(npy_file("<f8", false, "(2, 2)", data), hepex::field::Real64()),
            "t.npy: a[1, 1] is not finite (NaN, Inf or out of range)");
  data.clear();
  for (double x : {1.0, HUGE_VAL, 3.0, 4.0}) append(data, x, false);
  EXPECT_EQ(error_of(npy_file("<f8", true, "(2, 2)", data), hepex::field::Complex128()),
            "t.npy: a[1, 0] is not finite (NaN, Inf or out of range)");
  data.clear();
  for (double x : {1.0, 1e300}) append(data, x, false);
  EXPECT_EQ(error_of(npy_file("<f8", false, "(2,)", data), hepex::field::Real32()),
            "t.npy: a[1] is not finite (NaN, Inf or out of range)");
  data.clear();
  append(data, (std::int64_t{1} << 53) + 1, false);
  EXPECT_EQ(
      error_of(npy_file("<i8", false, "(1, 1)", data), hepex::field::Real64()),
      "t.npy: a[0, 0] = 9007199254740993 has no exact floating-point value of this precision");
  data.clear();
  append(data, std::int64_t{1} << 62, false);  // exact: one significant bit
  EXPECT_EQ(error_of(npy_file("<i8", false, "(1, 1)", data), hepex::field::Real64()), "accepted");
  data.clear();
  append(data, std::int32_t{(1 << 24) + 1}, false);
  EXPECT_EQ(error_of(npy_file("<i4", false, "(1, 1)", data), hepex::field::Real32()),
            "t.npy: a[0, 0] = 16777217 has no exact floating-point value of this precision");
}

// Files of the matrix's own type are read in place, block by block: a few
// values to reduce, or one NaN, among many that need nothing.
TEST(Npy, ConvertsOnlyWhereNeededInLargeFiles) {
  std::mt19937_64 rng(hepex::test::seed());
  SCOPED_TRACE(hepex::test::seed_trace());
  const hepex::field::Zp32 f(65521);
  const std::size_t rows = 150, cols = 100;
  Matrix<std::uint32_t> expected(rows, cols);
  std::string data;
  for (std::size_t k = 0; k < rows * cols; ++k) {
    const auto x = static_cast<std::uint32_t>(rng() % 50 == 0 ? rng() : rng() % 65521);
    expected.data[k] = hepex::field::from_big(f, mpz_class(static_cast<unsigned long>(x)));
    append(data, x, false);
  }
  EXPECT_TRUE(read_text(npy_file("<u4", false, "(150, 100)", data), f) == expected);
  std::string reals;
  const std::size_t nan_at = 5000 + rng() % 5000;
  for (std::size_t k = 0; k < rows * cols; ++k)
    append(reals, k == nan_at ? std::nan("") : 1.5, false);
  EXPECT_EQ(error_of(npy_file("<f8", false, "(150, 100)", reals), hepex::field::Real64()),
            "t.npy: a[" + std::to_string(nan_at / cols) + ", " + std::to_string(nan_at % cols) +
                "] is not finite (NaN, Inf or out of range)");
}

// The coordinate writer's files read back by the Matrix Market reader.
template <class F>
void check_coordinate(const F& f, const Matrix<typename F::value_type>& a, const char* kind) {
  std::stringstream text;
  hepex::io::write_matrix_market_coordinate(text, a, f);
  std::string banner;
  std::getline(text, banner);
  EXPECT_EQ(banner, std::string("%%MatrixMarket matrix coordinate ") + kind + " general");
  std::size_t rows = 0, cols = 0, entries = 0;
  text >> rows >> cols >> entries;
  EXPECT_EQ(entries, a.data.size() - static_cast<std::size_t>(
                                         std::count(a.data.begin(), a.data.end(), f.zero())));
  text.clear();
  text.seekg(0);
  EXPECT_TRUE(hepex::io::read_matrix_market(text, "c.mtx", f) == a);
}

TEST(MatrixMarket, CoordinateWriterReadsBack) {
  std::mt19937_64 rng(hepex::test::seed());
  SCOPED_TRACE(hepex::test::seed_trace());
  hepex::test::UniformReal u(-1e6, 1e6);
  const hepex::field::Zp64 zp(hepex::field::large_primes(1)[0]);
  for (auto [m, n] :
       std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {7, 3}, {3, 7}, {0, 4}, {20, 20}}) {
    Matrix<std::uint64_t> a(m, n);
    Matrix<double> b(m, n);
    Matrix<Kokkos::complex<double>> c(m, n);
    for (std::size_t k = 0; k < m * n; ++k) {
      if (rng() % 3 == 0) continue;  // a third zero
      a.data[k] = zp.from_uint(rng());
      b.data[k] = u(rng) / 3.0;
      c.data[k] = Kokkos::complex<double>(rng() % 2 ? 0.0 : u(rng) / 7.0, u(rng) / 11.0);
    }
    check_coordinate(zp, a, "integer");
    check_coordinate(hepex::field::Real64(), b, "real");
    check_coordinate(hepex::field::Complex128(), c, "complex");
  }
}

}  // namespace

// read_npy_rows (npy_rows.hpp): every block of every split of random files
// (C and Fortran order, both byte orders, signed and unsigned, narrower and
// as wide as the field's words) equals those rows of read_npy's matrix; a
// refused entry is named by its place in the whole matrix; a short file, rows
// outside the matrix and a missing file are errors.
namespace npy_rows {

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

template <class Raw>
std::string random_file(std::size_t rows, std::size_t cols, bool fortran, bool big,
                        const std::string& code, std::mt19937_64& rng) {
  std::string data;
  for (std::size_t k = 0; k < rows * cols; ++k) {
    Raw x;
    const std::uint64_t bits = rng();
    std::memcpy(&x, &bits, sizeof(Raw));
    append(data, x, big);
  }
  return npy_file((big ? ">" : "<") + code, fortran,
                  "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")", data);
}

TEST(NpyRows, EveryBlockEqualsThoseRowsOfTheWholeMatrix) {
  std::mt19937_64 rng(hepex::test::seed());
  hepex::test::ScratchDirectory dir("npy-rows");
  const hepex::field::Zp32 f(2147483647);
  for (int trial = 0; trial < hepex::test::cases(24); ++trial) {
    const std::size_t rows = rng() % 40, cols = 1 + rng() % 30;
    const bool fortran = rng() % 2 == 0, big = rng() % 2 == 0;
    const int type = static_cast<int>(rng() % 3);
    const std::string bytes =
        type == 0   ? random_file<std::int64_t>(rows, cols, fortran, big, "i8", rng)
        : type == 1 ? random_file<std::uint32_t>(rows, cols, fortran, big, "u4", rng)
                    : random_file<std::int16_t>(rows, cols, fortran, big, "i2", rng);
    const auto path = dir.fresh("m" + std::to_string(trial) + ".npy").string();
    write_file(path, bytes);
    const auto whole = read_npy(path, f);
    for (int parts : {1, 2, 3, 7}) {
      for (int r = 0; r < parts; ++r) {
        const std::size_t first = rows * r / parts, count = rows * (r + 1) / parts - first;
        hepex::io::NpyShape shape;
        const auto block = hepex::io::read_npy_rows(path, f, first, count, {}, &shape);
        SCOPED_TRACE("trial " + std::to_string(trial) + ", " + std::to_string(rows) + "x" +
                     std::to_string(cols) + (fortran ? " Fortran" : " C") + ", rows " +
                     std::to_string(first) + " + " + std::to_string(count) + " (" +
                     hepex::test::seed_trace() + ")");
        ASSERT_EQ(shape.rows, rows);
        ASSERT_EQ(shape.cols, cols);
        ASSERT_EQ(block.rows, count);
        ASSERT_EQ(block.cols, cols);
        for (std::size_t i = 0; i < count; ++i)
          for (std::size_t j = 0; j < cols; ++j) ASSERT_EQ(block(i, j), whole(first + i, j));
      }
    }
  }
}

TEST(NpyRows, ErrorsNameTheWholeMatrix) {
  hepex::test::ScratchDirectory dir("npy-rows-bad");
  // 2^53 + 1 has no float64: at a[5, 1] of a 6 x 2 int64 matrix, read as rows 4 and 5.
  std::string data;
  for (int k = 0; k < 12; ++k) append(data, std::int64_t{k == 11 ? (1ll << 53) + 1 : k}, false);
  const auto inexact = dir.fresh("inexact.npy").string();
  write_file(inexact, npy_file("<i8", false, "(6, 2)", data));
  try {
    hepex::io::read_npy_rows(inexact, hepex::field::Real64(1e-10), 4, 2);
    ADD_FAILURE() << "an inexact entry was taken";
  } catch (const hepex::Error& e) {
    EXPECT_NE(std::string(e.what()).find("a[5, 1]"), std::string::npos) << e.what();
  }
  EXPECT_EQ(hepex::io::read_npy_rows(inexact, hepex::field::Real64(1e-10), 0, 4).rows, 4u);
  const auto short_file = dir.fresh("short.npy").string();
  write_file(short_file, npy_file("<i8", false, "(6, 2)", data.substr(0, data.size() - 8)));
  EXPECT_THROW(hepex::io::read_npy_rows(short_file, hepex::field::Zp32(65521), 0, 1), hepex::Error);
  const auto long_file = dir.fresh("long.npy").string();
  write_file(long_file, npy_file("<i8", false, "(6, 2)", data + data.substr(0, 8)));
  EXPECT_THROW(hepex::io::read_npy_rows(long_file, hepex::field::Zp32(65521), 0, 1), hepex::Error);
  EXPECT_THROW(hepex::io::read_npy_rows(inexact, hepex::field::Zp32(65521), 5, 2), hepex::Error);
  EXPECT_THROW(
      hepex::io::read_npy_rows(dir.fresh("none.npy").string(), hepex::field::Zp32(65521), 0, 1),
      hepex::Error);
}

}  // namespace npy_rows
