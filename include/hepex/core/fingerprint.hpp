#pragma once
// 64-bit FNV-1a (Fowler, Noll, Vo): the fingerprints of checkpoint files,
// job lists and probe logs. It detects damage and mix-ups (a random change
// goes unnoticed with probability 2^-64); it is not a security measure.

#include <cstddef>
#include <cstdint>
#include <string>

namespace hepex {

class Fnv1a {
 public:
  // Continues the hash over `size` bytes.
  void add(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
      hash_ ^= bytes[i];
      hash_ *= 1099511628211ull;
    }
  }
  // Continues the hash over a word's 8 little-endian bytes (the same on
  // every machine).
  void add_word(std::uint64_t word) {
    for (int b = 0; b < 8; ++b) {
      hash_ ^= (word >> (8 * b)) & 0xff;
      hash_ *= 1099511628211ull;
    }
  }
  std::uint64_t value() const { return hash_; }
  // The value as 16 lower-case hexadecimal digits.
  std::string hexadecimal() const {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text(16, '0');
    for (int i = 0; i < 16; ++i) text[15 - i] = digits[(hash_ >> (4 * i)) & 0xf];
    return text;
  }

 private:
  std::uint64_t hash_ = 14695981039346656037ull;
};

// The fingerprint of `bytes`: their FNV-1a in 16 hexadecimal digits.
inline std::string fingerprint(const std::string& bytes) {
  Fnv1a hash;
  hash.add(bytes.data(), bytes.size());
  return hash.hexadecimal();
}

}  // namespace hepex
