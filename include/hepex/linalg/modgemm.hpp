#pragma once
// Modular matrix products C = A B (mod p) and C += A B, exact for every input,
// for every prime 2 <= p < 2^63, on the device or the host. The methods and
// their exact ranges: modgemm_methods.hpp; the kernels: detail/modgemm_*.hpp.

#include <string>

#include "hepex/core/error.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/linalg/detail/modgemm_doubles.hpp"
#include "hepex/linalg/detail/modgemm_int8.hpp"
#include "hepex/linalg/detail/modgemm_words.hpp"
#include "hepex/linalg/gemm_workspace.hpp"
#include "hepex/linalg/modgemm_methods.hpp"

namespace hepex::linalg {

// Device API: C = A B (or C += A B) mod p on `space`. A m x k, B k x n, C m x n,
// all reduced residues. Repeated products may share a workspace (see
// gemm_workspace.hpp); without one, scratch memory is allocated per call.
// Returns the method that ran.
template <class ExecSpace, class Word>
GemmMethod modgemm(const ExecSpace& space, const field::Zp<Word>& f,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                   const DeviceMatrix<Word, typename ExecSpace::memory_space>& c,
                   GemmMethod method = GemmMethod::automatic, bool accumulate = false,
                   GemmWorkspace<typename ExecSpace::memory_space>* workspace = nullptr) {
  using Memory = typename ExecSpace::memory_space;
  const std::size_t m = a.extent(0), k = a.extent(1), n = b.extent(1);
  if (b.extent(0) != k || c.extent(0) != m || c.extent(1) != n) {
    throw Error("modgemm: shapes " + std::to_string(m) + "x" + std::to_string(k) + " times " +
                std::to_string(b.extent(0)) + "x" + std::to_string(n) + " into " +
                std::to_string(c.extent(0)) + "x" + std::to_string(c.extent(1)) + " do not match");
  }
  const Backend where = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible
                            ? Backend::host
                            : Backend::device;
  method = resolve_gemm_method(method, f.modulus(), where);
  if (m == 0 || n == 0) return method;
  if (method == GemmMethod::int64 || k == 0) {
    detail::modgemm_words(space, f, a, b, c, accumulate);
    space.fence();
    return method;
  }
  GemmWorkspace<Memory> local;
  GemmWorkspace<Memory>& scratch = workspace != nullptr ? *workspace : local;
  if (method == GemmMethod::int8) {
    detail::modgemm_int8(space, f, a, b, c, accumulate, where, scratch);
  } else {
    detail::modgemm_doubles(space, f, a, b, c, accumulate, where, method == GemmMethod::multiword,
                            scratch);
  }
  space.fence();
  return method;
}

// Host convenience: returns A B (+ C0 when given) mod p. On a host backend
// the matrices are used in place, without copies.
template <class Word>
Matrix<Word> modgemm(const field::Zp<Word>& f, const Matrix<Word>& a, const Matrix<Word>& b,
                     GemmMethod method = GemmMethod::automatic, Backend backend = Backend::device,
                     const Matrix<Word>* c0 = nullptr) {
  auto run = [&](auto space) {
    using Memory = typename decltype(space)::memory_space;
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible) {
      Matrix<Word> c = c0 != nullptr ? *c0 : Matrix<Word>(a.rows, b.cols);
      modgemm(space, f, ConstDeviceMatrix<Word, Memory>(a.data.data(), a.rows, a.cols),
              ConstDeviceMatrix<Word, Memory>(b.data.data(), b.rows, b.cols),
              DeviceMatrix<Word, Memory>(c.data.data(), c.rows, c.cols), method, c0 != nullptr);
      return c;
    } else {
      const auto da = to_device<Memory>(a, "A");
      const auto db = to_device<Memory>(b, "B");
      auto dc = c0 != nullptr
                    ? to_device<Memory>(*c0, "C")
                    : DeviceMatrix<Word, Memory>(
                          Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("C")), a.rows,
                          b.cols);
      modgemm(space, f, ConstDeviceMatrix<Word, Memory>(da), ConstDeviceMatrix<Word, Memory>(db),
              dc, method, c0 != nullptr);
      return to_host(dc);
    }
  };
  if (a.cols != b.rows || (c0 != nullptr && (c0->rows != a.rows || c0->cols != b.cols))) {
    throw Error("modgemm: A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                ", B is " + std::to_string(b.rows) + "x" + std::to_string(b.cols) +
                (c0 ? ", C is " + std::to_string(c0->rows) + "x" + std::to_string(c0->cols) : "") +
                ": shapes do not match");
  }
  return backend == Backend::device ? run(DeviceSpace()) : run(HostSpace());
}

}  // namespace hepex::linalg
