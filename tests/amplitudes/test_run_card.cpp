// The run_card.dat reader: MadGraph's own card, the collider's s against
// MadEvent's formula (setrun.f) for random beams, and malformed cards.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <string>

#include "amplitudes/reference_data.hpp"
#include "hepex/amplitudes/run_card.hpp"
#include "hepex/core/error.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace hepex::amplitudes {
namespace {

TEST(RunCard, ReadsMadGraphsCard) {
  // lpp 1, 1 and ebeam 6500, 6500: stot = 2 m^2 + 2 (E^2 + p^2) = 4 E^2.
  const RunParameters run = read_run_card(test::madgraph_file("run_card.dat"));
  EXPECT_NEAR(run.collider_s, 4 * 6500.0 * 6500.0, 1e-7 * 1.69e8);
  EXPECT_EQ(run.tmin_for_channel, -1.0);
}

// stot of MadEvent's setrun.f, written out for two beams of (type, energy).
double setrun_stot(int lpp1, double e1, int lpp2, double e2) {
  const auto mass = [](int lpp) {
    const int a = std::abs(lpp);
    return a == 1 || a == 2 ? 0.938 : a == 3 ? 0.000511 : a == 4 ? 0.105658 : 0.0;
  };
  const double m1 = mass(lpp1), m2 = mass(lpp2);
  e1 = std::max(e1, m1);
  e2 = std::max(e2, m2);
  const double p1 = std::sqrt(std::max(e1 * e1 - m1 * m1, 0.0));
  const double p2 = -std::sqrt(std::max(e2 * e2 - m2 * m2, 0.0));
  return m1 * m1 + m2 * m2 + 2 * (e1 * e2 - p1 * p2);
}

TEST(RunCard, CollidersSAsMadEventFormsIt) {
  SCOPED_TRACE(test::seed_trace());
  std::mt19937_64 rng(test::seed());
  hepex::test::UniformInt<int> type(-4, 4);
  hepex::test::UniformReal energy(0.0, 7000.0), cut(-1.0, 0.0);
  for (int trial = 0; trial < hepex::test::cases(200); ++trial) {
    const int lpp1 = type(rng), lpp2 = type(rng);
    const double e1 = trial == 0 ? 0.0 : energy(rng), e2 = energy(rng), tmin = cut(rng);
    std::ostringstream card;
    card.precision(17);
    card << "#*** a run card ***\n " << lpp1 << " = lpp1 ! beam 1\n  " << lpp2 << "  = lpp2\n"
         << e1 << " = ebeam1 ! GeV\n"
         << e2 << " = ebeam2\n"
         << " 0 = nhel\n True = use_syst\n " << tmin << " = tmin_for_channel ! cut\n";
    std::istringstream in(card.str());
    const double expected = setrun_stot(lpp1, e1, lpp2, e2);
    if (!(expected > 0)) {
      EXPECT_THROW(parse_run_card(in, "card"), Error) << card.str();
      continue;
    }
    const RunParameters run = parse_run_card(in, "card");
    EXPECT_NEAR(run.collider_s, expected, 1e-14 * expected) << card.str();
    EXPECT_EQ(run.tmin_for_channel, tmin);
  }
}

TEST(RunCard, MalformedCardsNameTheLine) {
  const std::string good = "1 = lpp1\n1 = lpp2\n6500 = ebeam1\n6500 = ebeam2\n";
  for (const auto& [text, message] :
       {std::pair<std::string, std::string>{"1 = lpp1\n1 = lpp2\n6500 = ebeam1\n",
                                            "run card card: no ebeam2"},
        {good + "x = ebeam1\n", "line 5: ebeam1: given twice, first on line 3"},
        {"1 = lpp1\n1 = lpp2\n65x0 = ebeam1\n6500 = ebeam2\n",
         "line 3: ebeam1: '65x0' is not a finite number"},
        {"1 = lpp1\n1 = lpp2\n6500 7 = ebeam1\n6500 = ebeam2\n",
         "line 3: ebeam1: expected one value before '='"},
        {good + "0.5 = tmin_for_channel\n", "line 5: tmin_for_channel must be in [-1, 0]"},
        {"1.5 = lpp1\n1 = lpp2\n6500 = ebeam1\n6500 = ebeam2\n",
         "line 1: lpp1 must be a whole number"},
        {"0 = lpp1\n0 = lpp2\n0 = ebeam1\n0 = ebeam2\n", "the collider's s is 0"},
        {"1 = lpp1\n1 = lpp2\n-5 = ebeam1\n6500 = ebeam2\n", "line 3: ebeam1 must be >= 0"}}) {
    std::istringstream in(text);
    try {
      parse_run_card(in, "card");
      ADD_FAILURE() << "no error for: " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(read_run_card("/nonexistent/run_card.dat"), Error);
}

}  // namespace
}  // namespace hepex::amplitudes
