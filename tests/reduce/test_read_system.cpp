// read_system on host threads (a large system read in parts, appended in
// order) against the same reader on one thread, the oracle: the same
// integrals in the same order with the same places, the same distinct
// coefficients, the same equations; and for a bad input somewhere in a large
// system the same first error (file, line, column, message), whichever part
// it falls in: a malformed term, an unknown parameter, an empty equation, a
// family whose index count changes in a later part than its first use.
// Random systems, Mathematica lists and Kira's format, 1-4 threads.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/host_threads.hpp"
#include "hepex/reduce/system.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex::reduce;

// `equations` random equations over F[a,b,c] (and G[a,b] where `two_families`)
// with coefficients from a small pool (IBP systems repeat them) and some
// one-off ones, each term on its own line in Kira's format.
std::vector<std::vector<std::string>> random_terms(std::mt19937_64& rng, std::size_t equations) {
  const std::vector<std::string> pool{"d - 4", "s",  "2*d - 7", "(d - 3)*s",
                                      "t + s", "-1", "3/2*t",   "d^2 - s*t"};
  std::vector<std::vector<std::string>> out(equations);
  for (auto& eq : out) {
    const std::size_t terms = 1 + rng() % 6;
    for (std::size_t k = 0; k < terms; ++k) {
      std::ostringstream term;
      term << (rng() % 4 == 0
                   ? "G[" + std::to_string(rng() % 5) + "," + std::to_string(int(rng() % 5) - 2) +
                         "]"
                   : "F[" + std::to_string(rng() % 7) + "," + std::to_string(int(rng() % 7) - 3) +
                         "," + std::to_string(rng() % 3) + "]");
      term << "*("
           << (rng() % 10 == 0 ? std::to_string(rng() % 1000) + "*d - " + std::to_string(rng() % 97)
                               : pool[rng() % pool.size()])
           << ")";
      eq.push_back(term.str());
    }
  }
  return out;
}

std::string as_text(const std::vector<std::vector<std::string>>& eqs, bool kira) {
  std::string text = kira ? "" : "{";
  for (std::size_t e = 0; e < eqs.size(); ++e) {
    for (std::size_t k = 0; k < eqs[e].size(); ++k) {
      if (kira) {
        text += eqs[e][k] + "\n";
      } else {
        text += (k != 0 ? " + " : "") + eqs[e][k];
      }
    }
    text += kira ? "\n" : (e + 1 < eqs.size() ? ",\n" : "}\n");
  }
  return text;
}

void expect_same(const System& a, const System& b, const std::string& where) {
  ASSERT_EQ(a.integrals.size(), b.integrals.size()) << where;
  for (std::size_t k = 0; k < a.integrals.size(); ++k) {
    ASSERT_EQ(a.integrals[k].text(), b.integrals[k].text()) << where << " integral " << k;
    ASSERT_EQ(a.first_seen[k].line, b.first_seen[k].line) << where << " integral " << k;
    ASSERT_EQ(a.first_seen[k].column, b.first_seen[k].column) << where << " integral " << k;
    ASSERT_EQ(b.index.at(a.integrals[k].text()), k) << where;
  }
  ASSERT_EQ(a.index.size(), b.index.size()) << where;
  ASSERT_EQ(a.coefficients.size(), b.coefficients.size()) << where;
  for (std::size_t c = 0; c < a.coefficients.size(); ++c)
    ASSERT_EQ(a.coefficients[c].text, b.coefficients[c].text) << where << " coefficient " << c;
  ASSERT_EQ(a.equations.size(), b.equations.size()) << where;
  for (std::size_t e = 0; e < a.equations.size(); ++e) {
    ASSERT_EQ(a.equations[e].line, b.equations[e].line) << where << " equation " << e;
    ASSERT_EQ(a.equations[e].terms.size(), b.equations[e].terms.size())
        << where << " equation " << e;
    for (std::size_t k = 0; k < a.equations[e].terms.size(); ++k) {
      ASSERT_EQ(a.equations[e].terms[k].integral, b.equations[e].terms[k].integral)
          << where << " equation " << e;
      ASSERT_EQ(a.equations[e].terms[k].coefficient, b.equations[e].terms[k].coefficient)
          << where << " equation " << e;
    }
  }
}

std::string error_of(const std::string& text, const std::vector<std::string>& names,
                     hepex::HostThreads* threads) {
  try {
    read_system(text, "big.m", names, threads);
  } catch (const hepex::Error& e) {
    return e.what();
  }
  return "";
}

TEST(ReadSystem, InPartsOnHostThreadsAsOnOne) {
  SCOPED_TRACE(hepex::test::seed_trace());
  const std::uint64_t seed = hepex::test::seed();
  std::mt19937_64 rng(seed);
  const std::vector<std::string> names{"d", "s", "t"};
  for (std::size_t threads = 1; threads <= 4; ++threads) {
    hepex::HostThreads pool(threads);
    for (int trial = 0; trial < hepex::test::cases(3); ++trial) {
      const bool kira = trial % 2 == 1;
      auto eqs = random_terms(rng, 5000 + rng() % 4000);
      // Twice the same integral in one equation: its coefficients are added.
      eqs[rng() % eqs.size()].push_back(eqs[0][0]);
      // A family used once, at the start (bad input below uses it again
      // with another index count, in a part that does not otherwise see it).
      eqs[0].push_back("H[1,1]*(s)");
      const std::string text = as_text(eqs, kira);
      const std::string where = "seed " + std::to_string(seed) + ", " + std::to_string(threads) +
                                " threads, " + (kira ? "Kira" : "list") + ", trial " +
                                std::to_string(trial);
      const System one = read_system(text, "big.m", names);
      const System parts = read_system(text, "big.m", names, &pool);
      expect_same(one, parts, where);

      // One bad input at a random equation: the same first error.
      const std::vector<std::string> bad{"F[1,x]*(d)",   "F[1,2,0]*(u - 1)", "G[1,2,3]*(d)",
                                         "H[1,2,3]*(d)", "F[1,2,0]*(d))",    "F[1,1,1]*G[1,1]"};
      for (const std::string& b : bad) {
        auto broken = eqs;
        const std::size_t at = broken.size() / 2 + rng() % (broken.size() / 2);
        broken[at].insert(
            broken[at].begin() + static_cast<std::ptrdiff_t>(rng() % broken[at].size()), b);
        const std::string t = as_text(broken, kira);
        const std::string want = error_of(t, names, nullptr);
        ASSERT_FALSE(want.empty()) << where << ": " << b << " was accepted";
        EXPECT_EQ(error_of(t, names, &pool), want) << where << ": " << b;
      }
      if (!kira) {  // an empty equation in the list
        std::string t = text;
        t.insert(t.find(",\n", t.size() / 2) + 1, " ,");
        const std::string want = error_of(t, names, nullptr);
        ASSERT_NE(want.find("an empty equation"), std::string::npos) << where << ": " << want;
        EXPECT_EQ(error_of(t, names, &pool), want) << where;
      }
    }
  }
}

}  // namespace
