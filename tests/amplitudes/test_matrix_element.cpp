// The engine against MadGraph's reference MEs (tests/data/madgraph), and its
// input validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "amplitudes/reference_data.hpp"
#include "amplitudes/simd_widths.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/config.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "test_seed.hpp"

namespace hepex::amplitudes {
namespace {

using namespace detail;  // the recursion's internals

using test::events_for;

double max_relative_error(const std::vector<double>& got, const std::vector<double>& want) {
  EXPECT_EQ(got.size(), want.size());
  double worst = 0;
  for (std::size_t e = 0; e < got.size(); ++e)
    worst = std::max(worst, std::fabs(got[e] / want[e] - 1));
  return worst;
}

// Relative tolerance in double against the reference. gg_ttggg: 1e-11, not
// 1e-12, because the reference itself is only that accurate on its most
// cancelling events: the same recursion in long double differs from it by
// 1.0e-11 on on-shell event 38 (our double: 3.8e-12 there, <= 1.7e-12 elsewhere).
double double_tolerance(Process p) { return p == Process::gg_ttggg ? 1e-11 : 1e-12; }

// Relative tolerances of the reduced precisions against the reference.
// Measured worst over the processes (Serial, every SIMD width): mixed 1.6e-7,
// float 3e-5. Mixed's bound is a factor 6 above its error and 30 below
// float's, so a mixed engine that silently computed in float would fail it.
constexpr double mixed_tolerance = 1e-6;
constexpr double float_tolerance = 1e-4;

class AmplitudeReference : public ::testing::TestWithParam<Process> {};

TEST_P(AmplitudeReference, OnShellEventsInDoubleWithAndWithoutWidth) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(info, true, events_for(GetParam(), 768));
  ASSERT_EQ(ref.size(), events_for(GetParam(), 768));

  MatrixElement with_width(GetParam());
  EXPECT_EQ(with_width.good_helicities().size(), std::size_t(info.helicity_combinations));
  const double error = max_relative_error(with_width.evaluate(ref.momenta), ref.me);
  EXPECT_LT(error, double_tolerance(GetParam())) << info.name << " ME";
  std::cout << "[ " << info.name << " ] ME: max relative error " << error << '\n';

  MatrixElementOptions options;
  options.parameters.top_width = 0;
  MatrixElement zero_width(GetParam(), options);
  const double error0 = max_relative_error(zero_width.evaluate(ref.momenta), ref.me_zero_width);
  EXPECT_LT(error0, double_tolerance(GetParam())) << info.name << " ME_WT0";
  std::cout << "[ " << info.name << " ] ME_WT0: max relative error " << error0 << '\n';
}

TEST_P(AmplitudeReference, OnShellEventsInFloatAndMixed) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(
      info, true, events_for(GetParam(), GetParam() == Process::gg_ttggg ? 128 : 768));
  double errors[2] = {};
  for (const Precision precision : {Precision::single_precision, Precision::mixed}) {
    MatrixElementOptions options;
    options.precision = precision;
    MatrixElement me(GetParam(), options);
    const double error = max_relative_error(me.evaluate(ref.momenta), ref.me);
    errors[precision == Precision::mixed] = error;
    EXPECT_LT(error, precision == Precision::mixed ? mixed_tolerance : float_tolerance)
        << info.name << ' ' << precision_name(precision);
    std::cout << "[ " << info.name << " ] " << precision_name(precision) << ": max relative error "
              << error << '\n';
  }
  // Mixed is measurably more accurate than float on the same events: a
  // silent fall-back to float fails here even where float's error is small.
  EXPECT_LT(10 * errors[1], errors[0])
      << info.name << ": mixed " << errors[1] << ", float " << errors[0];
}

TEST_P(AmplitudeReference, BlasColourSumAgrees) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(info, true, events_for(GetParam(), 64));
  MatrixElementOptions options;
  options.colour_sum = ColourSumMethod::blas;
  MatrixElement blas(GetParam(), options);
  MatrixElementOptions none;
  none.simd = Simd::none;
  MatrixElement kernel(GetParam(), none);
  EXPECT_LT(max_relative_error(blas.evaluate(ref.momenta), kernel.evaluate(ref.momenta)), 1e-13);
  EXPECT_LT(max_relative_error(blas.evaluate(ref.momenta), ref.me), double_tolerance(GetParam()));
  options.precision = Precision::mixed;
  EXPECT_THROW(MatrixElement(GetParam(), options), Error);  // BLAS path: double only
}

// The team kernel's shapes and the instances the units are dealt over change
// only the order of operations: several events per team (37 events, so the
// last team is partly empty) and three instances agree with the default.
// The team kernel runs on GPUs, and on the host with the BLAS colour sum.
MatrixElementOptions team_kernel() {
  MatrixElementOptions options;
  if (!has_accelerator) options.colour_sum = ColourSumMethod::blas;
  return options;
}

