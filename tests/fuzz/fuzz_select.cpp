// libFuzzer target for the --select file reader: any input either gives one
// entry per event in every column its form has (igraph and channel whole
// numbers from 0 to 10^9), one line number per event, or raises
// hepex::Error; nothing else (no crash, no sanitizer report).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "hepex/core/error.hpp"
#include "hepex/io/select_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const auto f = hepex::io::read_select_file(in, "fuzz.txt");
    const std::size_t n = f.lines.size();
    if (n == 0 || f.columns < 3 || f.columns > 5 || f.gs.size() != n || f.rndhel.size() != n ||
        f.rndcol.size() != n || f.igraph.size() != (f.columns >= 4 ? n : 0) ||
        f.channel.size() != (f.columns == 5 ? n : 0))
      __builtin_trap();
    for (const int x : f.igraph)
      if (x < 0 || x > 1000000000) __builtin_trap();
    for (const int x : f.channel)
      if (x < 0 || x > 1000000000) __builtin_trap();
  } catch (const hepex::Error&) {
  }
  return 0;
}
