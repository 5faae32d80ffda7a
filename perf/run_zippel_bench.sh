#!/usr/bin/env bash
# Issue 5 on a GPU node over a finished CUDA build: the reconstruction,
# expression, product-tree, Vandermonde and Zippel tests (then the whole
# suite), `hepex bench zippel` on the device and on one host core (the
# process pinned to core 0), and compute-sanitizer memcheck over the same
# tests. Logs and JSON go to OUT_DIR and OUT_DIR.tar.gz; a summary is printed last.
#   bash perf/run_zippel_bench.sh BIN_DIR OUT_DIR [DEVICE_SIZES] [HOST_SIZES] [MEMCHECK]
# BIN_DIR holds hepex and hepex_tests; MEMCHECK=0 skips the sanitizer.
set -uo pipefail
bin=${1:?usage: run_zippel_bench.sh BIN_DIR OUT_DIR [DEVICE_SIZES] [HOST_SIZES] [MEMCHECK]}
out=${2:?}
sizes=${3:-125000,300000,750000}
host_sizes=${4:-8000,16000}
memcheck=${5:-1}
filter='Expression*:Newton*:Thiele*:ProductTree*:Vandermonde*:Zippel*:Reconstruct*:RationalReconstruction*'
source "$(dirname "$0")/bench_steps.sh"
begin_run
step tests_issue5 "$bin/hepex_tests" --gtest_filter="$filter"
step tests_all "$bin/hepex_tests"
step bench taskset -c 0 "$bin/hepex" bench zippel --sizes "$sizes" --host-sizes "$host_sizes" \
  --json "$out/zippel.json"
if [ "$memcheck" = 1 ]; then
  step memcheck timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$bin/hepex_tests" --gtest_filter="$filter"
fi
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
cat "$out/device.txt"
grep -hE '^\[  (PASSED|FAILED)|tests? from .* ran' "$out"/tests_*.log
grep -h 'ERROR SUMMARY' "$out/memcheck.log" 2>/dev/null
cat "$out/bench.log" "$out/summary.txt"
