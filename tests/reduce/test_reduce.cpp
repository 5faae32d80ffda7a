// IBP reduction (hepex/reduce): random parametric systems whose solution is
// planted, so the oracle is exact and independent of the solver. Integrals
// F[..] in the default Laporta order; the simplest k are the masters; every
// other integral I_j has a relation R_j: den_j I_j - sum_m num_jm M_m = 0
// with random polynomials den_j, num_jm in 1-3 parameters. The system's
// equations are random combinations (constant and polynomial multipliers)
// of the R_j, in a Mathematica list or Kira's format at random, with
// dependent equations among them. The table must be num_jm/den_j exactly
// (GMP cross-multiplication), its masters the planted ones; a target that
// is a master comes back as itself. Parse errors name file, line and column.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/reduce/reduce.hpp"
#include "hepex/reduce/system.hpp"
#include "reconstruct/random_functions.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace {

using namespace hepex::reduce;
using hepex::reconstruct::PolynomialQ;
using hepex::reconstruct::RationalFunction;

PolynomialQ random_poly(std::mt19937_64& rng, std::size_t n, std::uint32_t degree) {
  const std::size_t terms =
      std::min<std::size_t>(1 + rng() % 3, hepex::test::monomial_count(n, degree));
  PolynomialQ p = hepex::test::random_polynomial(rng, n, terms, degree, 5, true);
  p.sort();
  return p;
}

std::string text(const PolynomialQ& p, const std::vector<std::string>& names) {
  return "(" + hepex::reconstruct::to_string(p, names) + ")";
}

struct Planted {
  std::vector<std::string> names;
  std::vector<Integral> integrals;  // most complex first
  std::size_t masters = 0;          // the last `masters` integrals
  std::vector<PolynomialQ> den;     // per non-master
  std::vector<std::vector<PolynomialQ>> num;
  std::string file;  // the system's text
};

Planted plant(std::mt19937_64& rng, bool kira) {
  Planted s;
  const std::vector<std::string> all{"d", "s", "t"};
  const std::size_t n = 1 + rng() % 3;
  s.names.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
  // Distinct integrals F[a, b, c], sorted most complex first.
  std::map<std::vector<long>, int> seen;
  const std::size_t K = 4 + rng() % 8;
  while (s.integrals.size() < K) {
    std::vector<long> idx{static_cast<long>(rng() % 3), static_cast<long>(rng() % 3) - 1,
                          static_cast<long>(rng() % 4) - 1};
    if (seen.emplace(idx, 0).second) s.integrals.push_back({"F", idx});
  }
  std::sort(s.integrals.begin(), s.integrals.end(), more_complex);
  s.masters = 1 + rng() % 3;
  const std::size_t J = K - s.masters;
  for (std::size_t j = 0; j < J; ++j) {
    s.den.push_back(random_poly(rng, n, 2));
    s.num.emplace_back();
    for (std::size_t m = 0; m < s.masters; ++m) s.num.back().push_back(random_poly(rng, n, 2));
  }
  // Equations: R_j plus random multiples of others; then dependent ones.
  std::vector<std::vector<std::pair<std::size_t, std::string>>> equations;  // (R index, multiplier)
  for (std::size_t j = 0; j < J; ++j) {
    equations.push_back({{j, std::to_string(1 + rng() % 5)}});
    // An off-diagonal multiplier with a parameter factor: the multipliers'
    // determinant keeps its constant term, never zero.
    if (J > 1 && rng() % 2)
      equations.back().push_back({(j + 1 + rng() % (J - 1)) % J,
                                  text(random_poly(rng, n, 1), s.names) + "*" + s.names[0]});
  }
  hepex::test::random_shuffle(equations.begin(), equations.end(), rng);
  for (int extra = 0; extra < 3; ++extra)
    equations.push_back({{rng() % J, "2"}, {rng() % J, text(random_poly(rng, n, 1), s.names)}});
  std::ostringstream out;
  if (!kira) out << "{";
  for (std::size_t e = 0; e < equations.size(); ++e) {
    std::vector<std::string> terms;
    for (const auto& [j, a] : equations[e]) {
      terms.push_back(a + "*" + text(s.den[j], s.names) + "*" + s.integrals[j].text());
      for (std::size_t m = 0; m < s.masters; ++m)
        terms.push_back(s.integrals[J + m].text() + "*(-" + a + "*" + text(s.num[j][m], s.names) +
                        ")");
    }
    if (kira) {
      for (const auto& t : terms) out << t << "\n";
      out << "\n";
    } else {
      out << (e ? ",\n " : "");
      for (std::size_t k = 0; k < terms.size(); ++k) out << (k ? " + " : "") << terms[k];
    }
  }
  if (!kira) out << "}\n";
  s.file = out.str();
  return s;
}

