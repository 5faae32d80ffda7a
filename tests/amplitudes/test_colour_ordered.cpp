// Colour matrices, helicity order, gauge invariance of the jamps and RAMBO.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <random>

#include "amplitudes/external_waves.hpp"
#include "amplitudes/reference_data.hpp"
#include "hepex/amplitudes/detail/colour_ordered.hpp"
#include "hepex/amplitudes/detail/colour_sum.hpp"
#include "hepex/amplitudes/detail/current_plan.hpp"
#include "hepex/amplitudes/rambo.hpp"
#include "hepex/config.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"
#if HEPEX_HAS_ME_LANES
#include "hepex/amplitudes/detail/generated/top_line_gluons.hpp"
#include "hepex/amplitudes/detail/lanes.hpp"
#include "hepex/amplitudes/detail/triangle_colour_sum.hpp"
#endif

namespace hepex::amplitudes {
namespace {

using namespace detail;  // the recursion's internals

// The standard library's complex numbers as the independent arithmetic.
std::complex<double> to_std(const cplx<double>& z) { return {z.real(), z.imag()}; }

// sum over colours of (T^{a_s1} ... T^{a_sn})_{ij} conj((T^{a_t1} ... T^{a_tn})_{ij})
// = sum_a Tr(T^{s1}..T^{sn} T^{tn}..T^{t1}), computed independently of
// MadGraph by contracting every pair of equal adjoint indices with
// sum_a T^a_ij T^a_kl = (delta_il delta_kj - delta_ij delta_kl / 3) / 2 and
// summing the 3^(2n) fundamental indices of the trace.
double trace_basis_product(const std::vector<int>& s, const std::vector<int>& t) {
  const int n = static_cast<int>(s.size()), length = 2 * n;
  std::vector<int> word(s);  // the trace's adjoint labels, position by position
  word.insert(word.end(), t.rbegin(), t.rend());
  std::vector<std::pair<int, int>> pairs;  // positions carrying the same gluon
  for (int a = 0; a < n; ++a) {
    const int first = static_cast<int>(std::find(word.begin(), word.end(), a) - word.begin());
    const int second =
        static_cast<int>(std::find(word.begin() + first + 1, word.end(), a) - word.begin());
    pairs.emplace_back(first, second);
  }
  std::vector<int> index(length, 0);
  double sum = 0;
  while (true) {
    double term = 1;
    for (const auto& [p, q] : pairs) {
      const int i = index[p], j = index[(p + 1) % length], k = index[q],
                l = index[(q + 1) % length];
      term *= 0.5 * ((i == l && k == j) - (i == j && k == l) / 3.0);
      if (term == 0) break;
    }
    sum += term;
    int pos = 0;
    while (pos < length && ++index[pos] == 3) index[pos++] = 0;
    if (pos == length) break;
  }
  return sum;
}

// The top-line family's processes (colour flow = an ordering of the gluons);
// the colour-flow family's matrices: test_colour_flow.cpp.
TEST(AmplitudeColour, EmbeddedMatricesMatchTheDataAndTheTraceBasis) {
  SCOPED_TRACE(test::seed_trace());
  for (const Process process : test::family_processes("top_line_gluons")) {
    const auto& info = process_info(process);
    const ColourMatrix m = colour_matrix(process);
    ASSERT_EQ(m.colours, info.colour_flows) << info.name;
    const auto rows = test::read_rows(test::process_file(info, "_colormatrix.txt"));
    ASSERT_EQ(rows.size(), std::size_t(m.colours + 1));
    for (int i = 0; i < m.colours; ++i) {
      EXPECT_EQ(rows[0][i], m.denominator);
      for (int j = 0; j < m.colours; ++j) {
        EXPECT_EQ(rows[i + 1][j], m.cf[i * m.colours + j]);
        EXPECT_EQ(m.cf[i * m.colours + j], m.cf[j * m.colours + i]) << "not symmetric";
      }
    }
    // Colour flow k = k-th ordering of the gluons in lexicographic order.
    std::vector<std::vector<int>> orderings;
    std::vector<int> order(info.gluons);
    std::iota(order.begin(), order.end(), 0);
    do orderings.push_back(order);
    while (std::next_permutation(order.begin(), order.end()));
    // The product only depends on the relative order, C(s, t) = C(id, s^-1 t):
    // compute one row and check all entries against it.
    std::vector<double> row(orderings.size());
    for (std::size_t k = 0; k < orderings.size(); ++k)
      row[k] = trace_basis_product(orderings[0], orderings[k]);
    for (int i = 0; i < m.colours; ++i) {
      for (int j = 0; j < m.colours; ++j) {
        std::vector<int> relative(info.gluons);  // position of t's gluons in s
        for (int a = 0; a < info.gluons; ++a)
          relative[a] = static_cast<int>(
              std::find(orderings[i].begin(), orderings[i].end(), orderings[j][a]) -
              orderings[i].begin());
        const auto k = std::find(orderings.begin(), orderings.end(), relative) - orderings.begin();
        EXPECT_NEAR(row[k], double(m.cf[i * m.colours + j]) / m.denominator, 1e-12)
            << info.name << " entry " << i << ", " << j;
      }
    }
  }
}

// The folded items of the engine's colour sum add up to the plain quadratic
// form sum_ik conj(J_ci) CF_ik J_ck for random jamps, per combination c and
// summed over one to four combinations; the oracle in long double, the bound
// relative to the sum of the terms' sizes (measured worst: 2.7e-15).
template <int n>
void check_folded_colour_sum(Process process, std::mt19937_64& rng) {
  const ColourMatrix m = colour_matrix(process);
  ASSERT_EQ(m.colours, n);
  const auto weights = folded_colour_weights<Kokkos::HostSpace>(m);
  hepex::test::UniformReal uniform(-1, 1);
  for (int trial = 0; trial < hepex::test::cases(20); ++trial) {
    const int combinations = 1 + trial % 4;
    std::vector<cplx<double>> j(4 * n);
    for (auto& x : j) x = cplx<double>(uniform(rng), uniform(rng));
    long double plain[4] = {}, size[4] = {};
    for (int c = 0; c < combinations; ++c)
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k) {
          const std::complex<long double> a = to_std(j[c * n + i]), b = to_std(j[c * n + k]);
          const long double term =
              (std::conj(a) * static_cast<long double>(m.cf[i * n + k]) * b).real();
          plain[c] += term;
          size[c] += std::abs(term);
        }
    double folded = 0, each[4] = {};
    for (int item = 0; item < n; ++item) {
      folded += folded_colour_share<n, 4>(weights, item, j.data(), combinations);
      add_folded_colour_share<n, 4, true>(weights, item, j.data(), combinations, each);
    }
    const long double total = plain[0] + plain[1] + plain[2] + plain[3];
    const long double total_size = size[0] + size[1] + size[2] + size[3];
    EXPECT_LE(double(std::abs(folded - total)), 1e-14 * double(total_size))
        << process_info(process).name << " trial " << trial;
    for (int c = 0; c < combinations; ++c)
      EXPECT_LE(double(std::abs(each[c] - plain[c])), 1e-14 * double(size[c]))
          << process_info(process).name << " trial " << trial << " combination " << c;
  }
}

TEST(AmplitudeColour, FoldedColourSumIsTheQuadraticForm) {
  SCOPED_TRACE(test::seed_trace());
  std::mt19937_64 rng(test::seed());
  check_folded_colour_sum<2>(Process::gg_tt, rng);
  check_folded_colour_sum<6>(Process::gg_ttg, rng);
  check_folded_colour_sum<24>(Process::gg_ttgg, rng);
  check_folded_colour_sum<120>(Process::gg_ttggg, rng);
}

#if HEPEX_HAS_ME_LANES
// The host kernel's row-by-row triangle (detail/triangle_colour_sum.hpp) in
// lanes of doubles and of floats gives, per combination c, the plain
// quadratic form sum_ik conj(J_ci) CF_ik J_ck of every lane's random jamps,
// for one to four combinations. The bound is relative to the sum of the terms' sizes
// (random jamps cancel), the oracle summed in long double; measured worst
// over 50 trials per case: 2.3e-16 in double, 1.4e-7 in float.
struct TriangleTestTag {};

template <class Real, class Matrix, int C>
void check_triangle_colour_sum(const ColourMatrix& m, std::mt19937_64& rng, double bound) {
  constexpr int lanes = Real::lanes, n = Matrix::colours;
  using T = typename Real::value_type;
  hepex::test::UniformReal uniform(-1, 1);
  for (int trial = 0; trial < hepex::test::cases(5); ++trial) {
    std::vector<std::complex<double>> j(lanes * C * n);  // j[(c n + i) lanes + lane]
    for (auto& x : j) x = {double(T(uniform(rng))), double(T(uniform(rng)))};
    std::vector<cplx<Real>> packed(C * n);
    for (int at = 0; at < C * n; ++at) {
      T re[lanes], im[lanes];
      for (int lane = 0; lane < lanes; ++lane) {
        re[lane] = T(j[at * lanes + lane].real());
        im[lane] = T(j[at * lanes + lane].imag());
      }
      packed[at] = cplx<Real>(Real::load(re, lanes), Real::load(im, lanes));
    }
    Doubles<Real> triangle[C];
    detail::triangle_colour_sums<Matrix, C>(packed.data(), triangle);
    for (int lane = 0; lane < lanes; ++lane)
      for (int c = 0; c < C; ++c) {
        long double plain = 0, size = 0;
        for (int i = 0; i < n; ++i)
          for (int k = 0; k < n; ++k) {
            const std::complex<long double> a = j[(c * n + i) * lanes + lane];
            const std::complex<long double> b = j[(c * n + k) * lanes + lane];
            const long double term =
                (std::conj(a) * static_cast<long double>(m.cf[i * n + k]) * b).real();
            plain += term;
            size += std::abs(term);
          }
        EXPECT_LE(double(std::abs(triangle[c].v[lane] - plain)), bound * double(size))
            << n << " colours, combination " << c << " of " << C << ", trial " << trial << ", lane "
            << lane << ": " << triangle[c].v[lane] << " vs " << plain;
      }
  }
}

// The compile-time matrix of each process of the top-line family against
// the registry's (the oracle's) matrix of the same process.
template <class Real, class Matrix>
void check_triangle_colour_sums(std::mt19937_64& rng, double bound) {
  const ColourMatrix m = colour_matrix(Matrix::process);
  ASSERT_EQ(m.colours, Matrix::colours);
  check_triangle_colour_sum<Real, Matrix, 1>(m, rng, bound);
  check_triangle_colour_sum<Real, Matrix, 2>(m, rng, bound);
  check_triangle_colour_sum<Real, Matrix, 3>(m, rng, bound);
  check_triangle_colour_sum<Real, Matrix, 4>(m, rng, bound);
}

template <class Real, int... NG>
void check_triangle_colour_sums(std::mt19937_64& rng, double bound,
                                std::integer_sequence<int, NG...>) {
  (check_triangle_colour_sums<Real, detail::generated::TopLineGluons<NG>>(rng, bound), ...);
}

template <class Real>
void check_triangle_colour_sums(std::mt19937_64& rng, double bound) {
  check_triangle_colour_sums<Real>(rng, bound, detail::generated::top_line_gluons_parameters{});
}

TEST(AmplitudeColour, TriangleColourSumIsTheQuadraticForm) {
  SCOPED_TRACE(test::seed_trace());
  std::mt19937_64 rng(test::seed());
  check_triangle_colour_sums<detail::Lanes<double, 2, TriangleTestTag>>(rng, 1e-15);
  check_triangle_colour_sums<detail::Lanes<float, 4, TriangleTestTag>>(rng, 1e-6);
}
#endif

TEST(AmplitudeColour, HelicityOrderIsMadGraphs) {
  SCOPED_TRACE(test::seed_trace());
  for (const Process process : all_processes()) {
    const auto& info = process_info(process);
    const auto rows = test::read_rows(test::process_file(info, "_helicities.txt"));
    ASSERT_EQ(rows.size(), std::size_t(info.helicity_combinations));
    for (int h = 0; h < info.helicity_combinations; ++h) {
      EXPECT_EQ(rows[h][0], h);
      for (int i = 0; i < info.particles; ++i)
        EXPECT_EQ(rows[h][i + 1], helicity(info, h, i)) << info.name << " " << h;
    }
  }
}

// Replacing a gluon's polarisation vector by its momentum makes every
// colour-ordered amplitude vanish (width 0: the width breaks gauge invariance).
template <int NG>
void check_gauge_invariance(Process process) {
  const auto& info = process_info(process);
  const auto ref = test::read_reference(info, true, 4);
  const auto plan = make_current_plan<Kokkos::HostSpace>(NG);
  constexpr int colours = Sequences::falling(NG, NG);
  double worst = 0;
  for (std::size_t e = 0; e < ref.size(); ++e) {
    const double* p = &ref.momenta[e * 4 * info.particles];
    // Some helicities vanish (to rounding) for some events: the scale is the
    // largest jamp of the event over all helicities.
    double scale = 0, largest_gauge_term = 0;
    for (int h = 0; h < info.helicity_combinations; ++h) {
      const auto waves = test::external_waves<NG>(info, p, h);
      const auto& gluons = waves.gluons;
      const auto& top = waves.top;
      const auto& antitop = waves.antitop;
      cplx<double> jamps[colours];
      colour_ordered_jamps<NG>(plan, gluons, top, antitop, TopQuark{top_mass, 0.0}, jamps);
      for (const auto& j : jamps) scale = std::max(scale, std::abs(to_std(j)));
      for (int g = 0; g < NG; ++g) {
        Wave<double> gauge[NG];
        std::copy(gluons, gluons + NG, gauge);
        for (int mu = 0; mu < 4; ++mu) gauge[g].c[mu] = gluons[g].k[mu] / gluons[g].k[0];
        cplx<double> zero[colours];
        colour_ordered_jamps<NG>(plan, gauge, top, antitop, TopQuark{top_mass, 0.0}, zero);
        for (const auto& j : zero)
          largest_gauge_term = std::max(largest_gauge_term, std::abs(to_std(j)));
      }
    }
    worst = std::max(worst, largest_gauge_term / scale);
  }
  EXPECT_LT(worst, 1e-12) << info.name;
  std::cout << "[ " << info.name << " ] gauge check: max |jamp(eps -> k)| / max |jamp| = " << worst
            << '\n';
}

TEST(AmplitudeGauge, GluonPolarisationReplacedByItsMomentumGivesZero) {
  SCOPED_TRACE(test::seed_trace());
  check_gauge_invariance<2>(Process::gg_tt);
  check_gauge_invariance<3>(Process::gg_ttg);
  check_gauge_invariance<4>(Process::gg_ttgg);
  check_gauge_invariance<5>(Process::gg_ttggg);
}

// The gluon processes: the others have the same particle counts and masses
// (massless but for the top pair, particles 3 and 4).
TEST(AmplitudeRambo, EventsAreOnShellConservingAndReproducible) {
  SCOPED_TRACE(test::seed_trace());
  for (const Process process : test::family_processes("top_line_gluons")) {
    const auto& info = process_info(process);
    MomentaView<Kokkos::HostSpace> a("a", 100, info.particles, 4), b("b", 100, info.particles, 4);
    rambo(Kokkos::DefaultHostExecutionSpace(), a, 1500.0, test::seed());
    rambo(Kokkos::DefaultHostExecutionSpace(), b, 1500.0, test::seed());
    std::vector<double> flat;
    for (int e = 0; e < 100; ++e)
      for (int i = 0; i < info.particles; ++i)
        for (int mu = 0; mu < 4; ++mu) {
          flat.push_back(a(e, i, mu));
          EXPECT_EQ(a(e, i, mu), b(e, i, mu));
        }
    EXPECT_NO_THROW(check_momenta(info, flat.data(), flat.size()));
    EXPECT_THROW(rambo(Kokkos::DefaultHostExecutionSpace(), a, 300.0, 1), Error);
  }
}

}  // namespace
}  // namespace hepex::amplitudes
