// The colour-flow family (every subprocess of p p -> t t~ + 0..2 jets with
// quarks, detail/colour_flow_recursion.hpp) against MadGraph's reference MEs
// of madgraph4gpu's pp_tt012j.mad (tests/data/madgraph/pp_tt012j), MadGraph's
// colour matrices against explicit SU(3) sums over its colour basis, and the
// symmetries of identical particles; the host lane kernel at every SIMD
// width and the portable kernel called directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <fstream>
#include <numeric>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "amplitudes/reference_data.hpp"
#include "amplitudes/simd_widths.hpp"
#include "hepex/amplitudes/detail/colour_flow_evaluators.hpp"
#include "hepex/amplitudes/detail/colour_flow_recursion.hpp"
#include "hepex/amplitudes/detail/generated/colour_flow.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/config.hpp"
#include "hepex/core/error.hpp"
#include "test_seed.hpp"

namespace hepex::amplitudes {
namespace {

using namespace detail;

std::vector<Process> colour_flow_processes() { return test::family_processes("colour_flow"); }

// At most `all` events of the process; fewer in the sanitizer build (test::events_for).
std::size_t events_for(Process process, std::size_t all) { return test::events_for(process, all); }

// The largest |got / want - 1|; infinite where that is not a number (0 / 0),
// so that a comparison of zeros cannot pass.
double max_relative_error(const std::vector<double>& got, const std::vector<double>& want) {
  EXPECT_EQ(got.size(), want.size());
  double worst = 0;
  for (std::size_t e = 0; e < got.size() && e < want.size(); ++e) {
    const double error = std::fabs(got[e] / want[e] - 1);
    worst = std::isnan(error) ? HUGE_VAL : std::max(worst, error);
  }
  return worst;
}

// Measured worst over the 15 processes of pp_tt012j, 768 events each: double
// 2.5e-13, mixed 1.4e-7, float 2.3e-4. Float's worst is one event (339 of the
// 1500 GeV set) on which every six-particle process loses that much, the
// top-line family's float kernel too (gg_ttgg on pp_tt012j's gg_ttxgg events:
// 2.29e-4 there, <= 3.2e-5 elsewhere); the 3-jet subprocesses' (pp_tt3j):
// double 1.1e-13, mixed 9.8e-8, float 2.06e-3 on one event
// (test::colour_flow_float_tolerance says which). The bounds are 4x the
// worst, and mixed must be measurably better than float.
constexpr double double_tolerance = 1e-12;
constexpr double mixed_tolerance = 1e-6;

class ColourFlowReference : public ::testing::TestWithParam<Process> {};

TEST_P(ColourFlowReference, OnShellEventsInEveryPrecision) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(info, true, events_for(GetParam(), 768));
  ASSERT_EQ(ref.size(), events_for(GetParam(), 768));
  MatrixElement exact(GetParam());
  const double error = max_relative_error(exact.evaluate(ref.momenta), ref.me);
  EXPECT_LT(error, double_tolerance) << info.name;
  std::cout << "[ " << info.name << " ] double: max relative error " << error << '\n';
  double errors[2] = {};
  for (const Precision precision : {Precision::single_precision, Precision::mixed}) {
    MatrixElementOptions options;
    options.precision = precision;
    MatrixElement me(GetParam(), options);
    errors[precision == Precision::mixed] = max_relative_error(me.evaluate(ref.momenta), ref.me);
    std::cout << "[ " << info.name << " ] " << precision_name(precision) << ": max relative error "
              << errors[precision == Precision::mixed] << '\n';
  }
  EXPECT_LT(errors[1], mixed_tolerance) << info.name << " mixed";
  EXPECT_LT(errors[0], test::colour_flow_float_tolerance(info)) << info.name << " float";
  EXPECT_LT(10 * errors[1], errors[0])
      << info.name << ": mixed " << errors[1] << ", float " << errors[0];
}

// The plan executed on the host by one thread, without Kokkos (in a GPU
// build the engine above runs on the device only): every helicity's
// colour-summed |M|^2 is >= 0 and the sum over helicities is MadGraph's.
// Each combination's currents are formed in full; the same combinations in
// a random order (seeded), keeping the currents of the previous one where
// their particles kept their helicities (colour_flow_jamps' `changed`, as
// the kernels call it) and summing the jamps in registers (add_to_jamp),
// give the same jamps to the bit; so does the plan written out as code
// (ColourFlow<P>::jamps, generated/<process>_flow_code.hpp), which the
// kernels run, in the same order, and its pass over both helicities of the
// closing top at once (ColourFlow<P>::top_pair_jamps).
// The event's momenta and a helicity combination, as colour_flow_jamps reads
// them (functors callable on host and device, as the function is).
struct EventMomenta {
  const double* p;
  KOKKOS_INLINE_FUNCTION double operator()(int part, int mu) const { return p[4 * part + mu]; }
};
struct CombinationHelicities {
  const int* h;
  KOKKOS_INLINE_FUNCTION int operator()(int part) const { return h[part]; }
};

// exchanged_top_pair_jamps against the executor: the largest difference of a jamp
// relative to the largest jamp of its combination, over the events (measured
// on the reference events of uu_ttxuu and uxux_ttxuxux: 8.0e-15 and 9.5e-15,
// printed by the test).
constexpr double exchanged_tolerance = 5e-14;

template <Process P>
std::vector<double> host_recursion(const test::ReferenceEvents& ref) {
  double worst_exchanged = 0;
  using Flow = generated::ColourFlow<P>;
  const auto& info = process_info(P);
  const ColourFlowPlan plan = Flow::plan();
  const ColourMatrix m = colour_matrix(P);
  std::vector<double> result;
  std::mt19937_64 random(test::seed());
  std::vector<int> order(info.helicity_combinations);
  std::vector<std::array<cplx<double>, Flow::colours>> full(info.helicity_combinations);
  for (std::size_t e = 0; e < ref.size(); ++e) {
    ColourFlowEvent<double, Flow::particles, Flow::nodes> event;
    prepare_colour_flow_event(plan, EventMomenta{&ref.momenta[e * 4 * info.particles]}, TopQuark{},
                              event);
    double sum = 0;
    for (int h = 0; h < info.helicity_combinations; ++h) {
      int combination[Flow::particles];
      for (int part = 0; part < info.particles; ++part) combination[part] = helicity(info, h, part);
      cplx<double> value[4 * Flow::nodes];
      cplx<double>* jamps = full[h].data();
      colour_flow_jamps(plan, event, CombinationHelicities{combination}, all_particles_changed,
                        TopQuark{}, Flow::colours, value, jamps);
      double hel = 0;
      for (int i = 0; i < m.colours; ++i)
        for (int k = 0; k < m.colours; ++k) {
          const std::complex<double> a(jamps[i].re, jamps[i].im), b(jamps[k].re, jamps[k].im);
          hel += (std::conj(a) * double(m.cf[i * m.colours + k]) * b).real();
        }
      EXPECT_GE(hel, -1e-12 * std::fabs(hel)) << info.name << " event " << e << " helicity " << h;
      sum += hel / m.denominator;
    }
    result.push_back(sum / info.averaging);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), random);
    cplx<double> kept[4 * Flow::nodes], jamps[Flow::colours];
    cplx<double> code_kept[4 * Flow::nodes], code_jamps[Flow::colours];
    for (std::size_t k = 0; k < order.size(); ++k) {
      const int h = order[k];
      int combination[Flow::particles];
      for (int part = 0; part < info.particles; ++part) combination[part] = helicity(info, h, part);
      const unsigned changed =
          k == 0 ? all_particles_changed : changed_particles(h, order[k - 1], info.particles);
      colour_flow_jamps<Flow::colours>(plan, event, CombinationHelicities{combination}, changed,
                                       TopQuark{}, Flow::colours, kept, jamps);
      Flow::jamps(event, CombinationHelicities{combination}, changed, TopQuark{}, code_kept,
                  code_jamps);
      for (int c = 0; c < Flow::colours; ++c) {
        EXPECT_TRUE(jamps[c].re == full[h][c].re && jamps[c].im == full[h][c].im)
            << info.name << " event " << e << " helicity " << h << " after "
            << (k > 0 ? order[k - 1] : -1) << ", jamp " << c;
        EXPECT_TRUE(code_jamps[c].re == full[h][c].re && code_jamps[c].im == full[h][c].im)
            << info.name << " event " << e << " helicity " << h << " after "
            << (k > 0 ? order[k - 1] : -1) << ", jamp " << c << ": the plan as code "
            << code_jamps[c].re << " + i " << code_jamps[c].im << ", executed " << full[h][c].re
            << " + i " << full[h][c].im;
      }
    }
    // A plan too large to be written out as code (has_code false: the 3-jet
    // subprocesses) has no such pass; its kernels execute the tables.
    if constexpr (Flow::has_code) {
      // Both helicities of the closing top at once (Flow::top_pair_jamps, the
      // portable kernel's pass for small plans, colour_flow_top_pairs.hpp):
      // each jamp to the bit.
      const int a_bit = 1 << (info.particles - 1 - Flow::antitop);
      const int c_bit = 1 << (info.particles - 1 - plan.closing);
      for (int light = 0; light < info.helicity_combinations; ++light) {
        if ((light & (a_bit | c_bit)) != 0) continue;
        int combination[Flow::particles];
        for (int part = 0; part < info.particles; ++part)
          combination[part] = helicity(info, light, part);
        const int top[2] = {helicity(info, light, plan.closing),
                            helicity(info, light | c_bit, plan.closing)};
        const int antitops[2] = {helicity(info, light, Flow::antitop),
                                 helicity(info, light | a_bit, Flow::antitop)};
        const EventMomenta momenta{&ref.momenta[e * 4 * info.particles]};
        // Each antitop helicity alone and both at once (the kernel asks for
        // those with a good combination): every one asked for once, no other.
        for (unsigned wanted = 1; wanted < 4; ++wanted) {
          unsigned sunk = 0;
          Flow::template top_pair_jamps<double>(
              momenta, combination, antitops, wanted, top, TopQuark{},
              [&](int a, const cplx<double>(*pairs)[Flow::colours]) {
                EXPECT_EQ(sunk >> a & 1, 0u) << info.name << ": antitop helicity " << a << " twice";
                sunk |= 1u << a;
                for (int t = 0; t < 2; ++t) {
                  const int h = light | (a ? a_bit : 0) | (t ? c_bit : 0);
                  for (int c = 0; c < Flow::colours; ++c) {
                    EXPECT_TRUE(pairs[t][c].re == full[h][c].re && pairs[t][c].im == full[h][c].im)
                        << info.name << " event " << e << " helicity " << h << ", jamp " << c
                        << ": both tops at once " << pairs[t][c].re << " + i " << pairs[t][c].im
                        << ", executed " << full[h][c].re << " + i " << full[h][c].im;
                  }
                }
              });
          EXPECT_EQ(sunk, wanted) << info.name << " event " << e << " light " << light;
          // The GPU pass of a process with two identical quarks: its partner's
          // pass twice (exchanged_top_pair_jamps), each jamp to rounding,
          // relative to the largest jamp of the combination (exactly zero where
          // all are).
          if constexpr (Flow::exchanged) {
            unsigned exchanged_sunk = 0;
            exchanged_top_pair_jamps<Flow, generated::ColourFlow<Flow::partner>, double>(
                momenta, combination, antitops, wanted, top, TopQuark{},
                [&](int a, const cplx<double>(*exchanged)[Flow::colours]) {
                  exchanged_sunk |= 1u << a;
                  for (int t = 0; t < 2; ++t) {
                    const int h = light | (a ? a_bit : 0) | (t ? c_bit : 0);
                    double largest = 0;
                    for (int c = 0; c < Flow::colours; ++c)
                      largest = std::max(largest, std::hypot(full[h][c].re, full[h][c].im));
                    for (int c = 0; c < Flow::colours; ++c) {
                      const double difference = std::hypot(exchanged[t][c].re - full[h][c].re,
                                                           exchanged[t][c].im - full[h][c].im);
                      worst_exchanged = std::max(worst_exchanged, difference / largest);
                      EXPECT_LE(difference, exchanged_tolerance * largest)
                          << info.name << " event " << e << " helicity " << h << ", jamp " << c
                          << ": the partner's pass twice " << exchanged[t][c].re << " + i "
                          << exchanged[t][c].im << ", executed " << full[h][c].re << " + i "
                          << full[h][c].im;
                    }
                  }
                });
            EXPECT_EQ(exchanged_sunk, wanted) << info.name << " event " << e << " light " << light;
          }
        }
      }
    }
  }
  if constexpr (generated::ColourFlow<P>::exchanged)
    std::cout << "[ " << info.name << " ] the partner's pass twice: largest difference "
              << worst_exchanged << " of the largest jamp\n";
  return result;
}

