#!/usr/bin/env bash
# Issue 6 on a GPU node over a finished CUDA build: the amplitude tests (then
# the whole suite), compute-sanitizer memcheck over the amplitude tests,
# `hepex_bench me` sweeps on the device, the same on one host core (a host
# build's hepex pinned to core 0, if given), and CUDACPP's check executables
# at the same batch sizes (if given). Logs and JSON go to OUT_DIR and
# OUT_DIR.tar.gz; a summary is printed last.
#   bash perf/amplitudes/run_me_bench.sh BIN_DIR OUT_DIR [HOST_BIN_DIR] [CUDACPP_DIR] [MEMCHECK]
# BIN_DIR holds hepex and hepex_tests (GPU build); HOST_BIN_DIR a host build's
# hepex ('' to skip); CUDACPP_DIR holds PROCESS_FP/bin/check_cuda.exe (and
# its shared libraries) for PROCESS in gg_ttgg gg_ttggg and FP in d m, and
# Cards/param_card.dat (found through MG5AMC_CARD_PATH) ('' to skip); MEMCHECK=0 skips the sanitizer. Environment: BENCH_ARGS (extra `bench me` flags for the
# device sweep), CUDACPP_MAX_GG_TTGG and CUDACPP_MAX_GG_TTGGG (largest
# CUDACPP batch, default 1048576 and 65536: gg_ttggg's plateau starts at ~2k
# events and a 2^20 batch would take half a minute per iteration).
set -uo pipefail
bin=${1:?usage: run_me_bench.sh BIN_DIR OUT_DIR [HOST_BIN_DIR] [CUDACPP_DIR] [MEMCHECK]}
out=${2:?}
host_bin=${3:-}
cudacpp=${4:-}
memcheck=${5:-1}
filter='Amplitude*'
source "$(dirname "$0")/../common/bench_steps.sh"
bench=$(binary "$bin" hepex_bench)
begin_run
step tests_me "$bin/hepex_tests" --gtest_filter="$filter"
step tests_all "$bin/hepex_tests"
if [ "$memcheck" = 1 ]; then
  step memcheck timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$bin/hepex_tests" --gtest_filter="$filter"
fi
# Device: every process, precision and colour sum, 32 ... 2^20 events.
step bench taskset -c 0 "$bench" me --processes gg_tt,gg_ttg,gg_ttgg,gg_ttggg \
  --precisions double,mixed,float --colour-sums kernel,blas --budget 3 ${BENCH_ARGS:-} \
  --json "$out/me_device.json"
# One host core: the host build's same command, fewer repeats.
if [ -n "$host_bin" ]; then
  step bench_host taskset -c 0 "$(binary "$host_bin" hepex_bench)" me \
    --processes gg_tt,gg_ttg,gg_ttgg,gg_ttggg --precisions double,mixed --warmup 1 --repeats 3 \
    --budget 2 --json "$out/me_host.json"
fi
# CUDACPP: one thread per event, 32 threads per block up to 16384 events
# (so that small batches spread over many SMs), 256 above; about 2^21 events
# per point in all for gg_ttgg, 2^17 for gg_ttggg (at least 2 iterations). Columns: process, FPTYPE, events, blocks, threads,
# iterations, EvtsPerSec[MatrixElems] (3) (kernels + copy of the MEs to the
# host) and EvtsPerSec[MECalcOnly] (3a) (kernels only, like our timing).
cudacpp_sweep() {
  local process=$1 fp=$2 max=$3 total=$4 n threads niter
  for ((n = 32; n <= max; n *= 2)); do
    threads=$((n <= 16384 ? 32 : 256))
    niter=$((total / n)); niter=$((niter > 100 ? 100 : niter < 2 ? 2 : niter))
    printf '%s %s %d %d %d %d ' "$process" "$fp" "$n" "$((n / threads))" "$threads" "$niter"
    MG5AMC_CARD_PATH="$cudacpp/Cards" LD_LIBRARY_PATH="$cudacpp/${process}_$fp/bin:${LD_LIBRARY_PATH:-}" \
      "$cudacpp/${process}_$fp/bin/check_cuda.exe" -p "$((n / threads))" "$threads" "$niter" 2>&1 |
      sed -n 's/.*EvtsPerSec\[\(MatrixElems\] (3)\|MECalcOnly\] (3a)\) = ( *\([0-9.e+-]*\) .*/\2/p' |
      tr '\n' ' '
    echo
  done
}
if [ -n "$cudacpp" ]; then
  for process in gg_ttgg gg_ttggg; do
    if [ "$process" = gg_ttgg ]; then
      max=${CUDACPP_MAX_GG_TTGG:-1048576} total=$((1 << 21))
    else
      max=${CUDACPP_MAX_GG_TTGGG:-65536} total=$((1 << 17))
    fi
    for fp in d m; do
      [ -x "$cudacpp/${process}_$fp/bin/check_cuda.exe" ] || continue
      step "cudacpp_${process}_$fp" cudacpp_sweep "$process" "$fp" "$max" "$total"
    done
  done
  cat "$out"/cudacpp_*.log >"$out/cudacpp.tsv" 2>/dev/null
fi
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
cat "$out/device.txt"
grep -hE '^\[  (PASSED|FAILED)|tests? from .* ran' "$out"/tests_*.log
grep -h 'ERROR SUMMARY' "$out/memcheck.log" 2>/dev/null
sed -n '/^peak and/,$p' "$out/bench.log" "$out/bench_host.log" 2>/dev/null
cat "$out/cudacpp.tsv" 2>/dev/null
cat "$out/summary.txt"
