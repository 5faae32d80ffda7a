// libFuzzer target for the --momenta file reader: any input either gives
// events of 4 * particles numbers each, one line number per event, or raises
// hepex::Error; nothing else (no crash, no sanitizer report).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "hepex/core/error.hpp"
#include "hepex/io/momenta_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const int particles : {4, 5, 7}) {
    std::istringstream in(text);
    try {
      const auto events = hepex::io::read_momenta_file(in, "fuzz.txt", particles);
      const std::size_t per_event = 4 * static_cast<std::size_t>(particles);
      if (events.momenta.empty() || events.momenta.size() != events.lines.size() * per_event)
        __builtin_trap();
    } catch (const hepex::Error&) {
    }
  }
  return 0;
}