TEST_P(AmplitudeReference, TeamShapesAndInstancesAgree) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(info, true, events_for(GetParam(), 37));
  MatrixElement standard(GetParam(), team_kernel());
  const auto want = standard.evaluate(ref.momenta);
  for (const int events_per_team : {2, 3}) {
    for (const int streams : {1, 3}) {
      MatrixElementOptions options = team_kernel();
      options.events_per_team = events_per_team;
      options.streams = streams;
      MatrixElement me(GetParam(), options);
      EXPECT_LT(max_relative_error(me.evaluate(ref.momenta), want), 1e-14)
          << info.name << ": " << events_per_team << " events per team, " << streams
          << " instances";
    }
  }
  EXPECT_LT(max_relative_error(want, ref.me), double_tolerance(GetParam()));
}

// The host kernel on every instruction set this build has and this CPU
// supports (none, sse, avx2, avx512; a GPU build: none, its team kernel), in
// every precision (simd_widths.hpp). Measured: double <= 5.9e-12
// (gg_ttggg), mixed <= 1.6e-7, float <= 3e-5.
TEST_P(AmplitudeReference, EverySimdWidthReproducesMadGraph) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(info, true, events_for(GetParam(), 256));
  test::expect_every_simd_width_reproduces(
      GetParam(), ref, {double_tolerance(GetParam()), mixed_tolerance, float_tolerance});
}

// Host momenta (event-major) in a device view, the first `events` events.
MomentaView<MatrixElement::Memory> device_momenta(const ProcessInfo& info,
                                                  const std::vector<double>& momenta,
                                                  std::size_t events) {
  MomentaView<MatrixElement::Memory> device("test_momenta", events, info.particles, 4);
  auto host = Kokkos::create_mirror_view(device);
  for (std::size_t e = 0; e < events; ++e)
    for (int i = 0; i < info.particles; ++i)
      for (int mu = 0; mu < 4; ++mu) host(e, i, mu) = momenta[(e * info.particles + i) * 4 + mu];
  Kokkos::deep_copy(device, host);
  return device;
}

// Three MatrixElements on their own instances (one dealing its units over
// two more), each with two evaluations of different sizes in flight (the
// second replaces the first's buffers), agree with the synchronous API.
TEST_P(AmplitudeReference, EvaluationsInFlightAgree) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(info, true, events_for(GetParam(), 37));
  const std::size_t all = ref.me.size(), first = all / 2 + 1;
  const auto want = MatrixElement(GetParam()).evaluate(ref.momenta);
  const auto instances = compat::partition_instances(DeviceSpace(), 3);
  std::vector<std::unique_ptr<MatrixElement>> engines;
  for (int k = 0; k < 3; ++k) {
    MatrixElementOptions options;
    options.streams = k == 2 ? 2 : 1;
    engines.push_back(std::make_unique<MatrixElement>(GetParam(), options, instances[k]));
  }
  const auto part = device_momenta(info, ref.momenta, first);
  const auto whole = device_momenta(info, ref.momenta, all);
  std::vector<Kokkos::View<double*, MatrixElement::Memory>> values_part, values_whole;
  for (auto& engine : engines) {
    values_part.emplace_back("test_me_part", first);
    values_whole.emplace_back("test_me_whole", all);
    engine->evaluate_async(part, values_part.back());
    engine->evaluate_async(whole, values_whole.back());
  }
  for (int k = 0; k < 3; ++k) {
    engines[k]->fence();
    const auto got_part = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values_part[k]);
    const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values_whole[k]);
    EXPECT_LT(max_relative_error(std::vector<double>(got.data(), got.data() + all), want), 1e-14)
        << info.name << ": engine " << k;
    EXPECT_LT(max_relative_error(std::vector<double>(got_part.data(), got_part.data() + first),
                                 std::vector<double>(want.begin(), want.begin() + first)),
              1e-14)
        << info.name << ": engine " << k << ", first " << first << " events";
  }
}

// MadGraph's test dumps have massless tops (p^2 = 0) with MT = 173 in spinors
// and propagators: a bit-level regression of the HELAS conventions.
TEST_P(AmplitudeReference, MasslessTopDumpsAsRegression) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(
      info, false, events_for(GetParam(), GetParam() == Process::gg_ttggg ? 128 : 512));
  MatrixElement me(GetParam());
  EXPECT_THROW(me.evaluate(ref.momenta), Error);  // off shell
  const double error =
      max_relative_error(me.evaluate(ref.momenta, MomentumCheck::off_shell_allowed), ref.me);
  EXPECT_LT(error, 1e-10) << info.name;
  std::cout << "[ " << info.name << " ] massless-top dump: max relative error " << error << '\n';
}

// The top-line family (the colour-flow family's references: test_colour_flow.cpp).
INSTANTIATE_TEST_SUITE_P(Amplitude, AmplitudeReference,
                         ::testing::ValuesIn(test::family_processes("top_line_gluons")),
                         [](const auto& p) { return std::string(process_info(p.param).name); });

