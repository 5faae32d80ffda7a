# Sourced by run_gpu_checks.sh (after bench_steps.sh, which defines binary): hepex's tests under
# compute-sanitizer, counted so that a filter selecting nothing cannot pass.
#
# device_space_name HEPEX: the default execution space's name when it is a
# device (Cuda, HIP, SYCL), else nothing ("execution spaces: Cuda, OpenMP,
# Serial (default: Cuda)" in `hepex info`).
device_space_name() {
  local space
  space=$("$1" info 2>/dev/null | sed -n 's/.*(default: \([A-Za-z]*\)).*/\1/p')
  case $space in Cuda | HIP | SYCL) echo "$space" ;; esac
}

# A racecheck selection that finishes in a few minutes and touches every
# kind of device kernel (self-check, phase space, vendor DGEMM on instances,
# int8 products across the exact block boundary, Krylov, matrix builder,
# unblocked RREF over Zp32/Zp64/Complex128/Real64, echelon over Zp64, the
# matrix elements), chosen from racecheck_survey.sh on the H200 at e680ffe
# (perf/results/checks/racecheck_survey/2026-11-28_h200_e680ffe.txt: 28 of the 39
# device tests finish within 60 s with 8 running at once, none reports a
# hazard; the blocked RREF, most modular products, the int8 GEMM on
# instances and the fast Vandermonde do not finish in 60 s).
racecheck_default_filter() {
  local tests=(
    On/SelfCheckOnSpace.Passes/DEVICE
    RamboOnSpace/DEVICE.*
    VendorGemmOnSpace/DEVICE.DgemmOnInstances
    On/ModGemmOnSpace.Int8AcrossTheExactInt32BlockBoundary/DEVICE
    On/KrylovOnSpace.*/DEVICE
    On/MatrixBuilderOnSpace.*/DEVICE
    On/RrefOnSpace.Zp32MatchesFlintFor65521/DEVICE
    On/RrefOnSpace.Zp64MatchesFlintFor63BitPrime/DEVICE
    On/RrefOnSpace.Complex128MatchesReferenceWithBadlyScaledRows/DEVICE
    On/RrefOnSpace.Real64MatchesReferenceWithBadlyScaledRows/DEVICE
    On/EchelonOnSpace.EveryOperationOverZp64/DEVICE
    On/MatrixElementOnSpace.*/DEVICE
  )
  local IFS=:
  echo "${tests[*]}"
}

# The number of tests FILTER selects in TESTS (its --gtest_list_tests).
count_tests() {
  "$1" --gtest_list_tests --gtest_filter="$2" 2>/dev/null | grep -c '^  [^ ]'
}

# sanitized_tests TOOL TESTS FILTER: TESTS under compute-sanitizer --tool
# TOOL on the FILTER's tests; fails when the filter selects none, when the
# tool reports an error, or when fewer tests passed than were selected. The
# summary line gives the count ("memcheck ok 39 tests 84s").
sanitized_tests() {
  local tool=$1 tests=$2 filter=$3 start=$SECONDS selected passed r=ok
  selected=$(count_tests "$tests" "$filter")
  if [[ $selected -eq 0 ]]; then
    echo "filter '$filter' selects no test" >"$out/$tool.log"
    r=FAILED
  else
    compute-sanitizer --tool "$tool" --error-exitcode 9 "$tests" --gtest_filter="$filter" \
      >"$out/$tool.log" 2>&1 || r=FAILED
    passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\{0,1\}\..*/\1/p' "$out/$tool.log" | tail -1)
    if [[ ${passed:-0} -ne $selected ]]; then
      echo "$tool: $selected tests selected, ${passed:-0} passed" >>"$out/$tool.log"
      r=FAILED
    fi
  fi
  [[ $r == ok ]] || status=1
  printf '%-28s %-7s %4ss  %s tests: %s\n' "$tool" "$r" "$((SECONDS - start))" "$selected" \
    "$filter" >>"$out/summary.txt"
}
