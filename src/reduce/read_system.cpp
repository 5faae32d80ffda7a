#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "hepex/core/error.hpp"
#include "hepex/core/host_threads.hpp"
#include "hepex/reduce/system.hpp"

namespace hepex::reduce {

namespace {

// ASCII classes, as the C locale's isalpha/isalnum/isspace/isdigit (inline:
// a 9 MB system calls them tens of millions of times).
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c) || c == '_'; }
bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// Byte offset -> (line, column), both 1-based.
class Lines {
 public:
  explicit Lines(const std::string& text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts_.push_back(i + 1);
  }
  Place at(std::size_t offset) const {
    const auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
    const std::size_t line = static_cast<std::size_t>(it - starts_.begin());
    return {line, offset - starts_[line - 1] + 1};
  }

 private:
  std::vector<std::size_t> starts_;
};

struct Span {
  std::size_t begin, end;
};

class Reader {
 public:
  Reader(const std::string& text, std::string file)
      : text_(text), file_(std::move(file)), lines_(text) {}

  [[noreturn]] void fail(std::size_t offset, const std::string& why) const {
    const Place p = lines_.at(offset);
    throw Error(file_ + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ": " + why);
  }

  // An integral FAMILY[i1, ..., in] starting at `at` (a name followed by '[');
  // `end` is set past the ']'.
  Integral integral(std::size_t at, std::size_t& end) const {
    Integral in;
    integral_into(at, end, in);
    return in;
  }
  // The same into `in` (its family and indices' capacity reused: a system
  // has millions of terms).
  void integral_into(std::size_t at, std::size_t& end, Integral& in) const {
    in.indices.clear();
    std::size_t i = at;
    while (i < text_.size() && is_name_char(text_[i])) ++i;
    in.family.assign(text_, at, i - at);
    if (i >= text_.size() || text_[i] != '[')
      fail(i, "expected '[' after the integral family '" + in.family + "'");
    ++i;
    while (true) {
      while (i < text_.size() && is_space(text_[i])) ++i;
      const std::size_t start = i;
      if (i < text_.size() && (text_[i] == '-' || text_[i] == '+')) ++i;
      const std::size_t digits = i;
      long index = 0;  // (at most 9 digits are kept: more is refused below)
      for (; i < text_.size() && is_digit(text_[i]); ++i)
        if (i - digits < 9) index = 10 * index + (text_[i] - '0');
      if (i == digits) fail(start, "expected an integer index of " + in.family + "[...]");
      if (i - digits > 9) fail(start, "an index of " + in.family + "[...] beyond 10^9");
      in.indices.push_back(text_[start] == '-' ? -index : index);
      while (i < text_.size() && is_space(text_[i])) ++i;
      if (i < text_.size() && text_[i] == ',') {
        ++i;
        continue;
      }
      if (i < text_.size() && text_[i] == ']') break;
      fail(i, "expected ',' or ']' in " + in.family + "[...]");
    }
    end = i + 1;
  }

