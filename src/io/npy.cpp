// The .npy format (numpy.lib.format): the magic string "\x93NUMPY", one
// byte each of major and minor version, the header's length (2 bytes
// little-endian in version 1.0, 4 bytes in 2.0 and 3.0; 3.0 only allows
// UTF-8 in the header), then the header: a Python dict literal
//   {'descr': '<u4', 'fortran_order': False, 'shape': (3, 4), }
// padded with spaces and ended by '\n' so that the data starts at a
// multiple of 64 bytes (16 in older files). The data follows, nothing else.
#include "hepex/io/npy.hpp"

#include <cctype>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

namespace hepex::io::detail {

namespace {

constexpr char magic[] = "\x93NUMPY";
constexpr std::size_t magic_bytes = 6;
// numpy itself refuses headers over 10000 bytes by default.
constexpr std::size_t max_header_bytes = std::size_t{1} << 20;

bool little_endian_host() {
  const std::uint16_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

std::string shape_text(const NpyHeader& h) {
  return h.dimensions == 1 ? "(" + std::to_string(h.rows) + ",)"
                           : std::to_string(h.rows) + " x " + std::to_string(h.cols);
}

// The dtype string: byte order ('<' little, '>' big, '|' not applicable,
// '=' this machine's), kind letter and item size in bytes.
void parse_descr(const std::string& descr, NpyHeader& h, const std::string& name) {
  const auto refuse = [&](const std::string& why) {
    throw Error(name + ": dtype '" + descr + "' is not supported: " + why);
  };
  if (descr.size() < 2 || std::string("<>|=").find(descr[0]) == std::string::npos) {
    refuse("expected a byte order '<', '>', '|' or '=' followed by a kind and size");
  }
  const char kind = descr[1];
  if (kind == 'O') {
    refuse(
        "object arrays are pickled; save integers as int64/uint64 (a.astype(numpy.int64)) "
        "and floating point as float64 or complex128");
  }
  // The kind letter and item size in bytes.
  static const std::map<std::string, std::pair<NpyType, std::size_t>> types{
      {"i1", {NpyType::i1, 1}}, {"i2", {NpyType::i2, 2}}, {"i4", {NpyType::i4, 4}},
      {"i8", {NpyType::i8, 8}}, {"u1", {NpyType::u1, 1}}, {"u2", {NpyType::u2, 2}},
      {"u4", {NpyType::u4, 4}}, {"u8", {NpyType::u8, 8}}, {"f4", {NpyType::f4, 4}},
      {"f8", {NpyType::f8, 8}}, {"c8", {NpyType::c8, 8}}, {"c16", {NpyType::c16, 16}}};
  const auto found = types.find(descr.substr(1));
  if (found == types.end()) {
    refuse("hepex reads int8-int64, uint8-uint64, float32, float64, complex64 and complex128");
  }
  const auto [type, size] = found->second;
  if (descr[0] == '|' && size != 1) refuse("byte order '|' on a multi-byte type");
  h.descr = descr;
  h.type = type;
  h.item_bytes = size;
  const bool big = descr[0] == '>' || (descr[0] == '=' && !little_endian_host());
  h.swap = size > 1 && big == little_endian_host();
}

// A recursive-descent reader of the header dict, which is all it accepts.
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& name) : text_(text), name_(name) {}

