// hepex::Fnv1a against the published FNV-1a 64-bit test vectors (Fowler,
// Noll, Vo; the reference code's test suite), and its word form against the
// bytes it stands for.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "hepex/core/fingerprint.hpp"
#include "test_seed.hpp"

namespace {

TEST(Fingerprint, PublishedVectors) {
  EXPECT_EQ(hepex::fingerprint(""), "cbf29ce484222325");
  EXPECT_EQ(hepex::fingerprint("a"), "af63dc4c8601ec8c");
  EXPECT_EQ(hepex::fingerprint("foobar"), "85944171f73967e8");
}

TEST(Fingerprint, WordsAreTheirLittleEndianBytes) {
  const std::uint64_t seed = hepex::test::seed();
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < hepex::test::cases(200); ++trial) {
    hepex::Fnv1a words, bytes;
    std::string text;
    for (int i = 0; i < trial % 7; ++i) {
      const std::uint64_t w = rng();
      words.add_word(w);
      for (int b = 0; b < 8; ++b) text.push_back(static_cast<char>((w >> (8 * b)) & 0xff));
    }
    bytes.add(text.data(), text.size());
    ASSERT_EQ(words.value(), bytes.value()) << "seed " << seed << ", trial " << trial;
    ASSERT_EQ(bytes.hexadecimal(), hepex::fingerprint(text)) << "seed " << seed;
  }
}

}  // namespace
