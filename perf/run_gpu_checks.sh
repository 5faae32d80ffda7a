#!/usr/bin/env bash
# One pass on a GPU node over a finished CUDA/HIP build: the test suite, the
# same tests under compute-sanitizer (memcheck, racecheck), the CLI, and the
# field benchmark. Logs and JSON go to OUT_DIR; a short table is printed last.
#   bash perf/run_gpu_checks.sh BIN_DIR OUT_DIR
# BIN_DIR holds hepex, hepex_tests and hepex_bench_field (as built in
# build/src, build/tests and build/perf).
set -uo pipefail
bin=${1:?usage: run_gpu_checks.sh BIN_DIR OUT_DIR}
out=${2:?usage: run_gpu_checks.sh BIN_DIR OUT_DIR}
mkdir -p "$out"
status=0
step() {  # step NAME COMMAND...: run, log to OUT_DIR/NAME.log, remember failures
  local name=$1; shift
  local start=$SECONDS
  if "$@" >"$out/$name.log" 2>&1; then r=ok; else r="FAILED"; status=1; fi
  printf '%-28s %-7s %4ss\n' "$name" "$r" "$((SECONDS - start))" >>"$out/summary.txt"
}
: >"$out/summary.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
  >"$out/device.txt" 2>&1 || true
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
