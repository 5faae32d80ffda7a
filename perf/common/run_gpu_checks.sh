#!/usr/bin/env bash
# One pass on a GPU node over a finished CUDA/HIP build: the test suite, the
# device's tests under compute-sanitizer (memcheck, racecheck), the CLI, and
# the field benchmark. Logs and JSON go to OUT_DIR; a short table is printed
# last, with the number of tests each sanitizer ran.
#   bash perf/common/run_gpu_checks.sh BIN_DIR OUT_DIR
# BIN_DIR holds hepex, hepex_tests and hepex_bench_field, or is the build
# folder (build/src, build/tests, build/perf).
# The sanitizers run the tests instantiated on the device space (their names
# end in it: "On/RrefOnSpace.Zp32MatchesFlintFor65521/Cuda",
# "RamboOnSpace/Cuda.ConservesMomentumOnShellAndIsotropic"). MEMCHECK_FILTER
# and RACECHECK_FILTER (gtest filters; DEVICE in them is replaced by the
# space's name) change the selection; a selection of no test, or a run that
# passed fewer tests than it selected, is a failure. racecheck runs the
# suites it finishes (racecheck_survey.sh measured each device test: the
# RREF and echelon suites take minutes each under it).
set -uo pipefail
bin=${1:?usage: run_gpu_checks.sh BIN_DIR OUT_DIR}
out=${2:?usage: run_gpu_checks.sh BIN_DIR OUT_DIR}
source "$(dirname "$0")/bench_steps.sh"
source "$(dirname "$0")/sanitized_tests.sh"
hepex=$(binary "$bin" hepex)
tests=$(binary "$bin" hepex_tests)
bench_field=$(binary "$bin" hepex_bench_field)
begin_run
step version "$hepex" --version
step info "$hepex" info
step demo "$hepex" demo --cases 4194304 --json "$out/demo.json"
step tests "$tests" --gtest_output="json:$out/tests.json"
device=$(device_space_name "$hepex")
if [[ -z $device ]]; then
  echo "run_gpu_checks.sh: $hepex has no device space (hepex info); nothing for the sanitizers" \
    >>"$out/summary.txt"
  status=1
elif command -v compute-sanitizer >/dev/null; then
  memcheck_filter=${MEMCHECK_FILTER:-*DEVICE*}
  racecheck_filter=${RACECHECK_FILTER:-$(racecheck_default_filter)}
  sanitized_tests memcheck "$tests" "${memcheck_filter//DEVICE/$device}"
  sanitized_tests racecheck "$tests" "${racecheck_filter//DEVICE/$device}"
else
  echo "compute-sanitizer not found: no sanitizer step" >>"$out/summary.txt"
  status=1
fi
step bench_field "$bench_field" --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true --benchmark_out="$out/bench_field.json" \
  --benchmark_out_format=json
cat "$out/device.txt" "$out/version.log"
grep -E '^\[  (PASSED|FAILED)|tests from' "$out/tests.log" | tail -3
grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out"/memcheck.log "$out"/racecheck.log 2>/dev/null
tail -8 "$out/demo.log"
grep -E 'median' "$out/bench_field.log"
cat "$out/summary.txt"
exit $status
