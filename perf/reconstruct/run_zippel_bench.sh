#!/usr/bin/env bash
# Issue 5 on a GPU node over a finished CUDA build: the reconstruction,
# expression, NTT, product-tree, Vandermonde and Zippel tests (then the whole
# suite unless ALL=0), `hepex_bench zippel` on the device and on one host core
# (the process pinned to core 0) with the automatic method, both methods at
# the crossover sizes CROSSOVER (device) and HOST_CROSSOVER (host), and
# compute-sanitizer memcheck over the same tests (or MEMCHECK_FILTER). Logs and JSON go to OUT_DIR
# and OUT_DIR.tar.gz; a summary is printed last.
#   bash perf/reconstruct/run_zippel_bench.sh BIN_DIR OUT_DIR [DEVICE_SIZES] [HOST_SIZES] [MEMCHECK]
# BIN_DIR holds hepex and hepex_tests; MEMCHECK=0 skips the sanitizer.
set -uo pipefail
bin=${1:?usage: run_zippel_bench.sh BIN_DIR OUT_DIR [DEVICE_SIZES] [HOST_SIZES] [MEMCHECK]}
out=${2:?}
sizes=${3:-125000,300000,750000}
host_sizes=${4:-8000,16000}
memcheck=${5:-1}
crossover=${CROSSOVER:-}
host_crossover=${HOST_CROSSOVER:-}
memcheck_filter=${MEMCHECK_FILTER:-}
filter='Expression*:Newton*:Thiele*:Ntt*:ProductTree*:Vandermonde*:FastVandermonde*:Zippel*:Reconstruct*:RationalReconstruction*'
source "$(dirname "$0")/../common/bench_steps.sh"
bench=$(binary "$bin" hepex_bench)
begin_run
step tests_issue5 "$bin/hepex_tests" --gtest_filter="$filter"
[ "${ALL:-1}" = 1 ] && step tests_all "$bin/hepex_tests"
if [ -n "$crossover$host_crossover" ]; then
  for method in quadratic fast; do
    step "crossover_$method" taskset -c 0 "$bench" zippel --method "$method" \
      --sizes "${crossover:-1000}" --host-sizes "$host_crossover" --json "$out/crossover_$method.json"
  done
fi
step bench taskset -c 0 "$bench" zippel --sizes "$sizes" --host-sizes "$host_sizes" \
  --json "$out/zippel.json"
if [ "$memcheck" = 1 ]; then
  step memcheck timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$bin/hepex_tests" --gtest_filter="${memcheck_filter:-$filter}"
fi
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
cat "$out/device.txt"
grep -hE '^\[  (PASSED|FAILED)|tests? from .* ran' "$out"/tests_*.log
grep -h 'ERROR SUMMARY' "$out/memcheck.log" 2>/dev/null
cat "$out"/crossover_*.log "$out/bench.log" "$out/summary.txt"