  // The spans of a Mathematica list's elements: {a, b, ...} from `open`.
  std::vector<Span> list_elements(std::size_t open, std::size_t& close) const {
    std::vector<Span> out;
    int depth = 0;
    std::size_t start = open + 1;
    for (std::size_t i = open; i < text_.size(); ++i) {
      const char c = text_[i];
      if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        --depth;
        if (depth < 0) fail(i, std::string("unbalanced '") + c + "'");
        if (depth == 0) {
          if (c != '}') fail(i, std::string("expected '}' to close the list, got '") + c + "'");
          out.push_back({start, i});
          close = i;
          return out;
        }
      } else if (c == ',' && depth == 1) {
        out.push_back({start, i});
        start = i + 1;
      }
    }
    fail(open, "the list opened here is not closed");
  }

  bool blank(Span s) const {
    for (std::size_t i = s.begin; i < s.end; ++i)
      if (!is_space(text_[i])) return false;
    return true;
  }

  void no_trailing_text(std::size_t from) const {
    for (std::size_t i = from; i < text_.size(); ++i)
      if (!is_space(text_[i])) fail(i, "text after the closing '}'");
  }

  // The terms of a sum at parenthesis depth 0: split before '+'/'-' that
  // follow an operand (so a sign after '^', '*', '/' or '(' stays in its term).
  std::vector<Span> terms(Span s) const {
    std::vector<Span> out;
    int depth = 0;
    std::size_t start = s.begin;
    char previous = 0;  // last non-space character
    for (std::size_t i = s.begin; i < s.end; ++i) {
      const char c = text_[i];
      if (c == '(' || c == '[') ++depth;
      if (c == ')' || c == ']') --depth;
      if (depth < 0) fail(i, std::string("unbalanced '") + c + "'");
      if (depth == 0 && (c == '+' || c == '-') &&
          (is_name_char(previous) || previous == ')' || previous == ']')) {
        out.push_back(trimmed({start, i}));
        start = i;
      }
      if (!is_space(c)) previous = c;
    }
    if (depth != 0) fail(trimmed(s).begin, "unbalanced parentheses in this equation");
    out.push_back(trimmed({start, s.end}));
    return out;
  }

  Span trimmed(Span s) const {
    while (s.begin < s.end && is_space(text_[s.begin])) ++s.begin;
    while (s.end > s.begin && is_space(text_[s.end - 1])) --s.end;
    return s;
  }

  // One term: its integral (exactly one at depth 0) into `in` and its
  // coefficient text into `coefficient` (both reused from term to term).
  void term(Span s, std::size_t& integral_at, Integral& in, std::string& coefficient) const {
    int depth = 0;
    bool found = false;
    coefficient.clear();
    for (std::size_t i = s.begin; i < s.end;) {
      const char c = text_[i];
      if (c == '(') ++depth;
      if (c == ')') --depth;
      if (is_name_start(c) && (i == s.begin || !is_name_char(text_[i - 1]))) {
        std::size_t j = i;
        while (j < s.end && is_name_char(text_[j])) ++j;
        if (j < s.end && text_[j] == '[') {
          if (depth > 0 && !only_products_around(s, i))
            fail(i,
                 "an integral inside parentheses that are not a factor of the term (a sum, a "
                 "divisor or a power): write each equation as a sum of coefficient*INTEGRAL terms");
          if (found) fail(i, "a product of two integrals (an equation must be linear in them)");
          std::size_t end = 0;
          integral_into(i, end, in);
          integral_at = i;
          found = true;
          coefficient += " 1 ";
          i = end;
          continue;
        }
        coefficient.append(text_, i, j - i);
        i = j;
        continue;
      }
      coefficient += c;
      ++i;
    }
    if (!found)
      fail(s.begin, "a term without an integral (the equations are homogeneous in the integrals)");
    implicit_products(coefficient);
  }

  // Whether every parenthesis group around offset `at` (inside term s) is a
  // plain factor: no sum at its top level, not a divisor, not raised to a
  // power; then an integral there is a factor of the term, as in
  // Mathematica's -(s*G[1, 0]).
  bool only_products_around(Span s, std::size_t at) const {
    std::size_t open = at;
    while (true) {
      int depth = 0;
      std::size_t i = open;
      while (i > s.begin) {
        --i;
        if (text_[i] == ')' || text_[i] == ']') ++depth;
        if (text_[i] == '(' || text_[i] == '[') {
          if (depth == 0) break;
          --depth;
        }
      }
      if (text_[i] != '(' || depth != 0) return true;  // no enclosing group left
      open = i;
      // Its closing parenthesis, and a sum at its top level.
      std::size_t close = open + 1;
      int d = 0;
      char previous = '(';
      for (; close < s.end; ++close) {
        const char c = text_[close];
        if (c == '(' || c == '[') ++d;
        if (c == ')' || c == ']') {
          if (d == 0) break;
          --d;
        }
        if (d == 0 && (c == '+' || c == '-') &&
            (is_name_char(previous) || previous == ')' || previous == ']'))
          return false;
        if (!is_space(c)) previous = c;
      }
      if (close >= s.end) return false;
      std::size_t before = open;
      while (before > s.begin && is_space(text_[before - 1])) --before;
      if (before > s.begin && text_[before - 1] == '/') return false;
      std::size_t after = close + 1;
      while (after < s.end && is_space(text_[after])) ++after;
      if (after < s.end && (text_[after] == '^' || text_.compare(after, 2, "**") == 0))
        return false;
    }
  }

  // Mathematica's implicit multiplication: a space between two operands is '*'.
  static void implicit_products(std::string& t) {
    // In place: a run of spaces becomes at most one '*', so the written end
    // never passes the read position.
    std::size_t w = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (!is_space(t[i])) {
        t[w++] = t[i];
        continue;
      }
      std::size_t j = i;
      while (j < t.size() && is_space(t[j])) ++j;
      const char before = w == 0 ? 0 : t[w - 1];
      const char after = j < t.size() ? t[j] : 0;
      if ((is_name_char(before) || before == ')') && (is_name_char(after) || after == '('))
        t[w++] = '*';
      i = j - 1;
    }
    t.resize(w);
  }

  const std::string& text() const { return text_; }
  const Lines& lines() const { return lines_; }

 private:
  const std::string& text_;
  std::string file_;
  Lines lines_;
};

