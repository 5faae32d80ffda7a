#pragma once
// Scratch memory for modgemm, reused across calls: the converted operands
// (doubles, int8 residues) and the partial products. Pass one workspace to a
// series of products (Krylov steps, benchmarks) so that the scratch matrices
// are allocated (and, on the host, first touched) once, not on every call.
// One workspace per thread of execution: calls sharing it must not overlap.

#include <Kokkos_Core.hpp>
#include <array>
#include <string>

#include "hepex/core/matrix.hpp"

namespace hepex::linalg {

template <class Memory>
class GemmWorkspace {
 public:
  static constexpr int slots = 8;

  // `count` elements of T in slot `slot` (contents unspecified); the slot
  // grows when it is too small and never shrinks.
  template <class T>
  Kokkos::View<T*, Memory> array(int slot, std::size_t count) {
    auto& buffer = buffers_.at(static_cast<std::size_t>(slot));
    const std::size_t bytes = count * sizeof(T);
    if (buffer.extent(0) < bytes) {
      buffer = Buffer();  // release first: at most one copy of the slot is held
      buffer = Buffer(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                         "hepex::gemm_workspace_" + std::to_string(slot)),
                      bytes);
    }
    return Kokkos::View<T*, Memory>(reinterpret_cast<T*>(buffer.data()), count);
  }

  // A rows x cols row-major matrix in slot `slot`.
  template <class T>
  DeviceMatrix<T, Memory> matrix(int slot, std::size_t rows, std::size_t cols) {
    return DeviceMatrix<T, Memory>(array<T>(slot, rows * cols).data(), rows, cols);
  }

 private:
  using Buffer = Kokkos::View<unsigned char*, Memory>;
  std::array<Buffer, slots> buffers_;
};

}  // namespace hepex::linalg
