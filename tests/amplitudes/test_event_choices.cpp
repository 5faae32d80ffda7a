// What a generator asks of an event besides |M|^2 (matrix_element.hpp,
// EventInputs): the ME at the event's own strong coupling, and MadGraph's
// helicity and colour choices, against MadGraph's own choices on its
// selection reference (tests/data/madgraph/P_selection_ref.txt), against the
// exact coupling scaling, and in frequency against shares from the reference
// recursion (chi-square).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "amplitudes/external_waves.hpp"
#include "amplitudes/reference_data.hpp"
#include "hepex/amplitudes/detail/colour_ordered.hpp"
#include "hepex/amplitudes/detail/colour_sum.hpp"
#include "hepex/amplitudes/detail/current_plan.hpp"
#include "hepex/amplitudes/detail/event_choices.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/core/error.hpp"
#include "test_random.hpp"
#include "test_seed.hpp"

namespace hepex::amplitudes {
namespace {

using namespace detail;  // the recursion's internals

// MadGraph's selection reference: per event the momenta (of the on-shell
// reference's event ievt), the inputs and MadGraph's answers.
struct SelectionReference {
  std::vector<double> momenta;
  EventInputs inputs;
  std::vector<double> me;
  std::vector<int> selhel, selcol;
};

SelectionReference read_selection_reference(const ProcessInfo& info, std::size_t limit) {
  const auto events = test::read_reference(info, true);
  const auto rows = test::read_rows(test::process_file(info, "_selection_ref.txt"));
  const std::size_t values = 4 * info.particles;
  SelectionReference ref;
  for (const auto& row : rows) {
    if (ref.me.size() == limit) break;
    if (row.size() != 8) throw std::runtime_error("bad selection row");
    const auto event = static_cast<std::size_t>(row[0]);
    ref.momenta.insert(ref.momenta.end(), events.momenta.begin() + event * values,
                       events.momenta.begin() + (event + 1) * values);
    ref.inputs.gs.push_back(row[1]);
    ref.inputs.rndhel.push_back(row[2]);
    ref.inputs.rndcol.push_back(row[3]);
    ref.inputs.igraph.push_back(static_cast<int>(row[4]));
    ref.me.push_back(row[5]);
    ref.selhel.push_back(static_cast<int>(row[6]));
    ref.selcol.push_back(static_cast<int>(row[7]));
  }
  return ref;
}

TEST(AmplitudeSelection, EmbeddedFlowChoicesMatchTheData) {
  for (const Process process : all_processes()) {
    const auto& info = process_info(process);
    const auto table = detail::flow_choice_table(process);
    const auto rows = test::read_rows(test::process_file(info, "_icolamp.txt"));
    ASSERT_EQ(rows.size(), std::size_t(table.configurations)) << info.name;
    EXPECT_EQ(configurations(process), table.configurations);
    for (int c = 0; c < table.configurations; ++c) {
      ASSERT_EQ(rows[c].size(), std::size_t(info.colour_flows));
      for (int flow = 0; flow < info.colour_flows; ++flow) {
        const auto word = table.words[c * table.words_per_configuration + flow / 64];
        EXPECT_EQ(double((word >> (flow % 64)) & 1), rows[c][flow])
            << info.name << " configuration " << c + 1 << " flow " << flow;
      }
    }
  }
}

class AmplitudeSelectionReference : public ::testing::TestWithParam<Process> {};

// In double: MadGraph's ME at the event's gs (the reference's tolerance of
// test_matrix_element.cpp) and exactly its helicity and colour on every
// event. In mixed and float precision the sums that decide a choice are
// rounded more, so a choice may differ where r lies that close to a
// boundary: it must lie between the double choices at r - delta and
// r + delta (choices grow with r), delta 1e-6 (mixed) and 1e-4 (float),
// a few times the measured errors of |M|^2 (1e-7 and 3e-5); the ME within
// 1e-6 and 1e-4 (float on the quark processes' events: 1e-3, 1e-2 for the
// 3-jet ones, test::colour_flow_float_tolerance: one event of pp_tt012j's set
// loses 2.3e-4 in float, in both families' kernels, one of pp_tt3j's 2.06e-3).
TEST_P(AmplitudeSelectionReference, MadGraphsChoicesOnEveryEvent) {
  SCOPED_TRACE(test::seed_trace());
  const Process process = GetParam();
  const auto& info = process_info(process);
  const auto ref = read_selection_reference(info, test::events_for(process, 768));
  ASSERT_EQ(ref.me.size(), test::events_for(process, 768));
  const std::size_t events = ref.me.size();

  MatrixElement exact(process);
  const auto got = exact.evaluate(ref.momenta, ref.inputs);
  // MadGraph's CUDACPP chooses no colour (0) for igraph 0; hepex chooses
  // among all flows there, as without igraph (event_choices.hpp): the
  // expected choice of those events is the one made without igraph, which
  // ChoiceFrequenciesFollowTheShares checks against the shares.
  EventInputs without_igraph = ref.inputs;
  without_igraph.igraph.clear();
  const auto any_flow = exact.evaluate(ref.momenta, without_igraph);
  std::vector<int> expected_selcol = ref.selcol;
  int igraph_zero = 0;
  for (std::size_t e = 0; e < events; ++e) {
    if (ref.inputs.igraph[e] != 0) continue;
    ASSERT_EQ(ref.selcol[e], 0) << info.name << " event " << e;
    expected_selcol[e] = any_flow.selcol[e];
    EXPECT_GE(expected_selcol[e], 1) << info.name << " event " << e;
    ++igraph_zero;
  }
  EXPECT_GT(igraph_zero, 0) << info.name;
  double worst = 0;
  int helicity_mismatches = 0, colour_mismatches = 0;
  for (std::size_t e = 0; e < events; ++e) {
    worst = std::max(worst, std::fabs(got.me[e] / ref.me[e] - 1));
    helicity_mismatches += got.selhel[e] != ref.selhel[e];
    colour_mismatches += got.selcol[e] != expected_selcol[e];
    EXPECT_EQ(got.selhel[e], ref.selhel[e]) << info.name << " event " << e;
    EXPECT_EQ(got.selcol[e], expected_selcol[e]) << info.name << " event " << e;
  }
  EXPECT_LT(worst, process == Process::gg_ttggg ? 1e-11 : 1e-12) << info.name;
  std::cout << "[ " << info.name << " ] double: ME max relative error " << worst << ", "
            << helicity_mismatches << " helicity and " << colour_mismatches
            << " colour choices unlike MadGraph's in " << events << " events\n";

  // The same choices from the host kernel of every instruction set this CPU
  // has (one source, compiled per set; a GPU build has only `none`: the
  // device kernel again); a family without lanes has `none` only.
  for (const Simd simd : simd_supported()) {
    if (simd != Simd::none && !detail::process_entry(process).host_lanes) continue;
    MatrixElementOptions options;
    options.simd = simd;
    MatrixElement lanes(process, options);
    const auto in_lanes = lanes.evaluate(ref.momenta, ref.inputs);
    int unlike = 0;
    for (std::size_t e = 0; e < events; ++e)
      unlike += in_lanes.selhel[e] != ref.selhel[e] || in_lanes.selcol[e] != expected_selcol[e];
    EXPECT_EQ(unlike, 0) << info.name << " simd " << simd_name(simd);
  }

  for (const auto& [precision, delta, tolerance] :
       {std::tuple{Precision::mixed, 1e-6, 1e-6},
        std::tuple{Precision::single_precision, 1e-4, 1e-4}}) {
    MatrixElementOptions options;
    options.precision = precision;
    MatrixElement rounded(process, options);
    const auto shifted_inputs = [&](double shift) {
      EventInputs shifted = ref.inputs;
      for (auto& r : shifted.rndhel) r = std::clamp(r + shift, 0.0, 0.9999999999999999);
      for (auto& r : shifted.rndcol) r = std::clamp(r + shift, 0.0, 0.9999999999999999);
      return shifted;
    };
    const auto low = exact.evaluate(ref.momenta, shifted_inputs(-delta));
    const auto high = exact.evaluate(ref.momenta, shifted_inputs(delta));
    const auto near = rounded.evaluate(ref.momenta, ref.inputs);
    double error = 0;
    int near_boundary = 0;
    for (std::size_t e = 0; e < events; ++e) {
      error = std::max(error, std::fabs(near.me[e] / ref.me[e] - 1));
      near_boundary += low.selhel[e] != high.selhel[e] || low.selcol[e] != high.selcol[e];
      EXPECT_TRUE(low.selhel[e] <= near.selhel[e] && near.selhel[e] <= high.selhel[e])
          << info.name << " " << precision_name(precision) << " event " << e << ": "
          << near.selhel[e] << " not in [" << low.selhel[e] << ", " << high.selhel[e] << "]";
      EXPECT_TRUE(low.selcol[e] <= near.selcol[e] && near.selcol[e] <= high.selcol[e])
          << info.name << " " << precision_name(precision) << " event " << e << ": "
          << near.selcol[e] << " not in [" << low.selcol[e] << ", " << high.selcol[e] << "]";
    }
    const bool quark_events = std::string(detail::process_entry(process).family) == "colour_flow";
    const double me_tolerance = precision == Precision::single_precision && quark_events
                                    ? test::colour_flow_float_tolerance(info)
                                    : tolerance;
    EXPECT_LT(error, me_tolerance) << info.name << " " << precision_name(precision);
    std::cout << "[ " << info.name << " ] " << precision_name(precision)
              << ": ME max relative error " << error << ", " << near_boundary << " events within "
              << delta << " of a boundary\n";
  }
}

INSTANTIATE_TEST_SUITE_P(Processes, AmplitudeSelectionReference,
                         ::testing::ValuesIn(all_processes()), [](const auto& info) {
                           return std::string(process_info(info.param).name);
                         });

// |M|^2 at coupling gs is |M|^2 at G times (gs / G)^(2 coupling_power)
// (particles - 2 powers of G in every tree) (to rounding: 1e-14, the factor formed in long double)
// on random gs; gs = G gives the plain ME to a few ulps (1e-15: the GPU kernel adds the helicities
// one by one where it chooses, per unit where not; the host kernel gives the same bits); alpha_s of
// the parameters scales by (alpha_s / 0.118)^coupling_power; the choices do not depend on the
// coupling. (MadGraph's own gs dependence: MadGraphsChoicesOnEveryEvent.)
TEST(AmplitudeSelection, CouplingScalesExactly) {
  SCOPED_TRACE(test::seed_trace());
  std::mt19937_64 rng(test::seed());
  hepex::test::UniformReal coupling(0.8, 1.6), alpha(0.08, 0.16), unit(0, 1);
  for (const Process process : all_processes()) {
    const auto& info = process_info(process);
    const auto ref = test::read_reference(info, true, 16);
    const std::size_t events = ref.size();
    MatrixElement me(process);
    const auto plain = me.evaluate(ref.momenta);
    EventInputs inputs;
    for (std::size_t e = 0; e < events; ++e) {
      inputs.gs.push_back(coupling(rng));
      inputs.rndhel.push_back(unit(rng));
      inputs.rndcol.push_back(unit(rng));
    }
    const auto scaled = me.evaluate(ref.momenta, inputs);
    EventInputs at_g_inputs = inputs;
    at_g_inputs.gs.assign(events, strong_coupling);
    const auto at_g = me.evaluate(ref.momenta, at_g_inputs);
    for (std::size_t e = 0; e < events; ++e) {
      const long double ratio = static_cast<long double>(inputs.gs[e]) / strong_coupling;
      const long double factor = std::pow(ratio, 2 * info.coupling_power);
      EXPECT_NEAR(double(scaled.me[e] / (plain[e] * factor)), 1.0, 1e-14)
          << info.name << " event " << e << " gs " << inputs.gs[e];
      EXPECT_NEAR(at_g.me[e] / plain[e], 1.0, 1e-15) << info.name << " event " << e;
      EXPECT_EQ(at_g.selhel[e], scaled.selhel[e]) << info.name << " event " << e;
      EXPECT_EQ(at_g.selcol[e], scaled.selcol[e]) << info.name << " event " << e;
    }
    MatrixElementOptions options;
    options.parameters.alpha_s = alpha(rng);
    MatrixElement run(process, options);
    const auto at_alpha = run.evaluate(ref.momenta);
    const long double factor = std::pow(
        static_cast<long double>(options.parameters.alpha_s) / 0.118L, info.coupling_power);
    for (std::size_t e = 0; e < events; ++e) {
      EXPECT_NEAR(double(at_alpha[e] / (plain[e] * factor)), 1.0, 1e-14)
          << info.name << " event " << e << " alpha_s " << options.parameters.alpha_s;
    }
  }
}

// The shares of one gg_ttg event from the reference recursion
// (colour_ordered_jamps, one thread, no kernel) and the plain quadratic
// form in long double: |M_h|^2 per helicity and jamp2 per flow.
struct Shares {
  std::vector<long double> helicity, jamp2;
};

Shares reference_shares(const double* p) {
  constexpr int NG = 3;
  const auto& info = process_info(Process::gg_ttg);
  const auto plan = make_current_plan<Kokkos::HostSpace>(NG);
  const ColourMatrix m = colour_matrix(Process::gg_ttg);
  const int n = m.colours;
  Shares shares{std::vector<long double>(info.helicity_combinations), std::vector<long double>(n)};
  for (int h = 0; h < info.helicity_combinations; ++h) {
    const auto w = test::external_waves<NG>(info, p, h);
    cplx<double> jamps[6];
    colour_ordered_jamps<NG>(plan, w.gluons, w.top, w.antitop, TopQuark{}, jamps);
    for (int i = 0; i < n; ++i) {
      const std::complex<long double> a(jamps[i].real(), jamps[i].imag());
      shares.jamp2[i] += std::norm(a);
      for (int k = 0; k < n; ++k) {
        const std::complex<long double> b(jamps[k].real(), jamps[k].imag());
        shares.helicity[h] += (std::conj(a) * static_cast<long double>(m.cf[i * n + k]) * b).real();
      }
    }
  }
  return shares;
}

// Pearson's X^2 of `counts` against `shares` (normalised here) over `draws`,
// bins with a zero share excluded (none may be drawn); its degrees of freedom.
std::pair<double, int> chi_square(const std::vector<long double>& shares,
                                  const std::vector<long double>& counts, double draws) {
  long double total = 0;
  for (const auto s : shares) total += s;
  double x2 = 0;
  int bins = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    if (shares[i] == 0) {
      EXPECT_EQ(counts[i], 0) << "bin " << i << " has a zero share";
      continue;
    }
    const double expected = double(shares[i] / total) * draws;
    x2 += (double(counts[i]) - expected) * (double(counts[i]) - expected) / expected;
    ++bins;
  }
  return {x2, bins - 1};
}

// The 1 - 1e-6 quantile of chi-square with k degrees of freedom
// (Wilson-Hilferty; z = 4.753): with a fixed seed the test is deterministic,
// and a correct sampler fails it with probability 1e-6 per seed.
double chi_square_bound(int k) {
  const double a = 2.0 / (9.0 * k), z = 4.753;
  return k * std::pow(1 - a + z * std::sqrt(a), 3);
}

// 10^5 draws on one gg_ttg event: the chosen helicities follow the
// |M_h|^2 shares and the chosen flows the jamp2 shares, over all flows
// (no igraph, and igraph 0) and over those of a configuration (igraph 2).
TEST(AmplitudeSelection, ChoiceFrequenciesFollowTheShares) {
  SCOPED_TRACE(test::seed_trace());
  const Process process = Process::gg_ttg;
  const auto& info = process_info(process);
  const auto ref = test::read_reference(info, true, 1);
  const Shares shares = reference_shares(ref.momenta.data());
  // (The sanitizer build checks memory, not statistics: 10^4 draws there.)
  constexpr std::size_t draws = HEPEX_SANITIZED_TESTS ? 10000 : 100000;
  std::vector<double> momenta;
  for (std::size_t e = 0; e < draws; ++e)
    momenta.insert(momenta.end(), ref.momenta.begin(), ref.momenta.end());
  std::mt19937_64 rng(test::seed());
  hepex::test::UniformReal unit(0, 1);
  EventInputs inputs;
  for (std::size_t e = 0; e < draws; ++e) {
    inputs.rndhel.push_back(unit(rng));
    inputs.rndcol.push_back(unit(rng));
  }
  MatrixElement me(process);
  const auto all_flows = me.evaluate(momenta, inputs);
  const int configuration = 2;
  inputs.igraph.assign(draws, configuration);
  const auto one_configuration = me.evaluate(momenta, inputs);
  // igraph 0 with other random numbers.
  for (auto& r : inputs.rndcol) r = unit(rng);
  inputs.igraph.assign(draws, 0);
  const auto igraph_zero = me.evaluate(momenta, inputs);

  std::vector<long double> helicity_counts(info.helicity_combinations), flow_counts(6),
      configuration_counts(6), igraph_zero_counts(6);
  for (std::size_t e = 0; e < draws; ++e) {
    ++helicity_counts.at(all_flows.selhel[e] - 1);
    ++flow_counts.at(all_flows.selcol[e] - 1);
    ++configuration_counts.at(one_configuration.selcol[e] - 1);
    ++igraph_zero_counts.at(igraph_zero.selcol[e] - 1);
  }
  const auto table = detail::flow_choice_table(process);
  std::vector<long double> allowed = shares.jamp2;
  for (int flow = 0; flow < 6; ++flow)
    if (!((table.words[configuration - 1] >> flow) & 1)) allowed[flow] = 0;
  for (const auto& [name, expected, counts, n] :
       {std::tuple{"helicity", shares.helicity, helicity_counts, double(draws)},
        std::tuple{"colour, all flows", shares.jamp2, flow_counts, double(draws)},
        std::tuple{"colour, igraph 0", shares.jamp2, igraph_zero_counts, double(draws)},
        std::tuple{"colour, configuration 2", allowed, configuration_counts, double(draws)}}) {
    const auto [x2, dof] = chi_square(expected, counts, n);
    std::cout << "[ gg_ttg ] " << name << ": X^2 = " << x2 << " for " << dof
              << " degrees of freedom (bound " << chi_square_bound(dof) << ")\n";
    EXPECT_LT(x2, chi_square_bound(dof)) << name;
    EXPECT_GT(dof, 0) << name;
  }
}

// Bad inputs are refused before any work, naming the event and the value.
TEST(AmplitudeSelection, InputsAreChecked) {
  const auto& info = process_info(Process::gg_tt);
  const auto ref = test::read_reference(info, true, 4);
  MatrixElement me(Process::gg_tt);
  const auto expect_error = [&](const EventInputs& inputs, const std::string& message) {
    try {
      me.evaluate(ref.momenta, inputs);
      ADD_FAILURE() << "no error for " << message;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  const double nan = std::nan("");
  EventInputs good{{1.2, 1.2, 1.2, 1.2}, {0, 0.5, 0.25, 0.75}, {0.1, 0.2, 0.3, 0.4}, {0, 1, 2, 3}};
  ASSERT_NO_THROW(me.evaluate(ref.momenta, good));
  for (const auto& [field, value, message] :
       {std::tuple{0, nan, "event 2: gs = nan"}, std::tuple{0, 0.0, "event 2: gs = 0"},
        std::tuple{0, -1.2, "event 2: gs = -1.2"},
        std::tuple{0, double(INFINITY), "event 2: gs = inf"},
        std::tuple{1, 1.0, "event 2: rndhel = 1"}, std::tuple{1, -0.1, "event 2: rndhel = -0.1"},
        std::tuple{2, nan, "event 2: rndcol = nan"}, std::tuple{3, 4.0, "event 2: igraph = 4"},
        std::tuple{3, -1.0, "event 2: igraph = -1"}}) {
    EventInputs bad = good;
    if (field == 0) bad.gs[2] = value;
    if (field == 1) bad.rndhel[2] = value;
    if (field == 2) bad.rndcol[2] = value;
    if (field == 3) bad.igraph[2] = static_cast<int>(value);
    expect_error(bad, message);
  }
  EventInputs short_gs = good;
  short_gs.gs.pop_back();
  expect_error(short_gs, "gs: 3 values for 4 events");
  EventInputs igraph_alone;
  igraph_alone.igraph = good.igraph;
  expect_error(igraph_alone, "igraph without rndcol");
}

}  // namespace
}  // namespace hepex::amplitudes
