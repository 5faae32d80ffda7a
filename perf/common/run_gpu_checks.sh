#!/usr/bin/env bash
# One pass on a GPU node over a finished CUDA/HIP build: the test suite, the
# same tests under compute-sanitizer (memcheck, racecheck), the CLI, and the
# field benchmark. Logs and JSON go to OUT_DIR; a short table is printed last.
#   bash perf/common/run_gpu_checks.sh BIN_DIR OUT_DIR
# BIN_DIR holds hepex, hepex_tests and hepex_bench_field (as built in
# build/src, build/tests and build/perf).
set -uo pipefail
bin=${1:?usage: run_gpu_checks.sh BIN_DIR OUT_DIR}
out=${2:?usage: run_gpu_checks.sh BIN_DIR OUT_DIR}
source "$(dirname "$0")/bench_steps.sh"
begin_run
step version "$bin/hepex" --version
step info "$bin/hepex" info
step demo "$bin/hepex" demo --cases 4194304 --json "$out/demo.json"
step tests "$bin/hepex_tests" --gtest_output="json:$out/tests.json"
if command -v compute-sanitizer >/dev/null; then
  filter='Zp*:Real*:Complex*:SelfCheck*:KokkosCompat*:Rref*:Echelon*:MatrixBuilder*:ModGemm*'
  step memcheck compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$bin/hepex_tests" --gtest_filter="$filter"
  step racecheck compute-sanitizer --tool racecheck --error-exitcode 9 \
    "$bin/hepex_tests" --gtest_filter='SelfCheck*:Rref.Zp32*'
fi
step bench_field "$bin/hepex_bench_field" --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true --benchmark_out="$out/bench_field.json" \
  --benchmark_out_format=json
cat "$out/device.txt" "$out/version.log"
grep -E '^\[  (PASSED|FAILED)|tests from' "$out/tests.log" | tail -3
grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out"/memcheck.log "$out"/racecheck.log 2>/dev/null
tail -8 "$out/demo.log"
grep -E 'median' "$out/bench_field.log"
cat "$out/summary.txt"
exit $status
