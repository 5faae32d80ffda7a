#pragma once
// The engine's kernels for NG gluons and one precision: per gluon-helicity
// configuration, one jamp kernel (wavefunctions + Berends-Giele currents,
// colour_ordered.hpp) for its (good) top-helicity combinations and one
// colour-sum kernel, both on one execution-space instance.

#include <algorithm>
#include <memory>
#include <type_traits>
#include <vector>

#include "hepex/amplitudes/colour_ordered.hpp"
#include "hepex/amplitudes/colour_sum.hpp"
#include "hepex/amplitudes/momenta.hpp"
#include "hepex/amplitudes/process.hpp"
#include "hepex/core/error.hpp"
#include "hepex/linalg/vendor_gemm.hpp"

namespace hepex::amplitudes::detail {

// Runs one precision's kernels; the MatrixElement front end picks it at run time.
template <class ExecSpace>
class Evaluator {
 public:
  using Memory = typename ExecSpace::memory_space;
  virtual ~Evaluator() = default;
  // partial(s, e) for s = 0..streams-1 receives the colour-summed |M|^2 of
  // the helicities given to stream s (helicities[k] goes to stream k % streams).
  virtual void run(const std::vector<ExecSpace>& streams, const MomentaView<Memory>& momenta,
                   const std::vector<int>& helicities,
                   const Kokkos::View<double**, Kokkos::LayoutRight, Memory>& partial) = 0;
};

// The helicity combinations that differ only in the top and antitop
// helicities share their gluon currents (and, for equal antitop helicities,
// their fermion currents): a unit of work is one gluon-helicity configuration
// with up to four combinations.
inline constexpr int max_combinations_per_unit = 4;

struct HelicityUnit {
  int count = 0;
  int helicity[max_combinations_per_unit] = {};
};

// Groups `helicities` by their gluon helicities (particles 0, 1, 4, ...).
inline std::vector<HelicityUnit> helicity_units(const std::vector<int>& helicities, int particles) {
  const int top_bits = (1 << (particles - 3)) | (1 << (particles - 4));
  std::vector<int> keys;
  std::vector<HelicityUnit> units;
  for (const int h : helicities) {
    const int key = h & ~top_bits;
    const auto index = std::find(keys.begin(), keys.end(), key) - keys.begin();
    if (index == static_cast<std::ptrdiff_t>(keys.size())) {
      keys.push_back(key);
      units.emplace_back();
    }
    HelicityUnit& unit = units[index];
    unit.helicity[unit.count++] = h;
  }
  // Combinations with the same antitop helicity next to each other: they
  // share the fermion currents too.
  for (auto& unit : units) {
    std::stable_sort(unit.helicity, unit.helicity + unit.count, [&](int a, int b) {
      return amplitudes::helicity(a, 3, particles) < amplitudes::helicity(b, 3, particles);
    });
  }
  return units;
}

template <class ExecSpace, int NG, class AmpReal, class ColourReal>
class EvaluatorOf : public Evaluator<ExecSpace> {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Jamps = Kokkos::View<Kokkos::complex<ColourReal>**, Kokkos::LayoutLeft, Memory>;
  static constexpr int particles = NG + 2;
  static constexpr int colours = Sequences::falling(NG, NG);

  // One event's jamps for the combinations of one unit: combination k of the
  // unit fills jamps(e, k * colours + flow).
  struct JampKernel {
    MomentaView<Memory> momenta;
    CurrentPlan<Memory> plan;
    Jamps jamps;
    HelicityUnit unit;
    double width;

    KOKKOS_INLINE_FUNCTION void operator()(int e) const {
      double p[particles][4];
      for (int i = 0; i < particles; ++i)
        for (int mu = 0; mu < 4; ++mu) p[i][mu] = momenta(e, i, mu);
      Wave<AmpReal> gluons[NG];
      for (int g = 0; g < NG; ++g) {
        const int particle = g < 2 ? g : g + 2;  // g g t tbar g g g
        gluons[g] = vxxxxx<AmpReal>(p[particle],
                                    amplitudes::helicity(unit.helicity[0], particle, particles),
                                    g < 2 ? -1 : 1);
      }
      CurrentScratch<NG, AmpReal> scratch;
      gluon_currents<NG>(plan, gluons, scratch.current);
      const AmpReal mass = AmpReal(top_mass);
      int antitop_helicity = 0;  // of the fermion currents in scratch.psi
      for (int k = 0; k < unit.count; ++k) {
        const int h = unit.helicity[k];
        const auto top = oxxxxx(p[2], mass, amplitudes::helicity(h, 2, particles), 1);
        if (amplitudes::helicity(h, 3, particles) != antitop_helicity) {
          antitop_helicity = amplitudes::helicity(h, 3, particles);
          const auto antitop = ixxxxx(p[3], mass, antitop_helicity, -1);
          fermion_currents<NG>(plan, scratch.current, antitop, width, scratch.psi);
        }
        cplx<AmpReal> amplitude[colours];
        close_on_top<NG>(plan, scratch.current, scratch.psi, top, amplitude);
        for (int c = 0; c < colours; ++c) {
          jamps(e, k * colours + c) = Kokkos::complex<ColourReal>(ColourReal(amplitude[c].real()),
                                                                  ColourReal(amplitude[c].imag()));
        }
      }
    }
  };

