#!/usr/bin/env bash
# Prepares, on a Debian 12 machine with network, what a GPU node without a
# package registry needs to build hepex with CUDA (perf/common/build_gpu.sh):
#   .ext/gpu/prefix.tar.xz  Debian 12's GMP, FLINT, OpenBLAS, GoogleTest, CLI11,
#                           nlohmann-json and dlpack, unpacked (dpkg -x), links
#                           made relative so the folder can move (9 MB);
#   .ext/gpu/kokkos.tar.gz  Kokkos 4.6.01's source, from a checkout given as
#                           KOKKOS_GIT (a clone of github.com/kokkos/kokkos).
# Both are git-ignored (.ext/): carry .ext/gpu to the GPU node (run's carry);
# none of it is part of hepex.
#   KOKKOS_GIT=/path/to/kokkos.git bash perf/common/gpu_environment.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
: "${KOKKOS_GIT:?give KOKKOS_GIT, a git checkout or bare repository of kokkos/kokkos}"
rm -rf .ext/prefix
mkdir -p .ext/debs .ext/prefix .ext/gpu
packages=(libgmp-dev libgmpxx4ldbl libgmp10 libflint-dev libflint17 libmpfr6 libmpfr-dev
          libntl44 libgf2x3 libgtest-dev libcli11-dev nlohmann-json3-dev libdlpack-dev
          libopenblas-dev libopenblas0-pthread libopenblas-pthread-dev libopenblas0 libgfortran5)
(cd .ext/debs && apt-get download "${packages[@]}")
for deb in .ext/debs/*.deb; do dpkg -x "$deb" .ext/prefix; done
# Absolute links (libgmp.so -> /usr/lib/...) point into the prefix instead.
find .ext/prefix -type l | while read -r link; do
  target=$(readlink "$link")
  if [[ $target == /* ]]; then
    ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" ".ext/prefix$target")" "$link"
  fi
done
# cblas.h and libblas as Debian's alternatives would give them.
blas=.ext/prefix/usr/lib/x86_64-linux-gnu/openblas-pthread
ln -sfn openblas-pthread/cblas.h .ext/prefix/usr/include/x86_64-linux-gnu/cblas.h
ln -sfn openblas-pthread/libblas.so "$(dirname "$blas")/libblas.so"
rm -rf .ext/debs .ext/prefix/usr/share/doc .ext/prefix/usr/share/man
# Static libraries and LAPACK are not linked: they would not fit what travels.
rm -f .ext/prefix/usr/lib/x86_64-linux-gnu/openblas-pthread/*.a \
      .ext/prefix/usr/lib/x86_64-linux-gnu/openblas-pthread/liblapack.so* \
      .ext/prefix/usr/lib/x86_64-linux-gnu/libgmp.a .ext/prefix/usr/lib/x86_64-linux-gnu/libmpfr.a
tar -C .ext -cJf .ext/gpu/prefix.tar.xz prefix
git -C "$KOKKOS_GIT" archive --format=tar.gz --prefix=kokkos/ -o "$PWD/.ext/gpu/kokkos.tar.gz" 4.6.01
du -sh .ext/gpu/*