// 0, 1, ... for generated::colour_flow_processes, to dispatch a process to
// the template instantiated for it.
using FamilyIndices = std::make_index_sequence<std::size(generated::colour_flow_processes)>;

template <std::size_t... I>
std::vector<double> host_recursion_of(Process process, const test::ReferenceEvents& ref,
                                      std::index_sequence<I...>) {
  using generated::colour_flow_processes;
  std::vector<double> result;
  ((colour_flow_processes[I] == process
        ? (result = host_recursion<colour_flow_processes[I]>(ref), 0)
        : 0),
   ...);
  return result;
}

TEST_P(ColourFlowReference, HostRecursionOfOneThreadAgrees) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(info, true, events_for(GetParam(), 256));
  const auto got = host_recursion_of(GetParam(), ref, FamilyIndices());
  const double error = max_relative_error(got, ref.me);
  EXPECT_LT(error, double_tolerance) << info.name;
  std::cout << "[ " << info.name << " ] one host thread: max relative error " << error << '\n';
}

// Every SIMD width the build and CPU have (the host lane kernel,
// colour_flow_lane_kernel.hpp; a GPU build has only "none", the device
// kernel) in every precision reproduces MadGraph, partial packs to the bit
// (simd_widths.hpp).
TEST_P(ColourFlowReference, EverySimdWidthReproducesMadGraph) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(info, true, events_for(GetParam(), 256));
  test::expect_every_simd_width_reproduces(
      GetParam(), ref,
      {double_tolerance, mixed_tolerance, test::colour_flow_float_tolerance(info)});
}

