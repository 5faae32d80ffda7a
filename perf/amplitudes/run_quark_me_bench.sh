#!/usr/bin/env bash
# Issue 41 on a GPU node over a finished CUDA build of hepex: the colour-flow
# family's tests on the device (then compute-sanitizer memcheck over them),
# `hepex_bench me` on the 2-jet subprocesses with a light quark pair, and
# CUDACPP's check_cuda.exe of the same subprocesses of madgraph4gpu's
# pp_tt012j.mad (built here, outside the repository) at the same batch sizes.
#   bash perf/amplitudes/run_quark_me_bench.sh BIN_DIR OUT_DIR [PP_TT012J_MAD] [MEMCHECK]
# BIN_DIR holds hepex_bench and hepex_tests (GPU build, or a build folder);
# PP_TT012J_MAD a copy of madgraph4gpu's epochX/cudacpp/pp_tt012j.mad ('' to
# skip CUDACPP; it is copied to $TMPDIR before building). Environment:
# SUBPROCESSES (default: the four below), FPTYPES (CUDACPP's, default "d m"),
# BATCHES (default 2048 ... 524288), MEMCHECK=0 skips the sanitizer;
# HEPEX_ONLY: more processes that hepex_bench times with no CUDACPP beside
# them (the 3-jet subprocesses, which pp_tt012j.mad lacks: "uux_ttxggg ...");
# MEMCHECK_FILTER: the tests under memcheck (default ColourFlow.*).
set -uo pipefail
bin=${1:?usage: run_quark_me_bench.sh BIN_DIR OUT_DIR [PP_TT012J_MAD] [MEMCHECK]}
out=${2:?}
mad=${3:-}
memcheck=${4:-1}
subprocesses=${SUBPROCESSES:-"P2_uux_ttxgg P2_gu_ttxgu P2_gg_ttxuux P2_uu_ttxuu"}
fptypes=${FPTYPES:-"d m"}
batches=${BATCHES:-"2048 8192 32768 131072 524288"}
source "$(dirname "$0")/../common/bench_steps.sh"
bench=$(binary "$bin" hepex_bench)
tests=$(binary "$bin" hepex_tests)
filter='*ColourFlow*:Processes/AmplitudeSelectionReference.*'
begin_run
# CUDACPP: every subprocess built (CUDA, each FPTYPE) in the background while
# hepex's steps run; -k: without gfortran (the GPU node has none) only the
# Fortran check program fails, check_cuda.exe is built.
work=${TMPDIR:-/tmp}/hepex_pp_tt012j
if [ -n "$mad" ]; then
  rm -rf "$work" && cp -r "$mad" "$work"
  for s in $subprocesses; do
    for fp in $fptypes; do
      (cd "$work/SubProcesses/$s" && MADGRAPH_CUDA_ARCHITECTURE=${MADGRAPH_CUDA_ARCHITECTURE:-90} \
         make -k -f cudacpp.mk BACKEND=cuda FPTYPE="$fp" USEBUILDDIR=1 USEGTEST=0 -j4 \
         >"$out/cudacpp_build_${s}_$fp.log" 2>&1) &
    done
  done
fi
step tests_colour_flow "$tests" --gtest_filter="$filter"
# memcheck: the device kernel (double) of every process of the family on 128
# events, through SymmetricUnderIdenticalParticles (the longer reference
# tests would not finish under the sanitizer).
if [ "$memcheck" = 1 ]; then
  step memcheck timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$tests" --gtest_filter="${MEMCHECK_FILTER:-ColourFlow.*}"
fi
names=$(for s in $subprocesses; do printf '%s,' "${s#P*_}"; done)
names=$names$(for p in ${HEPEX_ONLY:-}; do printf '%s,' "$p"; done)
# hepex's timings only after CUDACPP's builds: with a dozen compilers on the
# host the launches lagged (2026-11-29: some medians half the rate of the
# same batch's fastest run).
[ -z "$mad" ] || wait
step bench taskset -c 0 "$bench" me --processes "${names%,}" --precisions double,mixed \
  --batches "$(echo $batches | tr ' ' ',')" --budget 2 --json "$out/me_device.json"
# CUDACPP: one thread per event, 256 threads per block, about 2^20 events per point.
if [ -n "$mad" ]; then
  : >"$out/cudacpp.tsv"
  for s in $subprocesses; do
    for fp in $fptypes; do
      exe=$(ls "$work/SubProcesses/$s"/build.cuda_${fp}_*/check_cuda.exe 2>/dev/null | head -1)
      [ -x "$exe" ] || { echo "$s $fp: no check_cuda.exe" >>"$out/cudacpp.tsv"; continue; }
      for n in $batches; do
        threads=256 niter=$(((1 << 20) / n)); niter=$((niter < 2 ? 2 : niter > 100 ? 100 : niter))
        printf '%s %s %d %d %d %d ' "${s#P*_}" "$fp" "$n" "$((n / threads))" "$threads" "$niter" >>"$out/cudacpp.tsv"
        (cd "$(dirname "$exe")" && MG5AMC_CARD_PATH="$work/Cards" "$exe" -p "$((n / threads))" "$threads" "$niter" 2>&1) |
          sed -n 's/.*EvtsPerSec\[\(MatrixElems\] (3)\|MECalcOnly\] (3a)\) = ( *\([0-9.e+-]*\) .*/\2/p' |
          tr '\n' ' ' >>"$out/cudacpp.tsv"
        echo >>"$out/cudacpp.tsv"
      done
    done
  done
fi
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
cat "$out/device.txt"
grep -hE '^\[  (PASSED|FAILED)|tests? from .* ran' "$out"/tests_*.log
grep -h 'ERROR SUMMARY' "$out/memcheck.log" 2>/dev/null
sed -n '/^peak and/,$p' "$out/bench.log" 2>/dev/null
cat "$out/cudacpp.tsv" 2>/dev/null
cat "$out/summary.txt"
exit $status
