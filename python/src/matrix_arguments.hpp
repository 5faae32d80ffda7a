#pragma once
// Matrix arguments that may be numpy arrays or GPU arrays
// (__cuda_array_interface__), as the functions of bind_linalg.cpp and
// bind_gemm.cpp take them: copied once into device memory and validated
// there, or read into a host matrix.

#include <optional>
#include <string>

#include "arrays.hpp"
#include "device_arrays.hpp"
#include "hepex/core/error.hpp"

namespace hepex::python {

// Entries that are not elements of f: >= p over Z/p, not finite over
// floating point (x - x is 0 exactly for finite x).
template <class F>
struct CountInvalid {
  using T = typename F::value_type;
  F f;
  Kokkos::View<const T**, Kokkos::LayoutRight, DeviceMemory> a;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t k, std::size_t& bad) const {
    const T x = a.data()[k];
    if constexpr (F::is_exact) {
      bad += x >= f.modulus() ? 1 : 0;
    } else {
      const T zero = x - x;
      bad += zero == T(0) ? 0 : 1;
    }
  }
};

// A new device matrix holding a GPU argument's entries, which must already
// be f's values in f's dtype (checked there, before any work).
template <class F>
DeviceMatrix<typename F::value_type, DeviceMemory> device_copy(const DeviceInput& in, const F& f,
                                                               const std::string& what) {
  using T = typename F::value_type;
  if (in.typestr != typestr<T>()) {
    throw Error(what + ": a GPU array of " + in.typestr + "; for this " +
                (F::is_exact ? "prime" : "field") + " hepex reads GPU matrices of " + typestr<T>() +
                " (convert it on the GPU first)");
  }
  DeviceMatrix<T, DeviceMemory> d(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hepex::python::") + what),
      in.shape.rows, in.shape.cols);
  Kokkos::deep_copy(d, Kokkos::View<const T**, Kokkos::LayoutRight, DeviceMemory,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                           static_cast<const T*>(in.data), in.shape.rows, in.shape.cols));
  std::size_t bad = 0;
  Kokkos::parallel_reduce("hepex::python::check_entries",
                          Kokkos::RangePolicy<DeviceSpace>(0, in.shape.size()),
                          CountInvalid<F>{f, d}, bad);
  if (bad > 0) {
    if constexpr (F::is_exact) {
      throw Error(what + ": " + std::to_string(bad) +
                  " entries are not reduced below p = " + std::to_string(f.modulus()));
    } else {
      throw Error(what + ": " + std::to_string(bad) + " entries are not finite");
    }
  }
  return d;
}

// A matrix argument, read once: a numpy array or a GPU array's description
// (a DLPack tensor can be taken only once).
struct Argument {
  std::optional<py::array> host;
  std::optional<DeviceInput> device;
  bool is_complex() const {
    return host ? host->dtype().kind() == 'c'
                : device->typestr.size() > 1 && device->typestr[1] == 'c';
  }
};
Argument argument(const py::object& a, const std::string& what);

// An argument as a host matrix (GPU arrays are copied to the host).
template <class F>
Matrix<typename F::value_type> host_matrix(const Argument& a, const F& f, const std::string& what) {
  if (a.host) return to_matrix(*a.host, f, what);
  return to_host(device_copy(*a.device, f, what));
}

}  // namespace hepex::python