// Families and their index counts, checked as integrals are met.
class Integrals {
 public:
  explicit Integrals(System& s) : s_(s) {}
  std::size_t add(const Integral& in, std::size_t offset, const Reader& r) {
    // (find before emplace, and one key buffer: a node or a string allocated
    // per term was a fifth of reading a 24 MB system)
    auto it = arity_.find(in.family);
    if (it == arity_.end()) it = arity_.emplace(in.family, in.indices.size()).first;
    if (it->second != in.indices.size()) {
      r.fail(offset, in.text() + " has " + std::to_string(in.indices.size()) + " indices, " +
                         in.family + " had " + std::to_string(it->second));
    }
    in.text_into(key_);
    const auto found = s_.index.find(key_);
    if (found != s_.index.end()) return found->second;
    s_.index.emplace(key_, s_.integrals.size());
    s_.integrals.push_back(in);
    s_.first_seen.push_back(r.lines().at(offset));
    return s_.integrals.size() - 1;
  }

 private:
  System& s_;
  std::map<std::string, std::size_t> arity_;
  std::string key_;
};

// The distinct coefficient texts, each parsed once.
class Coefficients {
 public:
  explicit Coefficients(System& s) : s_(s) {}
  // The index of `text`, parsed when first met (hepex::Error if malformed).
  std::size_t add(const std::string& text) {
    const auto found = index_.find(text);
    if (found != index_.end()) return found->second;
    io::Expression e = io::Expression::parse(text, s_.parameters);
    index_.emplace(text, s_.coefficients.size());
    s_.coefficients.push_back({text, std::move(e)});
    return s_.coefficients.size() - 1;
  }

 private:
  System& s_;
  std::unordered_map<std::string, std::size_t> index_;
};

void add_equation(System& s, Integrals& integrals, Coefficients& coefficients, const Reader& r,
                  const std::vector<Span>& spans) {
  // (integral, coefficient): the terms of one integral added (their texts
  // joined as a sum, parsed again).
  std::vector<std::pair<std::size_t, std::size_t>> terms;
  thread_local Integral in;
  thread_local std::string text;
  for (const Span& piece : spans) {
    for (const Span& t : r.terms(piece)) {
      if (r.blank(t)) continue;
      std::size_t at = 0;
      r.term(t, at, in, text);
      const std::size_t k = integrals.add(in, at, r);
      std::size_t c = 0;
      try {
        c = coefficients.add(text);
      } catch (const Error& e) {
        r.fail(t.begin, "the coefficient '" + text + "' of " + in.text() + ": " + e.what());
      }
      const auto same =
          std::find_if(terms.begin(), terms.end(), [&](const auto& x) { return x.first == k; });
      if (same == terms.end())
        terms.emplace_back(k, c);
      else
        same->second =
            coefficients.add("(" + s.coefficients[same->second].text + ") + (" + text + ")");
    }
  }
  if (terms.empty()) return;
  std::sort(terms.begin(), terms.end());
  Equation eq;
  eq.line = r.lines().at(spans.front().begin).line;
  for (const auto& [k, c] : terms) eq.terms.push_back({k, c});
  s.equations.push_back(std::move(eq));
}

}  // namespace

std::string Integral::text() const {
  std::string s;
  text_into(s);
  return s;
}

void Integral::text_into(std::string& s) const {
  s.clear();
  s.reserve(family.size() + 4 * indices.size() + 2);
  s += family;
  s += '[';
  char digits[24];
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (i != 0) s += ',';
    const auto end = std::to_chars(digits, digits + sizeof digits, indices[i]).ptr;
    s.append(digits, end);
  }
  s += ']';
}

