#!/usr/bin/env bash
# On a GPU node: every test instantiated on the device space under
# compute-sanitizer's racecheck, one test per run, TIMEOUT seconds each (120),
# JOBS runs at a time (4): which ones racecheck finishes, how long they take
# and what it reports. Chooses run_gpu_checks.sh's racecheck selection.
#   bash perf/common/racecheck_survey.sh BIN_DIR OUT_FILE   (BIN_DIR: binaries or a build folder)
# Prints (and writes to OUT_FILE) "seconds  result  test" per test, result
# ok, FAILED (exit code) or TIMEOUT.
set -uo pipefail
bin=${1:?usage: racecheck_survey.sh BIN_DIR OUT_FILE}
out_file=${2:?usage: racecheck_survey.sh BIN_DIR OUT_FILE}
source "$(dirname "$0")/sanitized_tests.sh"
hepex=$(binary "$bin" hepex)
tests=$(binary "$bin" hepex_tests)
device=$(device_space_name "$hepex")
[[ -n $device ]] || { echo "racecheck_survey.sh: no device space in $hepex" >&2; exit 1; }
# Full names: "Suite." lines then "  test" lines (comments after '#').
"$tests" --gtest_list_tests --gtest_filter="*$device*" |
  awk '/^[^ ]/ { suite = $1 } /^  [^ ]/ { print suite $1 }' >"$out_file.list"
[[ -s $out_file.list ]] || { echo "racecheck_survey.sh: no $device test" >&2; exit 1; }
one() {
  local t=$1 start=$SECONDS r=ok
  timeout "${TIMEOUT:-120}" compute-sanitizer --tool racecheck --error-exitcode 9 \
    "$tests" --gtest_filter="$t" >/dev/null 2>&1
  local rc=$?
  case $rc in 0) ;; 124) r=TIMEOUT ;; *) r="FAILED($rc)" ;; esac
  printf '%5ss  %-9s %s\n' "$((SECONDS - start))" "$r" "$t"
}
export -f one
export tests
xargs -P "${JOBS:-4}" -I{} bash -c 'one "$@"' _ {} <"$out_file.list" | tee "$out_file"