// The portable kernel (one thread per event, colour_flow_evaluators.hpp) on
// the build's execution space, called directly: in a CPU build the engine
// runs the lane kernel instead, so this is where the portable kernel meets
// MadGraph on the host (every helicity combination, unweighted).
template <Process P>
std::vector<double> portable_kernel(const test::ReferenceEvents& ref, std::vector<int> good = {}) {
  using Memory = DeviceSpace::memory_space;
  const auto& info = process_info(P);
  const std::size_t events = ref.size();
  MomentaView<Memory> momenta("momenta", events, info.particles, 4);
  auto host = Kokkos::create_mirror_view(momenta);
  for (std::size_t e = 0; e < events; ++e)
    for (int part = 0; part < info.particles; ++part)
      for (int mu = 0; mu < 4; ++mu)
        host(e, part, mu) = ref.momenta[(e * info.particles + part) * 4 + mu];
  Kokkos::deep_copy(momenta, host);
  if (good.empty()) {
    good.resize(info.helicity_combinations);
    std::iota(good.begin(), good.end(), 0);
  }
  Kokkos::View<double*, Memory> me("me", events);
  ColourFlowEvaluator<DeviceSpace, P, double, double> kernel(TopQuark{}, info.coupling_power);
  kernel.run({DeviceSpace()}, momenta, good, me, info.averaging, {});
  DeviceSpace().fence();
  auto result = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), me);
  return std::vector<double>(result.data(), result.data() + events);
}