TEST(Reduce, PlantedSystemsComeBackExactly) {
  SCOPED_TRACE(hepex::test::seed_trace());
  std::mt19937_64 rng(hepex::test::seed());
  for (int trial = 0; trial < hepex::test::cases(10); ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const bool kira = rng() % 2 == 0;
    const Planted p = plant(rng, kira);
    SCOPED_TRACE(p.file);
    const System system = read_system(p.file, "planted.m", p.names);
    const std::size_t J = p.integrals.size() - p.masters;
    ReduceOptions options;
    options.reconstruction.seed = rng();
    // Half the trials replay every batch on the GPU (where the build has one).
    if (trial % 2 == 1) options.device_min_points = 1;
    // The algebra on 1 to 4 host threads (more than this machine's cores too).
    options.reconstruction.threads = 1 + static_cast<std::size_t>(trial) % 4;
    std::vector<std::size_t> targets;
    for (std::size_t j = 0; j < J; ++j)
      if (rng() % 2 || j == 0) targets.push_back(j);
    targets.push_back(J);  // a master as a target
    for (const std::size_t j : targets) options.targets.push_back(p.integrals[j]);
    const Reduction r = reduce(system, options);
    ASSERT_EQ(r.masters.size(), p.masters);
    for (std::size_t m = 0; m < p.masters; ++m)
      EXPECT_EQ(r.masters[m].text(), p.integrals[J + m].text());
    ASSERT_EQ(r.master_targets.size(), 1u);
    EXPECT_EQ(r.master_targets[0], targets.size() - 1);
    for (std::size_t t = 0; t + 1 < targets.size(); ++t) {
      for (std::size_t m = 0; m < p.masters; ++m) {
        RationalFunction want{p.num[targets[t]][m], p.den[targets[t]]};
        EXPECT_TRUE(hepex::test::same_function(r.table[t][m], want))
            << p.integrals[targets[t]].text() << " master " << m << ": "
            << hepex::reconstruct::to_string(r.table[t][m], p.names);
      }
    }
    // The master target: 1 at itself.
    for (std::size_t m = 0; m < p.masters; ++m) {
      const auto& q = r.table.back()[m];
      const bool one = q.num.terms() == 1 && q.den.terms() == 1 &&
                       q.num.coefficients[0] == q.den.coefficients[0];
      EXPECT_EQ(m == 0 ? one : q.num.terms() == 0, true) << m;
    }
    EXPECT_LE(r.equations_needed, r.equations);
    std::ostringstream table;
    write_table(table, r, p.names, trial % 2 == 0);
    EXPECT_NE(table.str().find(p.integrals[targets[0]].text() + " -> "), std::string::npos);
  }
}

std::string error_of(const std::string& text, const std::vector<std::string>& names) {
  try {
    read_system(text, "sys.m", names);
  } catch (const hepex::Error& e) {
    return e.what();
  }
  return "";
}

TEST(Reduce, BadInputNamesFileLineAndColumn) {
  const std::vector<std::string> v{"d", "s"};
  EXPECT_NE(error_of("{F[1,1]*d - F[1,0]*s,\n F[1,1]*x}", v).find("sys.m:2:2: the coefficient"),
            std::string::npos)
      << error_of("{F[1,1]*d - F[1,0]*s,\n F[1,1]*x}", v);
  EXPECT_NE(
      error_of("{F[1,1]*d - F[1,0,1]*s}", v).find("sys.m:1:13: F[1,0,1] has 3 indices, F had 2"),
      std::string::npos)
      << error_of("{F[1,1]*d - F[1,0,1]*s}", v);
  EXPECT_NE(error_of("{(F[1,1] + F[1,0])*d}", v).find("sys.m:1:3: an integral inside parentheses"),
            std::string::npos);
  EXPECT_NE(error_of("{1/(s*F[1,1])}", v).find("sys.m:1:7: an integral inside parentheses"),
            std::string::npos);
  EXPECT_NE(error_of("{(s*F[1,1])^2}", v).find("sys.m:1:5: an integral inside parentheses"),
            std::string::npos);
  // Mathematica's -(s*G[..]): a factor in parentheses is fine.
  EXPECT_EQ(error_of("{-(s*F[1,1]) + 2*((d - 1)*F[1,0])}", v), "");
  EXPECT_NE(error_of("{F[1,1]*F[1,0]}", v).find("sys.m:1:9: a product of two integrals"),
            std::string::npos);
  EXPECT_NE(error_of("{F[1,1]*d + s}", v).find("sys.m:1:11: a term without an integral"),
            std::string::npos)
      << error_of("{F[1,1]*d + s}", v);
  EXPECT_NE(error_of("{F[1,x]*d}", v).find("sys.m:1:6: expected an integer index"),
            std::string::npos);
  EXPECT_NE(error_of("{F[1,1]*d", v).find("sys.m:1:1: the list opened here is not closed"),
            std::string::npos);
  EXPECT_NE(error_of("{F[1,1]*d} F", v).find("sys.m:1:12: text after the closing '}'"),
            std::string::npos);
  EXPECT_NE(error_of("F[1,1]*(d+\n", v).find("unbalanced"), std::string::npos)
      << error_of("F[1,1]*(d+\n", v);
  EXPECT_NE(error_of("  \n", v).find("sys.m: no equations"), std::string::npos);
  // Mathematica's implicit multiplication and its spaces.
  const System s = read_system("{2 s F[1, 1] - (d - 4) F[1, 0]}", "sys.m", v);
  ASSERT_EQ(s.equations.size(), 1u);
  EXPECT_EQ(s.equations[0].terms.size(), 2u);
  // A target not in the system, an order without an integral.
  ReduceOptions o;
  o.targets = {{"F", {2, 2}}};
  EXPECT_THROW(reduce(s, o), hepex::Error);
  o.targets = {{"F", {1, 1}}};
  o.order = {{"F", {1, 1}}};
  try {
    reduce(s, o);
    ADD_FAILURE() << "an order without F[1,0] was accepted";
  } catch (const hepex::Error& e) {
    EXPECT_NE(std::string(e.what()).find("sys.m:1:24: F[1,0] is not in the integral order"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
