// The param_card.dat reader: MadGraph's own card, random SLHA cards read back
// bit-identical, and the errors of malformed cards.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "amplitudes/reference_data.hpp"
#include "hepex/amplitudes/param_card.hpp"
#include "hepex/core/error.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace hepex::amplitudes {
namespace {

TEST(ParamCard, ReadsMadGraphsCard) {
  const ModelParameters card = read_param_card(test::madgraph_file("param_card.dat"));
  EXPECT_EQ(card.top_mass, 173.0);
  EXPECT_EQ(card.top_width, 1.4915);
  EXPECT_EQ(card.alpha_s, 0.118);
  const ModelParameters defaults;  // the same numbers: those of the reference data
  EXPECT_EQ(card.top_mass, defaults.top_mass);
  EXPECT_EQ(card.top_width, defaults.top_width);
  EXPECT_EQ(card.alpha_s, defaults.alpha_s);
}

// Random SLHA cards: MT, WT and aS among decoy blocks and entries, in random
// order, keyword case, spacing, comments, line endings and number formats.
class CardWriter {
 public:
  explicit CardWriter(std::mt19937_64& rng) : rng_(rng) {}

  // A card and the values it gives.
  std::string card(ModelParameters& expected) {
    std::vector<std::string> blocks;
    std::vector<std::string> mass = {
        line({"6", number(log_uniform(1e-3, 1e5), expected.top_mass)})};
    for (const char* code : {"5", "15", "23", "24", "25", "-6", "21", "1000006"})
      if (chance(0.5)) mass.push_back(line({code, number(log_uniform(1e-3, 1e5))}));
    blocks.push_back(block("MASS", mass));
    std::vector<std::string> sminputs = {
        line({"3", number(uniform(1e-3, 0.999), expected.alpha_s)})};
    for (const char* index : {"1", "2", "4", "5"})
      if (chance(0.5)) sminputs.push_back(line({index, number(uniform(-1e3, 1e3))}));
    blocks.push_back(block("SMINPUTS", sminputs));
    const double width = chance(0.1) ? 0 : log_uniform(1e-6, 1e2);
    blocks.push_back(decay("6", number(width, expected.top_width)));
    // Decoys: entries that look like MT or aS in blocks that are not read.
    for (int k = pick(0, 3); k > 0; --k) {
      const char* codes[] = {"-6", "5", "23", "24", "25", "1000006"};
      const char* code = codes[pick(0, 5)];
      blocks.push_back(decay(code, number(log_uniform(1e-6, 1e2))));
    }
    if (chance(0.5))
      blocks.push_back(block("YUKAWA", {line({"5", number(4.7)}), line({"6", number(172.0)})}));
    for (int k = pick(0, 2); k > 0; --k) {  // index 3 is the colour representation
      const std::string name = "QNUMBERS " + std::to_string(pick(6000001, 6000099));
      blocks.push_back(
          block(name, {line({"1", "-3"}), line({"2", "1"}), line({"3", "3"}), line({"4", "1"})}));
    }
    if (chance(0.5)) blocks.push_back(block("ALPHA", {line({number(uniform(-1, 1))})}));
    if (chance(0.5)) blocks.push_back(block("CKMBLOCK", {line({"1", number(uniform(0, 1))})}));
    hepex::test::random_shuffle(blocks.begin(), blocks.end(), rng_);

    std::string text = chance(0.5) ? "# param_card.dat: BLOCK MASS 6 999 # DECAY 6 1\n" : "";
    for (const std::string& b : blocks) text += b + filler();
    return text;
  }

 private:
  bool chance(double p) { return hepex::test::random_chance(rng_, p); }
  int pick(int low, int high) { return hepex::test::UniformInt<int>(low, high)(rng_); }
  double uniform(double low, double high) { return hepex::test::UniformReal(low, high)(rng_); }
  double log_uniform(double low, double high) {
    return std::exp(uniform(std::log(low), std::log(high)));
  }

  // The text is built one random draw per statement, so that a seed gives the
  // same cards whatever order a compiler evaluates the operands of + in.

  // `x` in a random format; `written` is the value of the text (x itself for 17 digits).
  std::string number(double x, double& written) {
    const char* formats[] = {"%.17g", "%.17e", "%.16E", "%e", "%E", "%.3e"};
    const int format = pick(0, 5);
    char text[64];
    std::snprintf(text, sizeof text, formats[format], x);
    written = format < 3 ? x : std::strtod(text, nullptr);
    return (chance(0.1) ? "+" : "") + std::string(text);
  }
  std::string number(double x) {
    double written;
    return number(x, written);
  }

  std::string keyword(std::string word) {
    for (char& c : word) c = static_cast<char>(chance(0.5) ? std::tolower(c) : std::toupper(c));
    return word;
  }
  std::string space(int least) {
    std::string s;
    for (int k = pick(least, least + 3); k > 0; --k) s += chance(0.8) ? ' ' : '\t';
    return s;
  }
  std::string comment() {
    const char* comments[] = {"", "", "# MT", "#6 999", "# BLOCK SMINPUTS", "#"};
    const std::string s = space(0);
    return s + comments[pick(0, 5)];
  }
  std::string end_of_line() { return (chance(0.1) ? "\r" : "") + std::string("\n"); }
  // Comment-only and blank lines.
  std::string filler() {
    std::string s;
    for (int k = pick(0, 2); k > 0; --k) {
      s += space(0);
      if (chance(0.5)) s += "## ";
      s += end_of_line();
    }
    return s;
  }