template <std::size_t... I>
std::vector<double> portable_kernel_of(Process process, const test::ReferenceEvents& ref,
                                       std::index_sequence<I...>,
                                       const std::vector<int>& good = {}) {
  using generated::colour_flow_processes;
  std::vector<double> result;
  ((colour_flow_processes[I] == process
        ? (result = portable_kernel<colour_flow_processes[I]>(ref, good), 0)
        : 0),
   ...);
  return result;
}

TEST_P(ColourFlowReference, PortableKernelReproducesMadGraph) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(info, true, events_for(GetParam(), 256));
  const auto got = portable_kernel_of(GetParam(), ref, FamilyIndices());
  const double error = max_relative_error(got, ref.me);
  EXPECT_LT(error, double_tolerance) << info.name;
  std::cout << "[ " << info.name << " ] portable kernel on " << DeviceSpace::name()
            << ": max relative error " << error << '\n';
}

// The portable kernel on a random subset of the combinations in a random
// order (seeded; the good helicities MadGraph's filter leaves, in the
// caller's order): its sum equals the sum of its results on each
// combination alone, so that its helicity order (colour_flow_helicity_order)
// and the currents it keeps between combinations lose or repeat none
// (measured worst 6.7e-16 relative; a combination lost or counted twice
// changes it by percents).
TEST_P(ColourFlowReference, PortableKernelSumsAnySubsetOfHelicities) {
  SCOPED_TRACE(test::seed_trace());
  const auto& info = process_info(GetParam());
  const auto ref = test::read_reference(info, true, events_for(GetParam(), 64));
  std::mt19937_64 random(test::seed() + static_cast<unsigned>(GetParam()));
  std::vector<int> good;
  for (int h = 0; h < info.helicity_combinations; ++h)
    if (random() % 2) good.push_back(h);
  std::shuffle(good.begin(), good.end(), random);
  ASSERT_FALSE(good.empty());
  const auto got = portable_kernel_of(GetParam(), ref, FamilyIndices(), good);
  std::vector<double> want(ref.size(), 0.0);
  for (const int h : good) {
    const auto alone = portable_kernel_of(GetParam(), ref, FamilyIndices(), {h});
    for (std::size_t e = 0; e < ref.size(); ++e) want[e] += alone[e];
  }
  // Some combination of the subset does not vanish on each event, so that
  // the sums compared are not zeros.
  for (std::size_t e = 0; e < ref.size(); ++e) ASSERT_GT(want[e], 0) << info.name << " event " << e;
  const double error = max_relative_error(got, want);
  EXPECT_LT(error, 4e-15) << info.name << ": " << good.size() << " combinations";
  std::cout << "[ " << info.name << " ] " << good.size()
            << " combinations in a random order: max relative difference " << error << '\n';
}