  NpyHeader parse() {
    NpyHeader h;
    std::map<std::string, bool> seen;
    expect('{');
    while (!take('}')) {
      const std::string key = string_literal();
      expect(':');
      if (seen[key]) fail("key '" + key + "' appears twice");
      seen[key] = true;
      if (key == "descr") {
        if (peek() != '\'' && peek() != '"') {
          throw Error(name_ +
                      ": structured dtypes (a list as 'descr') are not supported; "
                      "save a plain numeric array");
        }
        parse_descr(string_literal(), h, name_);
      } else if (key == "fortran_order") {
        h.fortran_order = boolean();
      } else if (key == "shape") {
        shape(h);
      } else {
        fail("unexpected key '" + key + "'");
      }
      if (!take(',')) {
        expect('}');
        break;
      }
    }
    skip_space();
    if (pos_ != text_.size()) fail("text after the dict");
    for (const char* key : {"descr", "fortran_order", "shape"}) {
      if (!seen[key]) fail(std::string("no '") + key + "' key");
    }
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    const std::size_t shown = 200;
    throw Error(name_ + ": malformed .npy header: " + what + " in \"" + text_.substr(0, shown) +
                (text_.size() > shown ? "...\"" : "\""));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char peek() {
    skip_space();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool take(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  std::string string_literal() {
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a quoted string");
    const std::size_t end = text_.find(quote, ++pos_);
    if (end == std::string::npos) fail("unterminated string");
    std::string s = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return s;
  }
  bool boolean() {
    skip_space();
    for (const auto& [word, value] :
         {std::pair<const char*, bool>{"True", true}, {"False", false}}) {
      if (text_.compare(pos_, std::strlen(word), word) == 0) {
        pos_ += std::strlen(word);
        return value;
      }
    }
    fail("'fortran_order' is neither True nor False");
  }
  std::size_t integer() {
    skip_space();
    const std::size_t start = pos_;
    std::size_t value = 0;
    for (; pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])); ++pos_) {
      const auto digit = static_cast<std::size_t>(text_[pos_] - '0');
      if (value > (std::numeric_limits<std::size_t>::max() - digit) / 10)
        fail("a dimension is too large");
      value = value * 10 + digit;
    }
    if (pos_ == start) fail("a dimension is not a non-negative integer");
    if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;  // Python 2's long literal
    return value;
  }
  // A tuple of dimensions: "()", "(n,)", "(r, c)", ...
  void shape(NpyHeader& h) {
    expect('(');
    std::vector<std::size_t> dims;
    while (!take(')')) {
      dims.push_back(integer());
      if (!take(',')) {
        expect(')');
        break;
      }
    }
    if (dims.size() == 1 || dims.size() == 2) {
      h.dimensions = dims.size();
      h.rows = dims[0];
      h.cols = dims.size() == 2 ? dims[1] : 1;
      return;
    }
    std::ostringstream text;
    for (std::size_t k = 0; k < dims.size(); ++k) text << (k ? ", " : "") << dims[k];
    throw Error(name_ + ": a " + std::to_string(dims.size()) + "-dimensional array (shape (" +
                text.str() + ")); hepex reads a matrix (2-D) or a vector (1-D)");
  }

  const std::string& text_;
  const std::string& name_;
  std::size_t pos_ = 0;
};

// Reads n bytes, or says how many there were.
std::size_t read_up_to(std::istream& in, char* to, std::size_t n) {
  in.read(to, static_cast<std::streamsize>(n));
  return static_cast<std::size_t>(in.gcount());
}

std::size_t little_endian_value(const unsigned char* bytes, std::size_t n) {
  std::size_t value = 0;
  for (std::size_t k = n; k-- > 0;) value = value << 8 | bytes[k];
  return value;
}

}  // namespace

