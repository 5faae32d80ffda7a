// The reader of MadGraph's param_card.dat: MT, WT and aS, nothing else.
#include "hepex/amplitudes/param_card.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "hepex/core/error.hpp"

namespace hepex::amplitudes {

namespace {

// One of the three entries read: where it lives, what it may be, where it was seen.
struct Entry {
  const char* name;                // "MT"
  const char* place;               // "BLOCK MASS, 6"
  double ModelParameters::*value;  // where it goes
  bool (*valid)(double);           // the physical range
  const char* range;               // that range in words
  std::size_t line = 0;            // the line that gave it, 0 while none has
};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// An integer code (PDG code, SMINPUTS index), the whole token; false if it is none.
bool parse_code(const std::string& token, int& code) {
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, code);
  return ec == std::errc() && ptr == end;
}

}  // namespace

ModelParameters parse_param_card(std::istream& in, const std::string& name) {
  Entry entries[] = {
      {"MT", "BLOCK MASS, 6", &ModelParameters::top_mass, [](double x) { return x > 0; }, "> 0"},
      {"WT", "DECAY 6", &ModelParameters::top_width, [](double x) { return x >= 0; }, ">= 0"},
      {"aS", "BLOCK SMINPUTS, 3", &ModelParameters::alpha_s,
       [](double x) { return x > 0 && x < 1; }, "in (0, 1)"}};
  Entry &top_mass = entries[0], &top_width = entries[1], &alpha_s = entries[2];
  enum class Block { other, mass, sminputs } block = Block::other;
  ModelParameters parameters;
  std::string text;
  for (std::size_t line = 1; std::getline(in, text); ++line) {
    const auto fail = [&](const std::string& what) {
      throw Error("param card " + name + " line " + std::to_string(line) + ": " + what);
    };
    std::istringstream fields(text.substr(0, text.find('#')));
    std::vector<std::string> tokens;
    for (std::string token; fields >> token;) tokens.push_back(token);
    if (tokens.empty()) continue;

    const std::string keyword = lower(tokens[0]);
    Entry* entry = nullptr;
    std::size_t at = 1;  // the value's token
    int code = 0;
    if (keyword == "block") {
      if (tokens.size() < 2) fail("BLOCK without a name");
      const std::string block_name = lower(tokens[1]);  // a scale (Q= ...) may follow: ignored
      block = block_name == "mass"       ? Block::mass
              : block_name == "sminputs" ? Block::sminputs
                                         : Block::other;
      continue;
    }
    if (keyword == "decay") {
      block = Block::other;  // the branching ratios that follow are ignored
      if (tokens.size() < 2 || !parse_code(tokens[1], code)) fail("DECAY without a PDG code");
      if (code != 6) continue;
      entry = &top_width;
      at = 2;
    } else if (block != Block::other) {
      if (!parse_code(tokens[0], code)) {
        fail("'" + tokens[0] + "' is not " +
             (block == Block::mass ? "a PDG code (BLOCK MASS)" : "an index (BLOCK SMINPUTS)"));
      }
      if (block == Block::mass && code == 6) entry = &top_mass;
      if (block == Block::sminputs && code == 3) entry = &alpha_s;
      if (entry == nullptr) continue;
    } else {
      continue;  // an entry of a block that is not read
    }

    const std::string what = std::string(entry->name) + " (" + entry->place + ")";
    if (entry->line != 0) fail(what + " given twice, first on line " + std::to_string(entry->line));
    if (tokens.size() <= at) fail("no value for " + what);
    if (tokens.size() > at + 1) fail("'" + tokens[at + 1] + "' after the value of " + what);
    const std::string& token = tokens[at];
    // from_chars: correctly rounded, independent of the locale; it takes no leading '+'.
    const bool plus = token[0] == '+';
    const char* end = token.data() + token.size();
    double value = 0;
    const auto [ptr, ec] = std::from_chars(token.data() + plus, end, value);
    if (ec == std::errc::invalid_argument || ptr != end || (plus && token[1] == '-')) {
      fail(what + " '" + token + "' is not a number");
    }
    if (ec != std::errc() || !std::isfinite(value)) {
      fail(what + " '" + token + "' is not a finite double");
    }
    if (!entry->valid(value)) fail(what + " = " + token + " must be " + entry->range);
    parameters.*entry->value = value;
    entry->line = line;
  }
  if (in.bad()) throw Error("param card " + name + ": read error");
  for (const Entry& entry : entries) {
    if (entry.line == 0) {
      throw Error("param card " + name + ": no " + entry.name + " (" + entry.place + ")");
    }
  }
  return parameters;
}

ModelParameters read_param_card(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("param card " + path + ": cannot open it");
  return parse_param_card(in, path);
}

}  // namespace hepex::amplitudes
