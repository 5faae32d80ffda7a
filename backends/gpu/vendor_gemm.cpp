// The device products of hepex/backend/gemm.hpp for CUDA and
// HIP builds: the vendor's BLAS (blas_api.hpp of the vendor's folder) on the
// stream of the caller's execution-space instance. A handle's stream is part
// of its state, so each stream gets a handle of its own, created on first
// use and destroyed when Kokkos finalises.
#include "hepex/backend/gemm.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>

#include "hepex/core/error.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "../cuda/blas_api.hpp"
#elif defined(KOKKOS_ENABLE_HIP)
#include "../hip/blas_api.hpp"
#endif

namespace hepex::backend {

namespace {

void check(blas::Status status, const char* what) {
  if (status != blas::success) {
    throw Error(std::string(blas::library) + ": " + what + " failed (status " +
                    std::to_string(static_cast<int>(status)) + ")",
                ErrorKind::runtime);
  }
}

blas::Stream stream_of(const DeviceSpace& space) {
#if defined(KOKKOS_ENABLE_CUDA)
  return space.cuda_stream();
#else
  return space.hip_stream();
#endif
}

std::mutex handles_mutex;
std::map<blas::Stream, blas::Handle> handles;  // guarded by handles_mutex

void destroy_handles() {
  std::lock_guard<std::mutex> lock(handles_mutex);
  for (auto& [stream, handle] : handles) blas::destroy(handle);
  handles.clear();
}

blas::Handle handle_for(const DeviceSpace& space) {
  const blas::Stream stream = stream_of(space);
  std::lock_guard<std::mutex> lock(handles_mutex);
  if (auto found = handles.find(stream); found != handles.end()) return found->second;
  blas::Handle handle = nullptr;
  check(blas::create(&handle), "creating a handle");
  check(blas::set_stream(handle, stream), "binding a handle to its stream");
  if (handles.empty()) Kokkos::push_finalize_hook(destroy_handles);
  handles.emplace(stream, handle);
  return handle;
}

}  // namespace

const char* device_gemm_library() { return blas::library; }

void device_dgemm(const DeviceSpace& space, int m, int n, int k, const double* a, int lda,
                  const double* b, int ldb, double beta, double* c, int ldc) {
  if (m == 0 || n == 0) return;
  // Row-major C = A B is column-major C^T = B^T A^T.
  check(blas::dgemm(handle_for(space), n, m, k, b, ldb, a, lda, beta, c, ldc), "DGEMM");
}

void device_int8_gemm(const DeviceSpace& space, int batch, int m, int n, int k,
                      const std::int8_t* a, int lda, std::ptrdiff_t stride_a, const std::int8_t* bt,
                      int ldbt, std::ptrdiff_t stride_bt, std::int32_t* c, int ldc,
                      std::ptrdiff_t stride_c) {
  if (m == 0 || n == 0 || batch == 0) return;
  const blas::Handle handle = handle_for(space);
  // Row-major C = A Bt^T is column-major C^T = Bt A^T: Bt (column-major
  // k x n) transposed, A^T (column-major k x m) as is: the TN form the
  // integer tensor-core kernels take.
  if (static_cast<long long>(m) * n <= blas::int8_batched_up_to) {
    check(blas::int8_tn_batched(handle, batch, n, m, k, bt, ldbt, stride_bt, a, lda, stride_a, c,
                                ldc, stride_c),
          "strided-batched int8 GEMM");
    return;
  }
  for (int t = 0; t < batch; ++t) {
    for (int j = 0; j < n; j += blas::int8_panel_columns) {
      const int width = std::min(blas::int8_panel_columns, n - j);
      check(blas::int8_tn(handle, width, m, k, bt + t * stride_bt + std::ptrdiff_t(j) * ldbt, ldbt,
                          a + t * stride_a, lda, c + t * stride_c + j, ldc),
            "int8 GEMM");
    }
  }
}

}  // namespace hepex::backend
