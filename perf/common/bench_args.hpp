#pragma once
// Command-line arguments of the perf/ programs, checked before any work:
// whole numbers in a range, primes, lists; a bad one, or any error while the
// benchmark runs, ends in "PROGRAM: message" and exit 1 (guarded_main), not
// an abort or a wrapped value.

#include <cstdint>
#include <exception>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hepex/field/primes.hpp"

namespace hepex::perf {

// A whole number in [low, high], all digits; else std::invalid_argument.
inline std::uint64_t whole_argument(const std::string& text, const char* name, std::uint64_t low,
                                    std::uint64_t high) {
  const auto fail = [&] {
    throw std::invalid_argument(std::string(name) + " '" + text + "': a whole number from " +
                                std::to_string(low) + " to " + std::to_string(high));
  };
  if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos)
    fail();
  std::uint64_t value = 0;
  for (const char c : text) {
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) fail();
    value = value * 10 + digit;
  }
  if (value < low || value > high) fail();
  return value;
}

// A prime below 2^bits (the field's word), else std::invalid_argument.
inline std::uint64_t prime_argument(const std::string& text, int bits) {
  const std::uint64_t limit = bits >= 64 ? UINT64_MAX : (std::uint64_t(1) << bits) - 1;
  const std::uint64_t p = whole_argument(text, "prime", 2, limit);
  if (!field::is_prime(p)) throw std::invalid_argument("prime '" + text + "' is not a prime");
  return p;
}

// "N1,N2,...": each a whole number in [low, high].
inline std::vector<std::uint64_t> whole_list_argument(const std::string& text, const char* name,
                                                      std::uint64_t low, std::uint64_t high) {
  std::vector<std::uint64_t> values;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');)
    values.push_back(whole_argument(item, name, low, high));
  if (values.empty()) throw std::invalid_argument(std::string(name) + ": an empty list");
  return values;
}

// Runs the program's body; any exception: "program: what" and exit 1.
template <class Body>
int guarded_main(const char* program, Body&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace hepex::perf