  EvaluatorOf(Process process, double width, ColourSumMethod method)
      : plan_(make_current_plan<Memory>(NG)),
        triangle_(packed_colour_triangle<ColourReal, Memory>(colour_matrix(process))),
        width_(width),
        method_(method) {
    if (method_ == ColourSumMethod::blas) {
      if (!std::is_same<ColourReal, double>::value) {
        throw Error("--colour-sum blas needs --precision double");
      }
      cf_ = full_colour_matrix<Memory>(colour_matrix(process));
    }
  }

  void run(const std::vector<ExecSpace>& streams, const MomentaView<Memory>& momenta,
           const std::vector<int>& helicities,
           const Kokkos::View<double**, Kokkos::LayoutRight, Memory>& partial) override {
    const int events = static_cast<int>(momenta.extent(0));
    const int count = static_cast<int>(streams.size());
    constexpr int rows = max_combinations_per_unit * colours;
    if (static_cast<int>(jamps_.size()) != count || jamps_[0].extent(0) != std::size_t(events)) {
      jamps_.clear();
      products_.clear();
      for (int s = 0; s < count; ++s) {
        jamps_.emplace_back(Kokkos::view_alloc(Kokkos::WithoutInitializing, "hepex::jamps"), events,
                            rows);
        if (method_ == ColourSumMethod::blas) {
          products_.emplace_back(
              Kokkos::view_alloc(Kokkos::WithoutInitializing, "hepex::colour_products"), rows,
              2 * events);
        }
      }
    }
    const auto units = helicity_units(helicities, particles);
    for (std::size_t u = 0; u < units.size(); ++u) {
      const int s = static_cast<int>(u % count);
      const Kokkos::RangePolicy<ExecSpace> range(streams[s], 0, events);
      Kokkos::parallel_for("hepex::me_jamps", range,
                           JampKernel{momenta, plan_, jamps_[s], units[u], width_});
      if (method_ == ColourSumMethod::blas) {
        blas_colour_sum(streams[s], jamps_[s], products_[s], units[u].count,
                        Kokkos::subview(partial, s, Kokkos::ALL), u >= std::size_t(count));
      } else {
        Kokkos::parallel_for("hepex::me_colour_sum", range,
                             ColourSumKernel<ColourReal, Memory>{
                                 jamps_[s], triangle_, Kokkos::subview(partial, s, Kokkos::ALL),
                                 units[u].count, colours, u >= std::size_t(count)});
      }
    }
  }

 private:
  // The vendor GEMM runs on the library's own stream, so the stream's jamps
  // are complete before it and the GEMM is waited for after it: the BLAS path
  // serialises the helicity streams around each product.
  void blas_colour_sum(const ExecSpace& stream, const Jamps& jamps,
                       const Kokkos::View<double**, Kokkos::LayoutRight, Memory>& z, int blocks,
                       const Kokkos::View<double*, Memory>& me, bool accumulate) {
    const int events = static_cast<int>(jamps.extent(0));
    const auto* x = reinterpret_cast<const double*>(jamps.data());  // (re, im) pairs
    const Backend where =
        std::is_same<ExecSpace, HostSpace>::value ? Backend::host : Backend::device;
    stream.fence();
    for (int b = 0; b < blocks; ++b) {
      const std::ptrdiff_t offset = std::ptrdiff_t(b) * colours * 2 * events;
      backend::dgemm(where, colours, 2 * events, colours, cf_.data(), colours, x + offset,
                     2 * events, 0.0, z.data() + offset, 2 * events);
    }
    Kokkos::fence();
    using Matrix =
        Kokkos::View<const double**, Kokkos::LayoutRight, Memory, Kokkos::MemoryUnmanaged>;
    Kokkos::parallel_for("hepex::me_colour_dots", Kokkos::RangePolicy<ExecSpace>(stream, 0, events),
                         ColourDotKernel<Memory>{Matrix(x, jamps.extent(1), 2 * events),
                                                 Matrix(z.data(), z.extent(0), 2 * events), me,
                                                 blocks * colours, accumulate});
  }

  CurrentPlan<Memory> plan_;
  Kokkos::View<ColourReal*, Memory> triangle_;
  double width_;
  ColourSumMethod method_;
  Kokkos::View<double*, Memory> cf_;  // CF / d, full, for the BLAS path
  std::vector<Jamps> jamps_;          // one buffer per stream
  std::vector<Kokkos::View<double**, Kokkos::LayoutRight, Memory>> products_;  // BLAS: Z = CF X
};

}  // namespace hepex::amplitudes::detail