INSTANTIATE_TEST_SUITE_P(Processes, ColourFlowReference,
                         ::testing::ValuesIn(colour_flow_processes()),
                         [](const auto& p) { return std::string(process_info(p.param).name); });

// Identical particles: swapping the momenta of two identical incoming or two
// identical outgoing particles leaves |M|^2 unchanged (Bose symmetry of the
// gluons; Fermi antisymmetry of the quarks, which the recursion builds in by
// the sign of each pairing of quark lines, colour_flow_plan.py). Twelve such
// pairs in the family: g g of gg_ttxuux, g g of uux_ttxgg, the two incoming
// and the two outgoing quarks of uu_ttxuu and of uxux_ttxuxux, and of the
// 3-jet subprocesses the three outgoing gluons of uux_ttxggg (three pairs),
// the two of gu_ttxggu and gux_ttxggux and the incoming ones of gg_ttxguux;
// measured worst change 7.8e-15, bound 1e-13 (a wrong sign changes O(1)).
TEST(ColourFlow, SymmetricUnderIdenticalParticles) {
  SCOPED_TRACE(test::seed_trace());
  int swaps = 0;
  for (const Process process : colour_flow_processes()) {
    const auto& info = process_info(process);
    const auto ref = test::read_reference(info, true, events_for(process, 128));
    MatrixElement me(process);
    const auto plain = me.evaluate(ref.momenta);
    for (int a = 0; a < info.particles; ++a) {
      for (int b = a + 1; b < info.particles; ++b) {
        if (info.pdg[a] != info.pdg[b] || (a < 2) != (b < 2)) continue;
        auto swapped = ref.momenta;
        for (std::size_t e = 0; e < ref.size(); ++e)
          for (int mu = 0; mu < 4; ++mu)
            std::swap(swapped[(e * info.particles + a) * 4 + mu],
                      swapped[(e * info.particles + b) * 4 + mu]);
        const double change = max_relative_error(me.evaluate(swapped), plain);
        EXPECT_LT(change, 1e-13) << info.name << ": particles " << a + 1 << " and " << b + 1;
        std::cout << "[ " << info.name << " ] particles " << a + 1 << " and " << b + 1
                  << " swapped: max relative change " << change << '\n';
        ++swaps;
      }
    }
  }
  EXPECT_EQ(swaps, 12);
}

// ------------------------------------------------- colour matrices, by hand

// The Gell-Mann matrices / 2: T^a, Tr(T^a T^b) = delta^ab / 2.
using C = std::complex<double>;
using Matrix3 = std::array<std::array<C, 3>, 3>;
std::array<Matrix3, 8> generators() {
  std::array<Matrix3, 8> t{};
  const C i(0, 1), half(0.5, 0);
  t[0][0][1] = t[0][1][0] = half;
  t[1][0][1] = -i * 0.5;
  t[1][1][0] = i * 0.5;
  t[2][0][0] = half;
  t[2][1][1] = -half;
  t[3][0][2] = t[3][2][0] = half;
  t[4][0][2] = -i * 0.5;
  t[4][2][0] = i * 0.5;
  t[5][1][2] = t[5][2][1] = half;
  t[6][1][2] = -i * 0.5;
  t[6][2][1] = i * 0.5;
  const double s = 1 / (2 * std::sqrt(3.0));
  t[7][0][0] = t[7][1][1] = s;
  t[7][2][2] = -2 * s;
  return t;
}