namespace {

// The equations' places in the text: one span each in a Mathematica list,
// a run of non-blank lines in Kira's format.
struct EquationSpans {
  std::vector<Span> spans;
  std::vector<std::size_t> first;  // equation e is spans[first[e]] .. spans[first[e + 1] - 1]
  bool list = false;
  std::size_t close = 0;  // the list's closing brace
};

EquationSpans equation_spans(const std::string& text, const std::string& file, const Reader& r) {
  EquationSpans out;
  std::size_t first = 0;
  while (first < text.size() && is_space(text[first])) ++first;
  if (first == text.size()) throw Error(file + ": no equations");
  if (text[first] == '{') {
    out.list = true;
    out.spans = r.list_elements(first, out.close);
    out.first.resize(out.spans.size() + 1);
    std::iota(out.first.begin(), out.first.end(), std::size_t{0});
    return out;
  }
  // Kira: equations are runs of non-blank lines, one or more terms a line.
  std::size_t start = 0;
  bool in_equation = false;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\n') continue;
    const Span line{start, i};
    if (r.blank(line)) {
      in_equation = false;
    } else {
      if (!in_equation) out.first.push_back(out.spans.size());
      in_equation = true;
      out.spans.push_back(line);
    }
    start = i + 1;
  }
  out.first.push_back(out.spans.size());
  return out;
}

// Equations [begin, end) of `at` into s (the integrals and coefficients met
// first there appended to s's).
void add_equations(System& s, Integrals& integrals, Coefficients& coefficients, const Reader& r,
                   const EquationSpans& at, std::size_t begin, std::size_t end) {
  std::vector<Span> spans;
  for (std::size_t e = begin; e < end; ++e) {
    spans.assign(at.spans.begin() + static_cast<std::ptrdiff_t>(at.first[e]),
                 at.spans.begin() + static_cast<std::ptrdiff_t>(at.first[e + 1]));
    if (at.list && r.blank(spans.front()))
      r.fail(spans.front().begin, "an empty equation in the list");
    add_equation(s, integrals, coefficients, r, spans);
  }
}

// Appends `part` (equations read on their own, later in the text than s's)
// to s: its integrals and coefficients mapped to s's, new ones appended in
// the order `part` met them, so that s is what reading both at once gives.
// False where a family's index count differs from s's (the serial reader
// then says where).
bool append_part(System& s, System& part, std::map<std::string, std::size_t>& arity,
                 std::unordered_map<std::string, std::size_t>& coefficient_index) {
  std::vector<std::size_t> integral(part.integrals.size()), coefficient(part.coefficients.size());
  std::string key;
  for (std::size_t k = 0; k < part.integrals.size(); ++k) {
    Integral& in = part.integrals[k];
    auto it = arity.find(in.family);
    if (it == arity.end()) it = arity.emplace(in.family, in.indices.size()).first;
    if (it->second != in.indices.size()) return false;
    in.text_into(key);
    const auto found = s.index.find(key);
    if (found != s.index.end()) {
      integral[k] = found->second;
      continue;
    }
    integral[k] = s.integrals.size();
    s.index.emplace(key, s.integrals.size());
    s.integrals.push_back(std::move(in));
    s.first_seen.push_back(part.first_seen[k]);
  }
  for (std::size_t c = 0; c < part.coefficients.size(); ++c) {
    const auto [it, fresh] =
        coefficient_index.emplace(part.coefficients[c].text, s.coefficients.size());
    coefficient[c] = it->second;
    if (fresh) s.coefficients.push_back(std::move(part.coefficients[c]));
  }
  for (Equation& eq : part.equations) {
    for (Term& t : eq.terms) {
      t.integral = integral[t.integral];
      t.coefficient = coefficient[t.coefficient];
    }
    // add_equation's order: by integral (distinct within an equation).
    std::sort(eq.terms.begin(), eq.terms.end(),
              [](const Term& a, const Term& b) { return a.integral < b.integral; });
    s.equations.push_back(std::move(eq));
  }
  return true;
}

}  // namespace

