#pragma once
// Scratch memory for modgemm, reused across calls: the converted operands
// (doubles, int8 residues) and the partial products. Host buffers ask for
// huge pages (core/huge_pages.hpp). Pass one workspace to a
// series of products (Krylov steps, benchmarks) so that the scratch matrices
// are allocated (and, on the host, first touched) once, not on every call.
// One workspace per thread of execution: calls sharing it must not overlap.
//
// With keep_left_operand(true), the workspace also remembers which left
// operand A its converted copy holds (its data pointer, shape, prime and
// conversion), and a product with the same A skips converting it again: the
// Sparse-FGLM loop T V_i, where converting T costs as much as the fat-vector
// DGEMM. The caller promises that A's contents do not change meanwhile.

#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>
#include <string>

#include "hepex/core/huge_pages.hpp"
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
      if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible) {
        advise_huge_pages(buffer.data(), bytes);  // before anything touches it
      }
    }
    return Kokkos::View<T*, Memory>(reinterpret_cast<T*>(buffer.data()), count);
  }

  // The conversions of A that the methods make.
  enum class Conversion {
    none,
    centred_doubles,
    split_doubles,
    split_doubles_and_sums,
    int8_residues
  };
  // What a converted left operand was made from.
  struct LeftOperand {
    const void* data = nullptr;
    std::size_t rows = 0, cols = 0;
    std::uint64_t prime = 0;
    Conversion form = Conversion::none;
    bool operator==(const LeftOperand& o) const {
      return data == o.data && rows == o.rows && cols == o.cols && prime == o.prime &&
             form == o.form;
    }
  };

  void keep_left_operand(bool keep) {
    keep_left_ = keep;
    held_ = LeftOperand{};
  }
  // Runs `convert` (which writes A's conversion into the workspace) unless
  // the workspace is keeping left operands and already holds this one.
  template <class Convert>
  void convert_left(const LeftOperand& a, Convert&& convert) {
    if (keep_left_ && a.data != nullptr && held_ == a) return;
    convert();
    held_ = keep_left_ ? a : LeftOperand{};
  }

  // A rows x cols row-major matrix in slot `slot`.
  template <class T>
  DeviceMatrix<T, Memory> matrix(int slot, std::size_t rows, std::size_t cols) {
    return DeviceMatrix<T, Memory>(array<T>(slot, rows * cols).data(), rows, cols);
  }

 private:
  using Buffer = Kokkos::View<unsigned char*, Memory>;
  std::array<Buffer, slots> buffers_;
  bool keep_left_ = false;
  LeftOperand held_;
};

}  // namespace hepex::linalg
