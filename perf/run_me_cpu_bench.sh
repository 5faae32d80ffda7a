#!/usr/bin/env bash
# Matrix elements on one CPU core, side by side with CUDACPP's C++ builds
# (issue 22): builds madgraph4gpu's standalone check_cpp.exe for every
# process, SIMD build and precision from a checkout OUTSIDE this repository
# (copied to WORK first; nothing of it enters hepex), runs it and `hepex
# bench me --simd none,auto` on the same core with the same batch, one after
# the other, and prints a markdown table (MEs/s; CUDACPP: its
# EvtsPerSec[MECalcOnly] (3a), the ME kernel alone; hepex: events / median
# wall time of MatrixElement::evaluate, and its thread CPU time).
#   bash perf/run_me_cpu_bench.sh MG4GPU_DIR HEPEX WORK [CORE]
# MG4GPU_DIR: a madgraph4gpu checkout (epochX/cudacpp/PROCESS.sa); HEPEX: a
# host build's hepex; WORK: a scratch directory (CUDACPP builds, logs,
# hepex.json, table.md); CORE: the core both run on (default 2).
# Environment: EVENTS (default 2048), PROCESSES (default gg_tt gg_ttg
# gg_ttgg gg_ttggg), BUILDS (CUDACPP backend:fptype pairs, default all
# below), SIMD (hepex's --simd list, default none,auto), JOBS (parallel
# CUDACPP builds, default nproc), BUILD_ONLY=1 (stop after the builds; a
# second call reuses them), SKIP_BUILD=1 (use the builds already in WORK).
set -euo pipefail
# OpenBLAS (linked for the BLAS colour sum) must not park spinning threads on the core.
export OPENBLAS_NUM_THREADS=1
src=${1:?usage: run_me_cpu_bench.sh MG4GPU_DIR HEPEX WORK [CORE]}
hepex=${2:?}
work=${3:?}
core=${4:-2}
events=${EVENTS:-2048}
processes=${PROCESSES:-"gg_tt gg_ttg gg_ttgg gg_ttggg"}
jobs=${JOBS:-$(nproc)}
# CUDACPP builds: double in every SIMD mode, float in none, avx2 and 512z.
builds=${BUILDS:-"cppnone:d cppavx2:d cpp512y:d cpp512z:d cppnone:f cppavx2:f cpp512z:f"}
simd=${SIMD:-none,auto}
mkdir -p "$work"
declare -A subdir=([gg_tt]=P1_Sigma_sm_gg_ttx [gg_ttg]=P1_Sigma_sm_gg_ttxg
                   [gg_ttgg]=P1_Sigma_sm_gg_ttxgg [gg_ttggg]=P1_Sigma_sm_gg_ttxggg)

build_one() {  # process backend fptype
  local dir="$work/cudacpp/$1.sa/SubProcesses/${subdir[$1]}"
  # -k: without gfortran only the Fortran driver fails; check_cpp.exe still builds.
  make -k -C "$dir" -f cudacpp.mk BACKEND="$2" FPTYPE="$3" HASCURAND=hasNoCurand USEBUILDDIR=1 \
    -j2 > "$work/build_$1_$2_$3.log" 2>&1 || true
}
for p in $processes; do
  mkdir -p "$work/cudacpp"
  [ -d "$work/cudacpp/$p.sa" ] || cp -r "$src/epochX/cudacpp/$p.sa" "$work/cudacpp/"
done
n=0
[ "${SKIP_BUILD:-0}" = 1 ] || for p in $processes; do
  for b in $builds; do
    build_one "$p" "${b%:*}" "${b#*:}" &
    n=$((n + 1))
    if ((n % (jobs / 2 + 1) == 0)); then wait; fi
  done
done
wait
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0

# Events per CUDACPP run: EVENTS as 32-event blocks; iterations so that a
# run takes a few seconds (at least 2).
declare -A iterations=([gg_tt]=200 [gg_ttg]=50 [gg_ttgg]=8 [gg_ttggg]=2)
{
  echo "process fptype backend mes_per_second"
  for p in $processes; do
    for b in $builds; do
      backend=${b%:*} fp=${b#*:}
      exe=$(find "$work/cudacpp/$p.sa/SubProcesses/${subdir[$p]}" -path "*build.${backend#cpp}_${fp}_*" \
              -name check_cpp.exe | head -1)
      [ -n "$exe" ] || { echo "$p $fp $backend missing"; continue; }
      rate=$(cd "$(dirname "$exe")" && taskset -c "$core" ./check_cpp.exe -p $((events / 32)) 32 \
               "${iterations[$p]}" 2>&1 |
             sed -n 's/.*EvtsPerSec\[MECalcOnly\] (3a) = ( *\([0-9.e+-]*\) .*/\1/p' | head -1)
      echo "$p $fp $backend ${rate:-failed}"
    done
  done
} | tee "$work/cudacpp.txt"

taskset -c "$core" "$hepex" bench me --processes "$(echo $processes | tr ' ' ',')" \
  --precisions double,float --simd "$simd" --batches "$events" --warmup 1 --repeats 5 \
  --budget 60 --json "$work/hepex.json" | tee "$work/hepex.log"

python3 - "$work" <<'EOF'
import json, sys, collections
work = sys.argv[1]
cudacpp = collections.defaultdict(dict)
for line in open(f"{work}/cudacpp.txt").read().split("\n")[1:]:
    f = line.split()
    if len(f) == 4 and f[3] not in ("failed", "missing"):
        cudacpp[(f[0], {"d": "double", "f": "float"}[f[1]])][f[2]] = float(f[3])
hepex = collections.defaultdict(dict)
for r in json.load(open(f"{work}/hepex.json"))["rows"]:
    hepex[(r["process"], r["precision"])][r["simd"]] = (r["mes_per_second"],
                                                        r["events"] / r["thread_cpu_seconds"])
print("| process | precision | CUDACPP none | CUDACPP avx2 | CUDACPP 512y | CUDACPP 512z |"
      " hepex none | hepex auto (simd) | hepex auto, thread CPU | auto / none | auto / best CUDACPP |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for key in sorted(hepex, key=lambda k: (["gg_tt", "gg_ttg", "gg_ttgg", "gg_ttggg"].index(k[0]), k[1])):
    c, h = cudacpp.get(key, {}), hepex[key]
    auto = [s for s in h if s != "none"]
    simd = auto[0] if auto else "none"
    best = max(c.values()) if c else float("nan")
    cell = lambda b: f"{c[b]:.4g}" if b in c else "-"
    none = f"{h['none'][0]:.4g}" if "none" in h else "-"
    ratio = f"{h[simd][0] / h['none'][0]:.2f}" if "none" in h else "-"
    print(f"| {key[0]} | {key[1]} | {cell('cppnone')} | {cell('cppavx2')} | {cell('cpp512y')} |"
          f" {cell('cpp512z')} | {none} | {h[simd][0]:.4g} ({simd}) | {h[simd][1]:.4g} |"
          f" {ratio} | {h[simd][0] / best:.2f} |")
EOF
