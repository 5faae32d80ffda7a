#include "hepex/io/matrix_market.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <sstream>
#include <unordered_set>
#include <vector>

#include "hepex/io/decimal.hpp"

namespace hepex::io {

namespace detail {

void entry_error(const std::string& name, std::size_t line, const std::string& what) {
  throw Error(name + ":" + std::to_string(line) + ": " + what);
}

bool is_integer_token(const std::string& token) {
  std::size_t start = (!token.empty() && (token[0] == '-' || token[0] == '+')) ? 1 : 0;
  if (start == token.size()) return false;
  return std::all_of(token.begin() + static_cast<std::ptrdiff_t>(start), token.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

double parse_finite_double(const std::string& token, const std::string& name, std::size_t line) {
  const Decimal d = parse_decimal(token);
  if (d.problem != nullptr) entry_error(name, line, "entry '" + token + "' " + d.problem);
  return d.value;
}

void check_fits(std::size_t rows, std::size_t cols, std::size_t entry_bytes,
                const std::string& name, const ReadLimits& limits) {
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  const bool overflow = cols != 0 && (rows > max / cols || rows * cols > max / entry_bytes);
  std::ostringstream what;
  what << name << ": a " << rows << " x " << cols << " matrix of " << entry_bytes
       << "-byte entries ";
  if (overflow) throw Error(what.str() + "is too large to address");
  const std::size_t bytes = rows * cols * entry_bytes,
                    copies = std::max<std::size_t>(limits.copies, 1);
  if (limits.max_bytes != 0 && bytes > limits.max_bytes / copies) {
    what << std::setprecision(3) << "needs " << copies << " cop" << (copies == 1 ? "y" : "ies")
         << " of " << static_cast<double>(bytes) / (1u << 20) << " MiB for the work, more than the "
         << limits.max_bytes / (1u << 20) << " MiB of memory available to it";
    throw Error(what.str());
  }
  if (limits.device_bytes != 0) {
    const std::size_t workspace =
        limits.device_workspace ? limits.device_workspace(rows, cols, entry_bytes) : 0;
    if (bytes > limits.device_bytes || workspace > limits.device_bytes - bytes) {
      what << std::setprecision(3) << "needs " << static_cast<double>(bytes) / (1u << 20)
           << " MiB of device memory for the matrix and " << workspace / (1u << 20)
           << " MiB for the work's scratch, more than the device's "
           << limits.device_bytes / (1u << 20) << " MiB";
      throw Error(what.str());
    }
  }
}

}  // namespace detail

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Reads lines, counting them, skipping comments and blank lines.
class LineReader {
 public:
  LineReader(std::istream& in, const std::string& name, std::size_t lines_read)
      : in_(in), name_(name), line_(lines_read) {}
  // The next data line's tokens, or false at the end of the input.
  bool next(std::vector<std::string>& tokens) {
    std::string text;
    while (std::getline(in_, text)) {
      ++line_;
      if (!text.empty() && text.back() == '\r') text.pop_back();
      if (!text.empty() && text[0] == '%') continue;
      std::istringstream words(text);
      tokens.clear();
      for (std::string w; words >> w;) tokens.push_back(w);
      if (!tokens.empty()) return true;
    }
    return false;
  }
  std::size_t line() const { return line_; }
  [[noreturn]] void fail(const std::string& what) const { detail::entry_error(name_, line_, what); }

 private:
  std::istream& in_;
  const std::string& name_;
  std::size_t line_;
};

std::size_t parse_count(const std::string& token, const LineReader& reader, const char* what) {
  if (!detail::is_integer_token(token) || token[0] == '-') {
    reader.fail(std::string(what) + " '" + token + "' is not a non-negative integer");
  }
  errno = 0;
  const unsigned long long v = std::strtoull(token.c_str(), nullptr, 10);
  if (errno == ERANGE) reader.fail(std::string(what) + " '" + token + "' is too large");
  return static_cast<std::size_t>(v);
}

}  // namespace

void parse_matrix_market(std::istream& in, const std::string& name, const MatrixMarketSink& sink) {
  if (!in) throw Error(name + ": cannot read the file");
  std::string banner;
  if (!std::getline(in, banner))
    throw Error(name + ":1: empty file, expected a %%MatrixMarket header");
  std::istringstream words(banner);
  std::string tag, object, format, kind, symmetry;
  words >> tag >> object >> format >> kind >> symmetry;
  if (lower(tag) != "%%matrixmarket" || lower(object) != "matrix") {
    throw Error(name + ":1: not a Matrix Market matrix (expected '%%MatrixMarket matrix ...')");
  }
  format = lower(format);
  kind = lower(kind);
  symmetry = lower(symmetry);
  if (format != "array" && format != "coordinate") {
    throw Error(name + ":1: format '" + format + "' is neither 'array' nor 'coordinate'");
  }
  EntryKind entry_kind;
  if (kind == "integer") {
    entry_kind = EntryKind::integer;
  } else if (kind == "real") {
    entry_kind = EntryKind::real;
  } else if (kind == "complex") {
    entry_kind = EntryKind::complex;
  } else {
    throw Error(name + ":1: entry type '" + kind + "' is not integer, real or complex");
  }
  if (symmetry != "general") {
    throw Error(name + ":1: symmetry '" + symmetry +
                "' is not supported; write the matrix as 'general'");
  }
  const bool coordinate = format == "coordinate";
  const std::size_t value_tokens = entry_kind == EntryKind::complex ? 2 : 1;

  LineReader reader(in, name, 1);  // the banner was line 1
  std::vector<std::string> t;
  if (!reader.next(t)) throw Error(name + ": missing the size line");
  const std::size_t expected_size_tokens = coordinate ? 3 : 2;
  if (t.size() != expected_size_tokens) {
    reader.fail(std::string("size line must be '") +
                (coordinate ? "rows cols entries" : "rows cols") + "'");
  }
  const std::size_t rows = parse_count(t[0], reader, "row count");
  const std::size_t cols = parse_count(t[1], reader, "column count");
  sink.begin(rows, cols, entry_kind);  // checks that rows * cols is addressable
  const std::size_t entries = coordinate ? parse_count(t[2], reader, "entry count") : rows * cols;
  if (coordinate && entries > rows * cols) reader.fail("more entries than positions");

  std::unordered_set<std::uint64_t> seen;
  for (std::size_t e = 0; e < entries; ++e) {
    if (!reader.next(t)) {
      throw Error(name + ": expected " + std::to_string(entries) + " entries, found " +
                  std::to_string(e));
    }
    std::size_t i, j, first;
    if (coordinate) {
      if (t.size() != 2 + value_tokens) {
        reader.fail("expected 'row column value" + std::string(value_tokens == 2 ? " imag'" : "'"));
      }
      i = parse_count(t[0], reader, "row index");
      j = parse_count(t[1], reader, "column index");
      if (i < 1 || i > rows || j < 1 || j > cols) {
        reader.fail("position (" + t[0] + ", " + t[1] + ") is outside the " + std::to_string(rows) +
                    " x " + std::to_string(cols) + " matrix");
      }
      --i;
      --j;
      if (!seen.insert(static_cast<std::uint64_t>(i) * cols + j).second) {
        reader.fail("position (" + t[0] + ", " + t[1] + ") appears twice");
      }
      first = 2;
    } else {
      if (t.size() != value_tokens) {
        reader.fail(value_tokens == 2 ? "expected 'real imag'" : "expected one value per line");
      }
      i = e % rows;  // column-major
      j = e / rows;
      first = 0;
    }
    sink.entry(i, j, t[first], value_tokens == 2 ? t[first + 1] : std::string(), reader.line());
  }
  if (reader.next(t)) reader.fail("unexpected data after the last entry");
}

}  // namespace hepex::io
