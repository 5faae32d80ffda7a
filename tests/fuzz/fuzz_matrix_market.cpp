// libFuzzer target for the Matrix Market reader: any input either parses into
// a matrix of the declared shape or raises hepex::Error; nothing else (no
// crash, no sanitizer report, no other exception).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "hepex/io/matrix_market.hpp"

namespace {
template <class F>
void read_as(const std::string& text, const F& field) {
  std::istringstream in(text);
  hepex::io::ReadLimits limits;
  limits.max_bytes = 1u << 20;  // declared sizes beyond this must be refused, not allocated
  try {
    const auto a = hepex::io::read_matrix_market(in, "fuzz.mtx", field, limits);
    if (a.data.size() != a.rows * a.cols) __builtin_trap();
  } catch (const hepex::Error&) {
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  read_as(text, hepex::field::Zp32(65521));
  read_as(text, hepex::field::Zp64(9223372036854775783ull));
  read_as(text, hepex::field::Real64());
  read_as(text, hepex::field::Complex128());
  return 0;
}
