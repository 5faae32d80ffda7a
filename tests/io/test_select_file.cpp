// io::read_select_file: random files of each form read back the numbers
// written (shortest round-trip decimal), with their lines past comments and
// blank lines; every malformed line is refused naming the file and line.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <sstream>

#include "hepex/core/error.hpp"
#include "hepex/io/select_file.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace {

std::string decimal(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

TEST(SelectFile, RandomFilesReadBackWhatWasWritten) {
  std::mt19937_64 rng(hepex::test::seed());
  for (int trial = 0; trial < hepex::test::cases(60); ++trial) {
    SCOPED_TRACE(hepex::test::seed_trace() + " trial " + std::to_string(trial));
    const std::size_t columns = 3 + static_cast<std::size_t>(trial % 3);
    const std::size_t events = 1 + hepex::test::random_below(rng, 30);
    hepex::io::SelectFile want;
    std::string text;
    std::size_t line = 0;
    for (std::size_t e = 0; e < events; ++e) {
      while (hepex::test::random_chance(rng, 0.2)) {
        text += hepex::test::random_chance(rng, 0.5) ? "# comment 1 2 3\n" : "\n";
        ++line;
      }
      want.gs.push_back(hepex::test::random_real(rng, 0.5, 1.5));
      want.rndhel.push_back(hepex::test::random_real(rng, 0, 1));
      want.rndcol.push_back(hepex::test::random_real(rng, 0, 1));
      text += decimal(want.gs.back()) + " " + decimal(want.rndhel.back()) + "\t" +
              decimal(want.rndcol.back());
      if (columns >= 4) {
        want.igraph.push_back(static_cast<int>(hepex::test::random_below(rng, 1000)));
        text += " " + std::to_string(want.igraph.back());
      }
      if (columns == 5) {
        want.channel.push_back(static_cast<int>(hepex::test::random_below(rng, 1000)));
        text += "  " + std::to_string(want.channel.back()) + ".0";
      }
      text += "\n";
      want.lines.push_back(++line);
    }
    std::istringstream in(text);
    const auto got = hepex::io::read_select_file(in, "sel.txt");
    EXPECT_EQ(got.columns, columns);
    EXPECT_EQ(got.gs, want.gs);
    EXPECT_EQ(got.rndhel, want.rndhel);
    EXPECT_EQ(got.rndcol, want.rndcol);
    EXPECT_EQ(got.igraph, want.igraph);
    EXPECT_EQ(got.channel, want.channel);
    EXPECT_EQ(got.lines, want.lines);
  }
}

TEST(SelectFile, MalformedLinesNameTheFileAndLine) {
  const std::pair<const char*, const char*> bad[] = {
      {"", "sel.txt: no events"},
      {"# only a comment\n", "sel.txt: no events"},
      {"1 0.5\n", "sel.txt:1: 2 numbers, expected 3"},
      {"1 0.5 0.5 1 2 3\n", "sel.txt:1: 6 numbers"},
      {"1 0.5 0.5\n1 0.5 0.5 2\n", "sel.txt:2: 4 numbers, expected 3"},
      {"1 0.5 0.5 2\n\n1 0.5 0.5\n", "sel.txt:3: 3 numbers, expected 4"},
      {"1 0.5 0.5 2.5\n", "sel.txt:1: igraph 2.5"},
      {"1 0.5 0.5 -1\n", "sel.txt:1: igraph -1"},
      {"1 0.5 0.5 1 2e9\n", "sel.txt:1: channel 2000000000"},
      {"1 0.5 0.5 1 nan\n", "sel.txt:1: channel nan"},
      {"1 0.5 x\n", "sel.txt:1:"},
  };
  for (const auto& [text, message] : bad) {
    std::istringstream in(text);
    try {
      hepex::io::read_select_file(in, "sel.txt");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const hepex::Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(message, 0), 0u) << e.what() << " for " << text;
    }
  }
}

}  // namespace
