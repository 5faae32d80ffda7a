#!/usr/bin/env bash
# The 3-jet subprocesses with one light quark pair on one CPU core (issue 41),
# beside their only anchor: MadGraph's own Fortran matrix element (CUDACPP has
# no code of them; madgraph4gpu ships no 3-jet directory). Uses the
# `output standalone` directories that tests/data/madgraph/make_madevent_reference.sh
# left in its WORK (MadGraph5_aMC@NLO outside this repository), rebuilds
# their HELAS and model libraries and SMATRIX with FFLAGS (default
# "-O3 -ffast-math -march=native", more than MadGraph's own default), times
# madgraph_fortran_me.cpp over the 768 reference events of each (5 passes),
# then `hepex_bench me --simd auto` (2048 RAMBO events at 1500 GeV) on the same
# core, ROUNDS rounds, and prints a markdown table of medians (MEs/s).
#   bash perf/amplitudes/run_madgraph_fortran_bench.sh MG_WORK HEPEX_BENCH [CORE]
# Environment: PROCESSES (default the four), ROUNDS (default 3), FFLAGS.
set -euo pipefail
work=${1:?usage: run_madgraph_fortran_bench.sh MG_WORK HEPEX_BENCH [CORE]}
hepex=${2:?usage: run_madgraph_fortran_bench.sh MG_WORK HEPEX_BENCH [CORE]}
core=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../../tests/data/madgraph
processes=${PROCESSES:-"uux_ttxggg gu_ttxggu gux_ttxggux gg_ttxguux"}
rounds=${ROUNDS:-3}
fflags=${FFLAGS:-"-O3 -ffast-math -march=native"}
export OPENBLAS_NUM_THREADS=1
declare -A fortran hepex_rate
for name in $processes; do
  sa=$(ls -d "$work/$name.sa/SubProcesses/"P[0-9]_*)
  [ -d "$sa" ] || { echo "$name: no standalone output in $work (make_madevent_reference.sh)" >&2; exit 1; }
  # The libraries again with these flags (not `make clean` in Source: the
  # standalone output's clean target recurses without end, lacking PDF/).
  rm -f "$work/$name.sa/lib/libdhelas.a" "$work/$name.sa/lib/libmodel.a" \
    "$work/$name.sa/Source/DHELAS/"*.o "$work/$name.sa/Source/MODEL/"*.o
  (make -C "$work/$name.sa/Source/DHELAS" GLOBAL_FLAG="$fflags" &&
    make -C "$work/$name.sa/Source/MODEL" GLOBAL_FLAG="$fflags") \
    > "$work/$name.fortran_build.log" 2>&1 || { echo "$name: library build failed" >&2; exit 1; }
  (cd "$sa" && gfortran $fflags -ffixed-line-length-132 -I. -c matrix.f -o matrix_bench.o &&
    gfortran $fflags -I. -c "$data/standalone_glue.f" -o standalone_glue_bench.o &&
    g++ -O2 -std=c++17 "$here/madgraph_fortran_me.cpp" matrix_bench.o standalone_glue_bench.o \
      -L../../lib -ldhelas -lmodel -lgfortran -o madgraph_fortran_me) \
    >> "$work/$name.fortran_build.log" 2>&1 || { echo "$name: build failed" >&2; exit 1; }
done
for round in $(seq 1 "$rounds"); do
  for name in $processes; do
    sa=$(ls -d "$work/$name.sa/SubProcesses/"P[0-9]_*)
    line=$(cd "$sa" && taskset -c "$core" ./madgraph_fortran_me "$data/pp_tt3j/${name}_onshell_ref.txt" 7 5)
    echo "$round $name fortran $line"
    fortran[$name]+="$(echo "$line" | sed 's/.*mes_per_s \([^ ]*\).*/\1/') "
    taskset -c "$core" "$hepex" me --processes "$name" --precisions double --simd auto \
      --batches 2048 --warmup 1 --repeats 5 --json "$work/hepex_${round}_$name.json" \
      > "$work/hepex_${round}_$name.log" 2>&1
    rate=$(python3 -c 'import json,sys; print(max(r["mes_per_second"] for r in json.load(open(sys.argv[1]))["rows"]))' \
      "$work/hepex_${round}_$name.json")
    echo "$round $name hepex $rate"
    hepex_rate[$name]+="$rate "
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| subprocess | MadGraph Fortran ($fflags) | hepex avx512 | ratio |"
echo "|---|---:|---:|---:|"
for name in $processes; do
  f=$(echo "${fortran[$name]}" | median)
  h=$(echo "${hepex_rate[$name]}" | median)
  echo "| $name | $f | $h | $(python3 -c "print(f'{$h / $f:.2f}')") |"
done
