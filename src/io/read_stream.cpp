#include "hepex/io/read_stream.hpp"

#include <vector>

namespace hepex::io {

void append_stream(std::istream& in, std::string& out, std::size_t size_hint) {
  if (size_hint > 0) out.reserve(out.size() + size_hint);
  std::vector<char> block(std::size_t{1} << 20);
  while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0)
    out.append(block.data(), static_cast<std::size_t>(in.gcount()));
}

std::string read_stream(std::istream& in, std::size_t size_hint) {
  std::string out;
  append_stream(in, out, size_hint);
  return out;
}

}  // namespace hepex::io