  std::string line(const std::vector<std::string>& tokens) {
    std::string s = space(0);
    for (const std::string& token : tokens) s += token + space(1);
    s += comment();
    return s + end_of_line();
  }
  // "BLOCK NAME [Q= scale]" and its lines in random order.
  std::string block(const std::string& name, std::vector<std::string> lines) {
    hepex::test::random_shuffle(lines.begin(), lines.end(), rng_);
    std::string s = space(0);
    s += keyword("BLOCK");
    s += space(1);
    s += keyword(name);
    if (chance(0.3)) {
      s += space(1) + "Q=";
      s += space(0);
      s += number(91.188);
    }
    s += comment();
    s += end_of_line();
    for (const std::string& l : lines) s += l + filler();
    return s;
  }
  // "DECAY PDG width" and branching-ratio lines (BR NDA ID1 ID2).
  std::string decay(const std::string& code, const std::string& width) {
    std::string s = space(0);
    s += keyword("DECAY");
    s += space(1) + code;
    s += space(1) + width;
    s += comment();
    s += end_of_line();
    for (int k = pick(0, 3); k > 0; --k)
      s += line({number(uniform(0, 1)), "2", std::to_string(pick(1, 25)), "-6"});
    return s;
  }

  std::mt19937_64& rng_;
};

TEST(ParamCard, RandomCardsReadBackBitIdentical) {
  SCOPED_TRACE(test::seed_trace());
  std::mt19937_64 rng(test::seed());
  CardWriter writer(rng);
  for (int n = 0; n < 500; ++n) {
    ModelParameters expected;
    const std::string text = writer.card(expected);
    SCOPED_TRACE("card " + std::to_string(n) + ":\n" + text);
    std::istringstream in(text);
    ModelParameters card;
    ASSERT_NO_THROW(card = parse_param_card(in, "random"));
    ASSERT_EQ(card.top_mass, expected.top_mass);
    ASSERT_EQ(card.top_width, expected.top_width);
    ASSERT_EQ(card.alpha_s, expected.alpha_s);
  }
}

TEST(ParamCard, MissingFile) {
  const std::string path = test::madgraph_file("no_such_param_card.dat");
  try {
    read_param_card(path);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_input);
    EXPECT_EQ(std::string(e.what()), "param card " + path + ": cannot open it");
  }
}

// The message of the error that a card throws: `good` with line `line`
// (1-based) replaced by `replacement` (removed where it is empty).
std::string error_of(int line, const std::vector<std::string>& replacement) {
  std::vector<std::string> lines = {"BLOCK MASS", "  6 1.73e2", "Block SMINPUTS", "  3 0.118",
                                    "DECAY 6 1.4915"};
  lines.erase(lines.begin() + line - 1);
  lines.insert(lines.begin() + line - 1, replacement.begin(), replacement.end());
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  std::istringstream in(text);
  try {
    parse_param_card(in, "card.dat");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_input);
    return e.what();
  }
  return "no error";
}

TEST(ParamCard, MalformedCardsNameTheProblemAndTheLine) {
  struct Case {
    int line;
    std::vector<std::string> replacement;
    std::string message;  // after "param card card.dat"
  };
  const Case cases[] = {
      {2, {}, ": no MT (BLOCK MASS, 6)"},
      {4, {}, ": no aS (BLOCK SMINPUTS, 3)"},
      {5, {}, ": no WT (DECAY 6)"},
      {1, {"BLOCK YUKAWA"}, ": no MT (BLOCK MASS, 6)"},  // MT in a block that is not MASS
      {2, {"6 173", "6 1.73e2"}, " line 3: MT (BLOCK MASS, 6) given twice, first on line 2"},
      {2, {"6 1.73e2x"}, " line 2: MT (BLOCK MASS, 6) '1.73e2x' is not a number"},
      {2, {"6 nan"}, " line 2: MT (BLOCK MASS, 6) 'nan' is not a finite double"},
      {2, {"6 inf"}, " line 2: MT (BLOCK MASS, 6) 'inf' is not a finite double"},
      {2, {"6 1e400"}, " line 2: MT (BLOCK MASS, 6) '1e400' is not a finite double"},
      {2, {"6 +-173"}, " line 2: MT (BLOCK MASS, 6) '+-173' is not a number"},
      {2, {"6 0"}, " line 2: MT (BLOCK MASS, 6) = 0 must be > 0"},
      {5, {"DECAY 6 -1"}, " line 5: WT (DECAY 6) = -1 must be >= 0"},
      {4, {"3 1.5"}, " line 4: aS (BLOCK SMINPUTS, 3) = 1.5 must be in (0, 1)"},
      {4, {"3 0"}, " line 4: aS (BLOCK SMINPUTS, 3) = 0 must be in (0, 1)"},
      {2, {"6"}, " line 2: no value for MT (BLOCK MASS, 6)"},
      {2, {"6 # 173"}, " line 2: no value for MT (BLOCK MASS, 6)"},
      {5, {"DECAY 6"}, " line 5: no value for WT (DECAY 6)"},
      {2, {"6 1.73 e2"}, " line 2: 'e2' after the value of MT (BLOCK MASS, 6)"},
      {2, {"6x 173"}, " line 2: '6x' is not a PDG code (BLOCK MASS)"},
      {4, {"3.0 0.118"}, " line 4: '3.0' is not an index (BLOCK SMINPUTS)"},
      {5, {"DECAY t 1.4915"}, " line 5: DECAY without a PDG code"},
      {3, {"BLOCK # SMINPUTS"}, " line 3: BLOCK without a name"},
  };
  for (const Case& c : cases) {
    std::string replaced;
    for (const std::string& l : c.replacement) replaced += "[" + l + "]";
    SCOPED_TRACE("line " + std::to_string(c.line) + " -> " + replaced);
    EXPECT_EQ(error_of(c.line, c.replacement), "param card card.dat" + c.message);
  }
}

}  // namespace
}  // namespace hepex::amplitudes