// Boosts along an arbitrary axis and rotates every event: with width 0 the ME
// is Lorentz invariant (with the width it is not quite: the width breaks gauge
// invariance and the polarisation vectors are frame dependent).
std::vector<double> boost_and_rotate(std::vector<double> p, const double beta[3], double angle) {
  const double b2 = beta[0] * beta[0] + beta[1] * beta[1] + beta[2] * beta[2];
  const double gamma = 1 / std::sqrt(1 - b2);
  const double c = std::cos(angle), s = std::sin(angle);
  for (std::size_t i = 0; i < p.size(); i += 4) {
    double* q = &p[i];
    const double bq = beta[0] * q[1] + beta[1] * q[2] + beta[2] * q[3];
    const double e = gamma * (q[0] + bq);
    double v[3];
    for (int k = 0; k < 3; ++k) v[k] = q[k + 1] + ((gamma - 1) * bq / b2 + gamma * q[0]) * beta[k];
    q[0] = e;
    q[1] = c * v[0] - s * v[2];  // rotation about y
    q[2] = v[1];
    q[3] = s * v[0] + c * v[2];
  }
  return p;
}

// Every process, both families, on its reference events. Bound 1e-12 on
// the gluon processes' events (worst 2.7e-13); 1e-11 on pp_tt012j's, where
// event 37 of the six-particle processes changes by 2.5e-12 under this boost
// in both families (the top-line kernel's gg_ttgg on pp_tt012j's gg_ttxgg
// events: 2.50e-12 there too).
TEST(AmplitudeLorentz, ZeroWidthMeIsInvariantUnderBoostsAndRotations) {
  SCOPED_TRACE(test::seed_trace());
  MatrixElementOptions options;
  options.parameters.top_width = 0;
  for (const Process process : all_processes()) {
    const auto& info = process_info(process);
    const auto ref = test::read_reference(info, true, process == Process::gg_ttggg ? 16 : 64);
    MatrixElement me(process, options);
    const double beta[3] = {0.3, -0.2, 0.4};
    const auto moved = boost_and_rotate(ref.momenta, beta, 0.7);
    const double error = max_relative_error(me.evaluate(moved), me.evaluate(ref.momenta));
    const bool quark_events = std::string(detail::process_entry(process).family) == "colour_flow";
    EXPECT_LT(error, quark_events ? 1e-11 : 1e-12) << info.name;
    std::cout << "[ " << info.name << " ] boosted and rotated, width 0: max relative change "
              << error << '\n';
  }
}

TEST(AmplitudeInput, BadMomentaAreRejectedWithAClearMessage) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(Process::gg_ttg);
  const auto good = test::read_reference(info, true, 2).momenta;
  MatrixElement me(Process::gg_ttg);
  EXPECT_EQ(me.evaluate(good).size(), 2u);
  const auto expect_error = [&](std::vector<double> p, const std::string& text) {
    try {
      me.evaluate(p);
      ADD_FAILURE() << "no error for " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
      EXPECT_EQ(e.exit_code(), 1);
    }
  };
  auto p = good;
  p[4 * info.particles + 8 + 1] += 1.0;  // event 1, top px: off shell and not conserved
  expect_error(p, "event 1: particle 3 (t): off shell");
  p = good;
  p[0] += 1e-3;  // event 0, gluon 1 energy: off shell
  expect_error(p, "event 0: particle 1 (g): off shell");
  p = good;
  for (int mu = 0; mu < 4; ++mu) p[16 + mu] *= 1.001;  // event 0, outgoing gluon scaled
  expect_error(p, "momentum not conserved");
  p = good;
  p[5] = std::nan("");
  expect_error(p, "event 0: particle 2 (g): momentum component is not finite");
  // A looser tolerance accepts what the default refuses; the error says which
  // event it is about.
  p = good;
  p[0] += 1e-3;
  EXPECT_EQ(me.evaluate(p, MomentumCheck::on_shell, MomentumTolerance{1e-4, 1e-4}).size(), 2u);
  try {
    check_momenta(info, p.data(), p.size());
    ADD_FAILURE() << "an event off shell by 1e-3 GeV accepted";
  } catch (const MomentumError& e) {
    EXPECT_EQ(e.event(), 0u);
    EXPECT_EQ(e.detail().rfind("particle 1 (g): off shell", 0), 0u) << e.detail();
  }
  p = good;
  p.pop_back();
  expect_error(p, "not a positive multiple of 4 x 5 particles");
  expect_error({}, "not a positive multiple");
}

TEST(AmplitudeInput, OptionsAreValidated) {
  SCOPED_TRACE(test::seed_trace());
  EXPECT_THROW(parse_process("gg_tttt"), Error);
  EXPECT_THROW(parse_precision("half"), Error);
  EXPECT_THROW(parse_colour_sum("gemm"), Error);
  EXPECT_EQ(parse_process("gg_ttgg"), Process::gg_ttgg);
  MatrixElementOptions options;
  options.parameters.top_width = -1;
  EXPECT_THROW(MatrixElement(Process::gg_tt, options), Error);
  for (const auto& [team_size, events_per_team] :
       std::vector<std::pair<int, int>>{{-1, 0}, {0, -2}, {100000, 0}}) {
    MatrixElementOptions shape;
    shape.team_size = team_size;
    shape.events_per_team = events_per_team;
    EXPECT_THROW(MatrixElement(Process::gg_ttg, shape), Error)
        << team_size << ' ' << events_per_team;
  }
}

}  // namespace
}  // namespace hepex::amplitudes
