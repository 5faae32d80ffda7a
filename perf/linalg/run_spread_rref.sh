#!/usr/bin/env bash
# On a node of several GPUs (nvidia-h200-x2 / -x4 through the device tool,
# .ext/gpu carried): one large RREF spread over 1..R MPI ranks, one GPU each
# (hepex_bench spread-rref: the matrix built on the devices, every entry of
# the result checked), beside the single GPU's blocked rref of the same
# matrix (hepex_bench rref-check), and the distributed tests on R ranks with
# a GPU each. The CUDA build with MPI against the node's Open MPI first.
# Logs and JSON lines in OUT_DIR; the node (GPUs, links, MPI) in node.txt.
# BIG: sizes run afterwards on the most ranks only (n = 200,000 does not fit
# one GPU). MESSAGES: how rows travel (auto, host, nccl; several: each run).
#   [SIZES="32768 65536 100000"] [RANKS="1 2"] [BIG="200000"] [SINGLE=1] [TESTS=1]
#   [WIDTH=0] [MESSAGES="auto"] bash perf/linalg/run_spread_rref.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out=${1:?usage: run_spread_rref.sh OUT_DIR}
sizes=${SIZES:-"32768 65536 100000"}
ranks=${RANKS:-"1 2"}
messages=${MESSAGES:-auto}
p=2147483647
mkdir -p "$out"
{
  date -u
  git rev-parse --short HEAD 2>/dev/null
  git status --short 2>/dev/null | head -20
  nvidia-smi --query-gpu=name,memory.total,driver_version,pci.bus_id --format=csv
  nvidia-smi topo -m
  nproc
  command -v mpiexec mpicxx
  mpiexec --version 2>&1 | head -1
  ompi_info --parsable --all 2>/dev/null | grep -E "mpi_built_with_cuda_support|mca:opal:base:param:opal_cuda_support" | head -3
  ls /usr/include/nccl.h /usr/lib/x86_64-linux-gnu/libnccl* 2>&1 | head -3
} >"$out/node.txt" 2>&1
cat "$out/node.txt"
start=$EPOCHREALTIME
targets="hepex_bench"
[[ ${TESTS:-1} == 1 ]] && targets="hepex_bench hepex_mpi_tests"
# NCCL when the node has it (HEPEX_ENABLE_NCCL=AUTO); a build that fails
# with it is tried again without it, so that the host path is measured.
HEPEX_CMAKE_ARGS="-DHEPEX_ENABLE_MPI=ON -DHEPEX_BUILD_PERF=ON -DHEPEX_BUILD_PYTHON=OFF -DHEPEX_ENABLE_NCCL=${NCCL:-AUTO}" \
  HEPEX_TARGETS="$targets" bash perf/common/build_gpu.sh build-mpi >"$out/build.log" 2>&1 || {
  tail -40 "$out/build.log"
  echo "the build failed with HEPEX_ENABLE_NCCL=${NCCL:-AUTO}: again without NCCL" | tee -a "$out/node.txt"
  HEPEX_CMAKE_ARGS="-DHEPEX_ENABLE_MPI=ON -DHEPEX_BUILD_PERF=ON -DHEPEX_BUILD_PYTHON=OFF -DHEPEX_ENABLE_NCCL=OFF" \
    HEPEX_TARGETS="$targets" bash perf/common/build_gpu.sh build-mpi >"$out/build_no_nccl.log" 2>&1 ||
    { tail -40 "$out/build_no_nccl.log"; exit 1; }
}
grep "HEPEX_NCCL_LIBRARY_FOUND" build-mpi/CMakeCache.txt >>"$out/node.txt"
awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "build: %.0f s\n", b - a }' | tee -a "$out/node.txt"
source perf/common/gpu_env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bench=build-mpi/perf/hepex_bench
# One GPU per rank: the node-local rank picks it.
one_gpu=(bash -c 'export CUDA_VISIBLE_DEVICES=${OMPI_COMM_WORLD_LOCAL_RANK:-0}; exec "$@"' one_gpu)
max_ranks=$(echo $ranks | tr ' ' '\n' | sort -n | tail -1)
if [[ ${TESTS:-1} == 1 ]]; then
  mpiexec --bind-to none -n "$max_ranks" "${one_gpu[@]}" build-mpi/tests/hepex_mpi_tests \
    --gtest_filter='DistributedRref*' >"$out/tests.log" 2>&1
  echo "DistributedRref on $max_ranks ranks: rc $? $(grep -c 'OK \]' "$out/tests.log") OK lines, $(grep -c 'FAILED \]' "$out/tests.log") FAILED lines" |
    tee -a "$out/node.txt"
fi
nvidia-smi --query-compute-apps=timestamp,pid,gpu_bus_id,used_memory --format=csv,noheader -lms 500 \
  >"$out/gpu_apps.csv" 2>&1 &
sampler=$!
for n in $sizes; do
  if [[ ${SINGLE:-1} == 1 ]]; then
    CUDA_VISIBLE_DEVICES=0 "$bench" rref-check "$n" 16 7 "$p" | tee -a "$out/single.jsonl"
  fi
  for r in $ranks; do
    for m in $messages; do
      [[ $r == 1 && $m != "${messages%% *}" ]] && continue  # one rank sends nothing
      mpiexec --bind-to none -n "$r" "${one_gpu[@]}" "$bench" spread-rref "$n" 16 7 "${WIDTH:-0}" "$m" "$p" |
        tee -a "$out/spread.jsonl"
    done
  done
done
for n in ${BIG:-}; do
  mpiexec --bind-to none -n "$max_ranks" "${one_gpu[@]}" "$bench" spread-rref "$n" 16 7 "${WIDTH:-0}" \
    "${messages%% *}" "$p" | tee -a "$out/spread.jsonl"
done
kill "$sampler" 2>/dev/null
awk -F', *' '{ n[$3]++; if ($4 + 0 > peak[$3]) peak[$3] = $4 + 0 } END { for (g in n) printf "GPU %s: %d samples with a process, peak %d MiB\n", g, n[g], peak[g] }' \
  "$out/gpu_apps.csv" | tee -a "$out/node.txt"