NpyHeader read_npy_header(std::istream& in, const std::string& name) {
  if (!in) throw Error(name + ": cannot read the file");
  unsigned char start[magic_bytes + 2];
  const std::size_t got = read_up_to(in, reinterpret_cast<char*>(start), sizeof start);
  if (got < magic_bytes || std::memcmp(start, magic, magic_bytes) != 0) {
    throw Error(name + ": not a .npy file (it does not start with \"\\x93NUMPY\")");
  }
  if (got < sizeof start) throw Error(name + ": the file ends inside the .npy header");
  const unsigned major = start[magic_bytes], minor = start[magic_bytes + 1];
  if (major < 1 || major > 3 || minor != 0) {
    throw Error(name + ": .npy format version " + std::to_string(major) + "." +
                std::to_string(minor) + " is not supported (1.0, 2.0 and 3.0 are)");
  }
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  unsigned char length[4];
  if (read_up_to(in, reinterpret_cast<char*>(length), length_bytes) != length_bytes) {
    throw Error(name + ": the file ends inside the .npy header");
  }
  const std::size_t header_bytes = little_endian_value(length, length_bytes);
  if (header_bytes > max_header_bytes) {
    throw Error(name + ": a .npy header of " + std::to_string(header_bytes) +
                " bytes: malformed (numpy writes well under 1 MiB)");
  }
  std::string text(header_bytes, '\0');
  const std::size_t read = read_up_to(in, text.data(), header_bytes);
  if (read != header_bytes) {
    throw Error(name + ": the file ends inside the .npy header (" + std::to_string(read) +
                " of its " + std::to_string(header_bytes) + " bytes)");
  }
  if (text.empty() || text.back() != '\n') {
    throw Error(name + ": malformed .npy header: it does not end with a newline");
  }
  text.pop_back();
  const NpyHeader h = HeaderParser(text, name).parse();
  check_fits(h.rows, h.cols, h.item_bytes, name, ReadLimits());  // the data's size is addressable
  return h;
}

namespace {
std::string data_needs(const NpyHeader& h) {
  return shape_text(h) + " " + h.descr + " needs " +
         std::to_string(h.rows * h.cols * h.item_bytes) + " bytes of data";
}
}  // namespace

void read_npy_data(std::istream& in, char* to, std::size_t bytes, std::size_t before,
                   const NpyHeader& h, const std::string& name) {
  const std::size_t got = read_up_to(in, to, bytes);
  if (got != bytes) {
    throw Error(name + ": " + data_needs(h) + ", the file has " + std::to_string(before + got));
  }
}

void expect_npy_end(std::istream& in, const NpyHeader& h, const std::string& name) {
  if (in.peek() == std::char_traits<char>::eof()) return;
  in.ignore(std::numeric_limits<std::streamsize>::max());
  const std::size_t extra = static_cast<std::size_t>(in.gcount());
  throw Error(name + ": " + data_needs(h) + ", the file has " + std::to_string(extra) +
              " more bytes after them");
}

void npy_entry_error(const NpyHeader& h, std::size_t index, const std::string& name,
                     const std::string& what) {
  const std::size_t i = h.fortran_order ? index % h.rows : index / h.cols;
  const std::size_t j = h.fortran_order ? index / h.rows : index % h.cols;
  throw Error(name + ": a[" + std::to_string(i) +
              (h.dimensions == 2 ? ", " + std::to_string(j) : "") + "] " + what);
}

void npy_dtype_error(const NpyHeader& h, const std::string& name, const std::string& why) {
  throw Error(name + ": dtype '" + h.descr + "' cannot be read here: " + why);
}

void write_npy_header(std::ostream& out, const char* type, std::size_t rows, std::size_t cols) {
  std::string dict = std::string("{'descr': '") + (little_endian_host() ? '<' : '>') + type +
                     "', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                     std::to_string(cols) + "), }";
  // magic, version, 2 length bytes, dict, spaces, '\n': a multiple of 64 bytes.
  const std::size_t fixed = magic_bytes + 2 + 2;
  const std::size_t padded = (fixed + dict.size() + 1 + 63) / 64 * 64;
  dict.append(padded - fixed - dict.size() - 1, ' ');
  dict += '\n';
  const std::size_t length = dict.size();
  const char prefix[] = {magic[0],
                         magic[1],
                         magic[2],
                         magic[3],
                         magic[4],
                         magic[5],
                         1,
                         0,
                         static_cast<char>(length & 0xff),
                         static_cast<char>(length >> 8)};
  out.write(prefix, sizeof prefix);
  out << dict;
}

}  // namespace hepex::io::detail