System read_system(const std::string& text, const std::string& file,
                   const std::vector<std::string>& parameters, HostThreads* threads) {
  System s;
  s.file = file;
  s.parameters = parameters;
  const Reader r(text, file);
  const EquationSpans at = equation_spans(text, file, r);
  const std::size_t equations = at.first.size() - 1;
  // Parts of equations read on the threads, then appended in order; any
  // error (or index counts that differ between parts) and the whole text is
  // read again on this thread, which stops at the first error as it always
  // did: the same message, file, line and column.
  const std::size_t parts = threads == nullptr || threads->size() < 2 || equations < 4096
                                ? 1
                                : std::min(equations / 1024, 4 * threads->size());
  bool parallel_done = false;
  if (parts > 1) {
    std::vector<System> read(parts);
    std::vector<std::uint8_t> failed(parts, 0);
    threads->for_each(parts, [&](std::size_t begin, std::size_t end) {
      for (std::size_t p = begin; p < end; ++p) {
        read[p].file = file;
        read[p].parameters = parameters;
        try {
          Integrals integrals(read[p]);
          Coefficients coefficients(read[p]);
          add_equations(read[p], integrals, coefficients, r, at, equations * p / parts,
                        equations * (p + 1) / parts);
        } catch (const Error&) {
          failed[p] = 1;
        }
      }
    });
    if (std::find(failed.begin(), failed.end(), 1) == failed.end()) {
      std::map<std::string, std::size_t> arity;
      std::unordered_map<std::string, std::size_t> coefficient_index;
      parallel_done = true;
      for (System& part : read) {
        if (!append_part(s, part, arity, coefficient_index)) {
          parallel_done = false;
          break;
        }
      }
    }
    if (!parallel_done) {
      s.integrals.clear();
      s.first_seen.clear();
      s.index.clear();
      s.coefficients.clear();
      s.equations.clear();
    }
  }
  if (!parallel_done) {
    Integrals integrals(s);
    Coefficients coefficients(s);
    add_equations(s, integrals, coefficients, r, at, 0, equations);
  }
  if (at.list) r.no_trailing_text(at.close + 1);
  if (s.equations.empty()) throw Error(file + ": no equations");
  return s;
}

IntegralList read_integral_list(const std::string& text, const std::string& file) {
  IntegralList out;
  const Reader r(text, file);
  std::size_t first = 0;
  while (first < text.size() && is_space(text[first])) ++first;
  std::vector<Span> items;
  if (first < text.size() && text[first] == '{') {
    std::size_t close = 0;
    items = r.list_elements(first, close);
    r.no_trailing_text(close + 1);
  } else {
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
      if (i < text.size() && text[i] != '\n') continue;
      std::size_t b = start;
      while (b < i && is_space(text[b])) ++b;
      if (b < i && text[b] != '#') items.push_back({b, i});
      start = i + 1;
    }
  }
  for (const Span& item : items) {
    std::size_t b = item.begin;
    while (b < item.end && is_space(text[b])) ++b;
    if (b == item.end) r.fail(item.begin, "an empty entry");
    if (!is_name_start(text[b])) r.fail(b, "expected an integral FAMILY[i1,...]");
    std::size_t end = 0;
    out.integrals.push_back(r.integral(b, end));
    out.places.push_back(r.lines().at(b));
    for (std::size_t i = end; i < item.end; ++i)
      if (!is_space(text[i])) r.fail(i, "text after the integral");
  }
  if (out.integrals.empty()) throw Error(file + ": no integrals");
  return out;
}

bool more_complex(const Integral& a, const Integral& b) {
  const auto key = [](const Integral& x) {
    long lines = 0, dots = 0, numerators = 0;
    for (const long i : x.indices) {
      if (i > 0) {
        ++lines;
        dots += i;
      } else {
        numerators -= i;
      }
    }
    return std::make_tuple(lines, dots, numerators);
  };
  const auto ka = key(a), kb = key(b);
  if (ka != kb) return ka > kb;
  if (a.family != b.family) return a.family < b.family;
  return a.indices > b.indices;
}

void require_in_system(const System& system, const IntegralList& list, const std::string& file,
                       const std::string& what) {
  for (std::size_t k = 0; k < list.integrals.size(); ++k) {
    if (system.index.count(list.integrals[k].text()) == 0) {
      const Place& p = list.places[k];
      throw Error(file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ": " +
                  what + " " + list.integrals[k].text() + " is not in the system " + system.file);
    }
  }
}

}  // namespace hepex::reduce
