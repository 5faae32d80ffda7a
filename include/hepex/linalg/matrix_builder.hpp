#pragma once
// Building the system matrix of an ansatz fit on the device (Linac section
// 3.3): for sample points s (values of the basis variables) and monomials m
// (lists of variable indices, a repeated index being a power),
//   A(s, m) = prefactor(s) * prod_{d} samples(s, monomial(m, d)),
// over any hepex field. Monomials of different degrees are padded with -1
// (the unit) into one index table.

#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/spaces.hpp"

namespace hepex::linalg {

namespace detail {
template <class F, class ExecSpace>
struct EvaluateMonomials {
  using T = typename F::value_type;
  using memory_space = typename ExecSpace::memory_space;
  F f;
  Kokkos::View<const T**, Kokkos::LayoutRight, memory_space> samples;    // S x V
  Kokkos::View<const int**, Kokkos::LayoutRight, memory_space> indices;  // M x D, -1 = none
  Kokkos::View<const T*, memory_space> prefactors;                       // S, or empty
  Kokkos::View<T**, Kokkos::LayoutRight, memory_space> out;              // S x M

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t monomials = out.extent(1);
    const std::size_t s = flat / monomials, m = flat % monomials;
    T value = prefactors.extent(0) ? prefactors(s) : f.one();
    for (std::size_t d = 0; d < indices.extent(1); ++d) {
      const int v = indices(m, d);
      if (v >= 0) value = f.mul(value, samples(s, v));
    }
    out(s, m) = value;
  }
};
}  // namespace detail

// Device API: one system. `indices` is the padded monomial table (M x D).
template <class ExecSpace, class F>
DeviceMatrix<typename F::value_type, typename ExecSpace::memory_space> build_matrix(
    const ExecSpace& space, const F& field,
    const Kokkos::View<const typename F::value_type**, Kokkos::LayoutRight,
                       typename ExecSpace::memory_space>& samples,
    const Kokkos::View<const int**, Kokkos::LayoutRight, typename ExecSpace::memory_space>& indices,
    const Kokkos::View<const typename F::value_type*, typename ExecSpace::memory_space>&
        prefactors) {
  const KokkosLock lock;
  if (prefactors.extent(0) != 0 && prefactors.extent(0) != samples.extent(0)) {
    throw Error("build_matrix: " + std::to_string(prefactors.extent(0)) + " prefactors for " +
                std::to_string(samples.extent(0)) + " samples");
  }
  DeviceMatrix<typename F::value_type, typename ExecSpace::memory_space> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hepex::system_matrix")),
      samples.extent(0), indices.extent(0));
  const detail::EvaluateMonomials<F, ExecSpace> kernel{field, samples, indices, prefactors, out};
  Kokkos::parallel_for("hepex::build_matrix",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                           space, 0, static_cast<std::int64_t>(out.extent(0) * out.extent(1))),
                       kernel);
  return out;
}

// One ansatz: its monomials (each a list of variable indices; {} is the
// constant 1, {0, 0, 2} is x0^2 x2) and optional per-sample prefactors
// (e.g. inverse denominators; empty means 1).
template <class T>
struct AnsatzSystem {
  std::vector<std::vector<int>> monomials;
  std::vector<T> prefactors;
};

// Host API: several systems over the same samples (S x V), one matrix each.
template <class F>
std::vector<Matrix<typename F::value_type>> build_matrices(
    const F& field, const Matrix<typename F::value_type>& samples,
    const std::vector<AnsatzSystem<typename F::value_type>>& systems,
    Place backend = Place::device) {
  const KokkosLock lock;
  using T = typename F::value_type;
  auto run = [&](auto space) {
    using Space = decltype(space);
    using Mem = typename Space::memory_space;
    const auto d_samples = to_device<Mem>(samples, "hepex::samples");
    std::vector<Matrix<T>> result;
    for (std::size_t k = 0; k < systems.size(); ++k) {
      const auto& sys = systems[k];
      std::size_t degree = 0;
      for (const auto& m : sys.monomials) degree = std::max(degree, m.size());
      Matrix<int> table(sys.monomials.size(), degree, -1);
      for (std::size_t m = 0; m < sys.monomials.size(); ++m) {
        for (std::size_t d = 0; d < sys.monomials[m].size(); ++d) {
          const int v = sys.monomials[m][d];
          if (v < 0 || static_cast<std::size_t>(v) >= samples.cols) {
            throw Error("build_matrices: system " + std::to_string(k) + ", monomial " +
                        std::to_string(m) + " uses variable " + std::to_string(v) +
                        " but the samples have " + std::to_string(samples.cols) + " variables");
          }
          table(m, d) = v;
        }
      }
      if (!sys.prefactors.empty() && sys.prefactors.size() != samples.rows) {
        throw Error("build_matrices: system " + std::to_string(k) + " has " +
                    std::to_string(sys.prefactors.size()) + " prefactors for " +
                    std::to_string(samples.rows) + " samples");
      }
      Kokkos::View<T*, Mem> d_prefactors("hepex::prefactors", sys.prefactors.size());
      auto h_prefactors = Kokkos::create_mirror_view(d_prefactors);
      for (std::size_t s = 0; s < sys.prefactors.size(); ++s) h_prefactors(s) = sys.prefactors[s];
      Kokkos::deep_copy(d_prefactors, h_prefactors);
      result.push_back(to_host(build_matrix(
          space, field, d_samples, to_device<Mem>(table, "hepex::monomials"), d_prefactors)));
    }
    return result;
  };
  return backend == Place::device ? run(DeviceSpace()) : run(HostSpace());
}

}  // namespace hepex::linalg
