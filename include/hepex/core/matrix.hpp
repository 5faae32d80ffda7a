#pragma once
// Dense matrices: device Views (row-major, the layout every hepex kernel
// uses) and a plain host matrix for the host convenience APIs.

#include <cstddef>
#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_compat.hpp"

namespace hepex {

// Row-major so that a team of threads walking along a row reads consecutive
// memory (coalesced on GPUs).
template <class T, class MemorySpace>
using DeviceMatrix = Kokkos::View<T**, Kokkos::LayoutRight, MemorySpace>;

// Read-only view of a device matrix (the inputs of hepex kernels).
template <class T, class MemorySpace>
using ConstDeviceMatrix = Kokkos::View<const T**, Kokkos::LayoutRight, MemorySpace>;

// A host matrix in row-major order.
template <class T>
struct Matrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<T> data;

  Matrix() = default;
  Matrix(std::size_t r, std::size_t c, const T& fill = T()) : rows(r), cols(c), data(r * c, fill) {}
  T& operator()(std::size_t i, std::size_t j) { return data[i * cols + j]; }
  const T& operator()(std::size_t i, std::size_t j) const { return data[i * cols + j]; }
  bool operator==(const Matrix& other) const {
    return rows == other.rows && cols == other.cols && data == other.data;
  }
};

// Copies a host matrix into a new device matrix of the given memory space.
template <class MemorySpace, class T>
DeviceMatrix<T, MemorySpace> to_device(const Matrix<T>& a, const char* label = "hepex::matrix") {
  DeviceMatrix<T, MemorySpace> d(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), a.rows, a.cols);
  Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace,
               Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      h(a.data.data(), a.rows, a.cols);
  Kokkos::deep_copy(d, h);
  return d;
}

// Copies a device matrix back into a host matrix.
template <class T, class MemorySpace>
Matrix<T> to_host(const DeviceMatrix<T, MemorySpace>& d) {
  Matrix<T> a(d.extent(0), d.extent(1));
  Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      h(a.data.data(), a.rows, a.cols);
  Kokkos::deep_copy(h, d);
  return a;
}

}  // namespace hepex
