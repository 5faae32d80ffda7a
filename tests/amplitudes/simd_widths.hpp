#pragma once
// One check for every kernel family with a host lane kernel: every SIMD
// width the build and CPU have (simd_supported(); a GPU build has only
// "none", the device kernel) in every precision reproduces MadGraph's MEs
// within the family's tolerance, and batches of 1, W - 1 and W + 1 events
// (partial packs of W lanes) give every event the value it has in the
// whole batch, to the bit: a lane computes its event alone, whatever fills
// the other lanes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iostream>
#include <vector>

#include "amplitudes/reference_data.hpp"
#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/amplitudes/simd.hpp"
#include "hepex/config.hpp"

namespace hepex::test {

struct PrecisionTolerances {
  double double_precision, mixed, single_precision;
  double of(amplitudes::Precision p) const {
    return p == amplitudes::Precision::double_precision ? double_precision
           : p == amplitudes::Precision::mixed          ? mixed
                                                        : single_precision;
  }
};

inline void expect_every_simd_width_reproduces(amplitudes::Process process,
                                               const ReferenceEvents& ref,
                                               const PrecisionTolerances& tolerance) {
  using namespace amplitudes;
  const auto& info = process_info(process);
  const std::size_t values = 4 * std::size_t(info.particles);
  for (const Simd simd : simd_supported()) {
    for (const Precision precision :
         {Precision::double_precision, Precision::mixed, Precision::single_precision}) {
      MatrixElementOptions options;
      options.simd = simd;
      options.precision = precision;
      MatrixElement me(process, options);
      EXPECT_EQ(me.options().simd, simd);
      const int lanes = HEPEX_HAS_ME_LANES ? me.options().events_per_team : 1;
      EXPECT_EQ(lanes, HEPEX_HAS_ME_LANES ? simd_lanes(simd, precision) : 1);
      const auto all = me.evaluate(ref.momenta);
      double error = 0;
      for (std::size_t e = 0; e < all.size() && e < ref.me.size(); ++e)
        error = std::max(error, std::fabs(all[e] / ref.me[e] - 1));
      EXPECT_EQ(all.size(), ref.me.size());
      EXPECT_LT(error, tolerance.of(precision))
          << info.name << ' ' << simd_name(simd) << ' ' << precision_name(precision);
      std::cout << "[ " << info.name << " ] simd " << simd_name(simd) << " (" << lanes
                << " lanes), " << precision_name(precision) << ": max relative error " << error
                << '\n';
      for (const int n : {1, lanes - 1, lanes + 1}) {
        if (n < 1) continue;
        for (const std::size_t first : {std::size_t(0), std::size_t(5)}) {
          ASSERT_LE(first + n, ref.size()) << info.name << ": too few reference events";
          const std::vector<double> part(ref.momenta.begin() + first * values,
                                         ref.momenta.begin() + (first + n) * values);
          const auto got = me.evaluate(part);
          for (int e = 0; e < n; ++e) {
            EXPECT_EQ(got[e], all[first + e])
                << info.name << ' ' << simd_name(simd) << ' ' << precision_name(precision)
                << ": event " << first + e << " in a batch of " << n;
          }
        }
      }
    }
  }
}

}  // namespace hepex::test
