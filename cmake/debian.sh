#!/usr/bin/env bash
# The README's two commands, on Debian 12 as root (or with sudo):
#   bash cmake/debian.sh demo   install what is needed, build, run `hepex demo`
#   bash cmake/debian.sh test   install what is needed, build, run the test suite
# Both are idempotent: packages already present are not reinstalled, and the
# build in ./build is reused and brought up to date.
set -euo pipefail

mode=${1:-}
if [[ "$mode" != demo && "$mode" != test ]]; then
  echo "usage: bash cmake/debian.sh demo|test" >&2
  exit 1
fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(
  cmake ninja-build g++
  libtrilinos-kokkos-dev libopenblas-dev
  libgmp-dev libflint-dev libopenmpi-dev openmpi-bin
  libcli11-dev nlohmann-json3-dev gfortran
  googletest libgtest-dev libbenchmark-dev
  python3-dev pybind11-dev libdlpack-dev python3-numpy python3-pytest python3-sympy
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  echo "== installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

jobs=$(nproc)
# Debian's interpreter, the one whose numpy, pytest and sympy were installed.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=/usr/bin/python3
if [[ "$mode" == demo ]]; then
  cmake --build build --target hepex_cli hepex_python -j "$jobs"
  ./build/src/hepex demo
else
  cmake --build build -j "$jobs"
  ctest --test-dir build --output-on-failure -j "$jobs"
fi
