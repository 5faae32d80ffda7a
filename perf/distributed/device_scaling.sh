#!/usr/bin/env bash
# On a multi-GPU node (nvidia-h200-x4 through the device tool, .ext/gpu
# carried): hepex's CUDA build with MPI against the node's own Open MPI, then
# run_scaling_bench.sh over the given rank counts (one GPU per rank), RUNS
# times. Everything lands in OUT_DIR: node.txt (GPUs, MPI), build.log,
# summary_runN.txt and runs.tar.gz (the driver's JSON and logs),
# gpu_apps.txt (nvidia-smi samples: which GPUs held a hepex process).
#   [RUNS=2] [driver variables: JOBS, SCHEDULE, ...] bash perf/distributed/device_scaling.sh OUT_DIR ["1 2 4"]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out=${1:?usage: device_scaling.sh OUT_DIR [RANKS]}
ranks=${2:-"1 2 4"}
mkdir -p "$out"
{
  date -u
  nvidia-smi -L
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
  command -v mpiexec mpicxx
  mpiexec --version 2>&1 | head -2
  nproc
} >"$out/node.txt" 2>&1
cat "$out/node.txt"
if ! command -v mpicxx >/dev/null; then
  echo "no mpicxx on this node: MPI headers and library are needed for the scaling run" >&2
  find / -xdev \( -name 'mpi.h' -o -name 'libmpi.so*' \) 2>/dev/null | head -20 >&2
  exit 1
fi
start=$EPOCHREALTIME
HEPEX_CMAKE_ARGS="-DHEPEX_ENABLE_MPI=ON -DHEPEX_BUILD_TESTS=OFF -DHEPEX_BUILD_PYTHON=OFF" \
  HEPEX_TARGETS=hepex_cli bash perf/common/build_gpu.sh build-mpi >"$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "build: %.0f s\n", b - a }' | tee -a "$out/node.txt"
source perf/common/gpu_env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gpus=$(nvidia-smi -L | wc -l)
export OMP_NUM_THREADS=$(($(nproc) / gpus))
nvidia-smi --query-compute-apps=timestamp,pid,gpu_bus_id,used_memory --format=csv -l 1 \
  >"$out/gpu_apps.txt" 2>&1 &
sampler=$!
for ((run = 1; run <= ${RUNS:-2}; run++)); do
  MATRIX_DIR=/tmp/hepex_scaling_matrices bash perf/distributed/run_scaling_bench.sh "$PWD/build-mpi/src/hepex" "$out/run$run" "$ranks" \
    "mpiexec --bind-to none" | tail -30
  cp "$out/run$run/summary.txt" "$out/summary_run$run.txt"
done
rm -rf /tmp/hepex_scaling_matrices
# One archive of the runs' JSON and logs (the stdout files, compared by the
# driver, stay out); the summaries beside it.
(cd "$out" && tar -czf runs.tar.gz --exclude='*.out' run[0-9]* && rm -rf run[0-9]*)
kill "$sampler" 2>/dev/null
