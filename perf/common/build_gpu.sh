#!/usr/bin/env bash
# On a GPU node (CUDA 13, an H100 or H200): Kokkos 4.6.01 with CUDA, OpenMP
# and Serial, then hepex with its tests and the Python package, from what
# perf/common/gpu_environment.sh put in .ext/gpu (carry .ext/gpu to the node).
# Kokkos 4.6.01 is adapted to CUDA 13 as upstream did in 4.7.01
# (docs/gpu.md): the edge-data argument of cudaGraphAddDependencies, and
# cudaMemLocation in cudaMemAdvise and cudaMemPrefetchAsync.
#   bash perf/common/build_gpu.sh [BUILD_DIR]      (default build-cuda)
# Afterwards: source perf/common/gpu_env.sh for LD_LIBRARY_PATH.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
build=${1:-build-cuda}
root=$PWD/.ext
jobs=$(nproc)
[[ -d $root/prefix ]] || tar -C "$root" -xJf "$root/gpu/prefix.tar.xz"
if [[ ! -f $root/kokkos-cuda/lib/cmake/Kokkos/KokkosConfig.cmake && ! -f $root/kokkos-cuda/lib64/cmake/Kokkos/KokkosConfig.cmake ]]; then
  rm -rf "$root/kokkos"
  tar -xzf "$root/gpu/kokkos.tar.gz" -C "$root"
  python3 - "$root/kokkos/core/src/Cuda" <<'PY'
import sys, pathlib
d = pathlib.Path(sys.argv[1])
def patch(name, old, new):
    p = d / name
    s = p.read_text()
    assert old in s, (name, old)
    p.write_text(s.replace(old, new))
location = ("cudaMemLocation loc; loc.type = {dev} == cudaCpuDeviceId ? cudaMemLocationTypeHost"
            " : cudaMemLocationTypeDevice; loc.id = {dev}; ")
patch("Kokkos_Cuda_Instance.hpp", "return cudaGraphAddDependencies(graph, from, to, numDependencies);",
      "return cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);")
patch("Kokkos_Cuda_Instance.hpp", "return cudaMemAdvise(devPtr, count, advice, device);",
      location.format(dev="device") + "return cudaMemAdvise(devPtr, count, advice, loc);")
patch("Kokkos_Cuda_Instance.hpp", "return cudaMemPrefetchAsync(devPtr, count, dstDevice,",
      location.format(dev="dstDevice") + "return cudaMemPrefetchAsync(devPtr, count, loc, 0,")
patch("Kokkos_CudaSpace.cpp", "cudaMemAdvise_v2(", "cudaMemAdvise(")
patch("Kokkos_CudaSpace.cpp",
      "cudaMemAdvise(ptr, arg_alloc_size, cudaMemAdviseSetPreferredLocation,\n                        cudaCpuDeviceId));",
      "cudaMemAdvise(ptr, arg_alloc_size, cudaMemAdviseSetPreferredLocation,\n"
      "                        [] { cudaMemLocation l; l.type = cudaMemLocationTypeHost; l.id = 0; return l; }()));")
PY
  cmake -S "$root/kokkos" -B "$root/kokkos-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$root/kokkos-cuda" -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_OPENMP=ON \
    -DKokkos_ENABLE_SERIAL=ON -DKokkos_ARCH_HOPPER90=ON -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF >/dev/null
  cmake --build "$root/kokkos-build" -j "$jobs" >/dev/null
  cmake --install "$root/kokkos-build" >/dev/null
fi
# nvcc_wrapper compiles for sm_70 when given no -arch (CMake's compiler test),
# which CUDA 13 rejects: Hopper instead.
sed -i 's/^default_arch="sm_70"/default_arch="sm_90"/' "$root/kokkos-cuda/bin/nvcc_wrapper"
source perf/common/gpu_env.sh
pybind=$(python3 -m pybind11 --cmakedir 2>/dev/null || true)
[[ -f $build/CMakeCache.txt ]] && grep -q "CMAKE_CXX_COMPILER_WORKS:INTERNAL=1" "$build/CMakeCache.txt" || rm -rf "$build"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DKokkos_ROOT="$root/kokkos-cuda" -DCMAKE_CXX_COMPILER="$root/kokkos-cuda/bin/nvcc_wrapper" \
  -DCMAKE_PREFIX_PATH="$root/prefix/usr" -DCMAKE_LIBRARY_PATH="$root/prefix/usr/lib/x86_64-linux-gnu" \
  -DCMAKE_CXX_FLAGS="-isystem $root/prefix/usr/include -isystem $root/prefix/usr/include/x86_64-linux-gnu" \
  -DBLA_VENDOR=OpenBLAS -DHEPEX_ENABLE_MPI=OFF -DHEPEX_SANITIZER_TESTS=OFF \
  -DPython_EXECUTABLE="$(command -v python3)" ${pybind:+-Dpybind11_DIR=$pybind} >/dev/null
# HEPEX_CMAKE_ARGS: more configure options (-DHEPEX_BUILD_PERF=ON);
# HEPEX_TARGETS: build only these (a device call's minutes are few).
# shellcheck disable=SC2086
[[ -z ${HEPEX_CMAKE_ARGS:-} ]] || cmake "$build" ${HEPEX_CMAKE_ARGS} >/dev/null
# shellcheck disable=SC2086
cmake --build "$build" -j "$jobs" ${HEPEX_TARGETS:+--target ${HEPEX_TARGETS}}
