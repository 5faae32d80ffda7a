// io::read_stream against the istreambuf_iterator it replaces (a character
// at a time, the oracle): random bytes (zeros and newlines among them) of
// sizes around the 1 MB block, with and without a size hint, and
// append_stream keeping what the string held.
#include <gtest/gtest.h>

#include <iterator>
#include <random>
#include <sstream>
#include <string>

#include "hepex/io/read_stream.hpp"
#include "test_seed.hpp"

namespace {

TEST(ReadStream, SameBytesAsCharacterAtATime) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  const std::size_t block = std::size_t{1} << 20;
  for (const std::size_t size : {std::size_t{0}, std::size_t{1}, block - 1, block, block + 1,
                                 3 * block + 5, std::size_t(rng() % (2 * block))}) {
    std::string bytes(size, '\0');
    for (auto& c : bytes) c = static_cast<char>(rng() % 4 == 0 ? '\n' : rng() % 256);
    std::istringstream a(bytes), b(bytes), c(bytes);
    const std::string oracle(std::istreambuf_iterator<char>(a), {});
    EXPECT_EQ(hepex::io::read_stream(b), oracle) << size;
    std::string out = "T";
    hepex::io::append_stream(c, out, size);
    EXPECT_EQ(out, "T" + oracle) << size;
    EXPECT_FALSE(c.bad()) << size;
  }
}

}  // namespace
