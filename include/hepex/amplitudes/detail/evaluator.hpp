#pragma once
// The engine's kernels for NG gluons and one precision: per helicity, one
// jamp kernel (wavefunctions + Berends-Giele currents, colour_ordered.hpp)
// and one colour-sum kernel, both on that helicity's execution-space instance.

#include <memory>
#include <vector>

#include "hepex/amplitudes/colour_ordered.hpp"
#include "hepex/amplitudes/colour_sum.hpp"
#include "hepex/amplitudes/momenta.hpp"
#include "hepex/amplitudes/process.hpp"

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

template <class ExecSpace, int NG, class AmpReal, class ColourReal>
class EvaluatorOf : public Evaluator<ExecSpace> {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Jamps = Kokkos::View<Kokkos::complex<ColourReal>**, Kokkos::LayoutLeft, Memory>;
  static constexpr int particles = NG + 2;
  static constexpr int colours = Sequences::falling(NG, NG);

  // One event's jamps for helicity combination `helicity`.
  struct JampKernel {
    MomentaView<Memory> momenta;
    CurrentPlan<Memory> plan;
    Jamps jamps;
    int helicity;
    double width;

    KOKKOS_INLINE_FUNCTION void operator()(int e) const {
      double p[particles][4];
      for (int i = 0; i < particles; ++i)
        for (int mu = 0; mu < 4; ++mu) p[i][mu] = momenta(e, i, mu);
      Wave<AmpReal> gluons[NG];
      for (int g = 0; g < NG; ++g) {
        const int particle = g < 2 ? g : g + 2;  // g g t tbar g g g
        gluons[g] = vxxxxx<AmpReal>(
            p[particle], amplitudes::helicity(helicity, particle, particles), g < 2 ? -1 : 1);
      }
      const AmpReal mass = AmpReal(top_mass);
      const auto top = oxxxxx(p[2], mass, amplitudes::helicity(helicity, 2, particles), 1);
      const auto antitop = ixxxxx(p[3], mass, amplitudes::helicity(helicity, 3, particles), -1);
      cplx<AmpReal> amplitude[colours];
      colour_ordered_jamps<NG>(plan, gluons, top, antitop, width, amplitude);
      for (int k = 0; k < colours; ++k) {
        jamps(e, k) = Kokkos::complex<ColourReal>(ColourReal(amplitude[k].real()),
                                                  ColourReal(amplitude[k].imag()));
      }
    }
  };

  EvaluatorOf(Process process, double width)
      : plan_(make_current_plan<Memory>(NG)),
        triangle_(packed_colour_triangle<ColourReal, Memory>(colour_matrix(process))),
        width_(width) {}

  void run(const std::vector<ExecSpace>& streams, const MomentaView<Memory>& momenta,
           const std::vector<int>& helicities,
           const Kokkos::View<double**, Kokkos::LayoutRight, Memory>& partial) override {
    const int events = static_cast<int>(momenta.extent(0));
    const int count = static_cast<int>(streams.size());
    if (static_cast<int>(jamps_.size()) != count || jamps_[0].extent(0) != std::size_t(events)) {
      jamps_.clear();
      for (int s = 0; s < count; ++s) jamps_.emplace_back("hepex::jamps", events, colours);
    }
    for (std::size_t k = 0; k < helicities.size(); ++k) {
      const int s = static_cast<int>(k % count);
      const Jamps& jamps = jamps_[s];
      const Kokkos::RangePolicy<ExecSpace> range(streams[s], 0, events);
      Kokkos::parallel_for("hepex::me_jamps", range,
                           JampKernel{momenta, plan_, jamps, helicities[k], width_});
      Kokkos::parallel_for(
          "hepex::me_colour_sum", range,
          ColourSumKernel<ColourReal, Memory>{
              jamps, triangle_, Kokkos::subview(partial, s, Kokkos::ALL), k >= std::size_t(count)});
    }
  }

 private:
  CurrentPlan<Memory> plan_;
  Kokkos::View<ColourReal*, Memory> triangle_;
  double width_;
  std::vector<Jamps> jamps_;  // one buffer per stream
};

}  // namespace hepex::amplitudes::detail