// MadGraph's colour basis of a process (pp_tt012j/<name>_colourbasis.txt):
// per flow its strings, each the labels a1 ... ak i j (0-based particles).
std::vector<std::vector<std::vector<int>>> read_basis(const ProcessInfo& info) {
  std::ifstream in(test::process_file(info, "_colourbasis.txt"));
  EXPECT_TRUE(in) << info.name;
  std::vector<std::vector<std::vector<int>>> basis;
  std::string line;
  const std::regex string_pattern(R"(T\(([0-9,]+)\))");
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::vector<int>> strings;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), string_pattern);
         it != std::sregex_iterator(); ++it) {
      std::vector<int> labels;
      std::stringstream fields((*it)[1].str());
      std::string label;
      while (std::getline(fields, label, ',')) labels.push_back(std::stoi(label) - 1);
      strings.push_back(labels);
    }
    basis.push_back(strings);
  }
  return basis;
}

// CF_ij / denominator = sum over all colours of conj(C_i) C_j, C_i the
// product of strings (T^a1 ... T^ak)_{i j}, by brute force over the colour
// indices (3 per quark, 8 per gluon): an oracle independent of the plan.
TEST(ColourFlow, MatricesAreExplicitSumsOverMadGraphsBasis) {
  const auto t = generators();
  for (const Process process : colour_flow_processes()) {
    const auto& info = process_info(process);
    const auto basis = read_basis(info);
    const ColourMatrix m = colour_matrix(process);
    ASSERT_EQ(basis.size(), std::size_t(m.colours)) << info.name;
    std::vector<int> range(info.particles);
    int assignments = 1;
    for (int x = 0; x < info.particles; ++x) {
      range[x] = info.pdg[x] == 21 ? 8 : 3;
      assignments *= range[x];
    }
    std::vector<double> cf(m.colours * m.colours, 0.0);
    std::vector<C> value(m.colours);
    std::vector<int> colour(info.particles);
    for (int n = 0; n < assignments; ++n) {
      for (int x = 0, rest = n; x < info.particles; ++x, rest /= range[x - 1]) {
        colour[x] = rest % range[x];
      }
      for (int f = 0; f < m.colours; ++f) {
        C product = 1;
        for (const auto& labels : basis[f]) {
          // (T^a1 ... T^ak)_{i j}: a row vector e_i times the matrices.
          std::array<C, 3> row{};
          row[colour[labels[labels.size() - 2]]] = 1;
          for (std::size_t g = 0; g + 2 < labels.size(); ++g) {
            const Matrix3& tg = t[colour[labels[g]]];
            std::array<C, 3> next{};
            for (int a = 0; a < 3; ++a)
              for (int b = 0; b < 3; ++b) next[b] += row[a] * tg[a][b];
            row = next;
          }
          product *= row[colour[labels.back()]];
        }
        value[f] = product;
      }
      for (int i = 0; i < m.colours; ++i)
        for (int k = 0; k < m.colours; ++k)
          cf[i * m.colours + k] += (std::conj(value[i]) * value[k]).real();
    }
    double worst = 0;
    for (int i = 0; i < m.colours * m.colours; ++i) {
      worst = std::max(worst, std::fabs(cf[i] - double(m.cf[i]) / m.denominator));
    }
    EXPECT_LT(worst, 1e-12) << info.name;
  }
}

// ------------------------------------------------- what the family refuses

TEST(ColourFlow, RefusesWhatItCannotDo) {
  MatrixElementOptions blas;
  blas.colour_sum = ColourSumMethod::blas;
  try {
    MatrixElement me(Process::uux_ttx, blas);
    FAIL() << "the BLAS colour sum was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("BLAS"), std::string::npos) << e.what();
    EXPECT_EQ(e.kind(), ErrorKind::invalid_input) << "a usage error: exit 1";
  }
  // A light quark off its mass shell, named as MadGraph names the leg.
  const auto& info = process_info(Process::uux_ttx);
  auto ref = test::read_reference(info, true, 2);
  ref.momenta[0] += 1;  // E of the incoming u of event 0
  MatrixElement me(Process::uux_ttx);
  try {
    me.evaluate(ref.momenta);
    FAIL() << "an off-shell u was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("particle 1 (u): off shell"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(parse_process("gg_ttx"), Process::gg_tt);
  EXPECT_EQ(parse_process("gg_ttxggg"), Process::gg_ttggg);
  EXPECT_THROW(parse_process("gg_ttxh"), Error);
}

}  // namespace
}  // namespace hepex::amplitudes
