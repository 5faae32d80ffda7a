// libFuzzer target for the expression parser and its evaluation kernel: any
// input either parses (and then evaluates at a few points, with or without a
// division by zero, within the stack it declared) or raises hepex::Error;
// nothing else (no crash, no sanitizer report, no other exception).
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "hepex/core/error.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/black_box.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!Kokkos::is_initialized()) Kokkos::initialize();
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    auto e = hepex::io::Expression::parse(text, {"x", "y", "z"});
    if (e.stack_depth() > hepex::io::max_stack_depth || e.code().empty()) __builtin_trap();
    const auto box = hepex::reconstruct::expression_black_box({std::move(e)}, 3);
    std::vector<std::uint64_t> out;
    std::vector<std::uint8_t> ok;
    box->evaluate(hepex::field::Zp64(1000003), 3, {0, 0, 0, 1, 2, 3, 1000002, 5, 7}, out, ok);
    if (ok.size() != 3 || out.size() != 3) __builtin_trap();
  } catch (const hepex::Error&) {
  }
  return 0;
}
