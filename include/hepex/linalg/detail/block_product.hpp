#pragma once
// The matrix product of the blocked rref's updates, C = A B or C += A B in the
// field: modgemm over Z/p (exact for every p < 2^63), the vendor DGEMM over
// Real64. Other fields have none, and rref keeps them on the unblocked path.

#include <type_traits>

#include "hepex/backend/gemm.hpp"
#include "hepex/field/real.hpp"
#include "hepex/linalg/modgemm.hpp"
#include "hepex/linalg/row_subset.hpp"

namespace hepex::linalg::detail {

template <class F>
struct HasBlockProduct : std::false_type {};
template <class Word>
struct HasBlockProduct<field::Zp<Word>> : std::true_type {};
template <>
struct HasBlockProduct<field::Real64> : std::true_type {};

// C is a matrix or a RowSubset (row_subset.hpp).
template <class ExecSpace, class Word, class Target>
void block_product(const ExecSpace& space, const field::Zp<Word>& f,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                   const Target& c, bool accumulate,
                   GemmWorkspace<typename ExecSpace::memory_space>& workspace) {
  modgemm(space, f, a, b, c, GemmMethod::automatic, accumulate, &workspace);
}

template <class ExecSpace>
void block_product(const ExecSpace& space, const field::Real64&,
                   const ConstDeviceMatrix<double, typename ExecSpace::memory_space>& a,
                   const ConstDeviceMatrix<double, typename ExecSpace::memory_space>& b,
                   const DeviceMatrix<double, typename ExecSpace::memory_space>& c, bool accumulate,
                   GemmWorkspace<typename ExecSpace::memory_space>&) {
  const int m = static_cast<int>(a.extent(0)), k = static_cast<int>(a.extent(1)),
            n = static_cast<int>(b.extent(1));
  backend::dgemm(space, m, n, k, a.data(), k, b.data(), n, accumulate ? 1.0 : 0.0, c.data(), n);
}

// Over Real64 into rows of a matrix: through a gathered copy (workspace slot 7).
template <class ExecSpace>
void block_product(const ExecSpace& space, const field::Real64& f,
                   const ConstDeviceMatrix<double, typename ExecSpace::memory_space>& a,
                   const ConstDeviceMatrix<double, typename ExecSpace::memory_space>& b,
                   const RowSubset<double, typename ExecSpace::memory_space>& c, bool accumulate,
                   GemmWorkspace<typename ExecSpace::memory_space>& workspace) {
  const auto copy = gather_rows(space, c, b.extent(1), accumulate, workspace, 7);
  block_product(space, f, a, b, copy, accumulate, workspace);
  scatter_rows(space, copy, c);
}

}  // namespace hepex::linalg::detail
