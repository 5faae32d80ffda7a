#!/usr/bin/env bash
# Matrix elements on one CPU core, side by side with CUDACPP's C++ builds
# (issue 22): builds madgraph4gpu's standalone check_cpp.exe for every
# process, SIMD build and precision from a checkout OUTSIDE this repository
# (copied to WORK first; nothing of it enters hepex), runs it and `hepex_bench
# me --simd none,auto` on the same core with the same batch, one after
# the other, and prints a markdown table (MEs/s; CUDACPP: its
# EvtsPerSec[MECalcOnly] (3a), the ME kernel alone; hepex: events / median
# wall time of MatrixElement::evaluate, and its thread CPU time).
#   bash perf/amplitudes/run_me_cpu_bench.sh MG4GPU_DIR HEPEX_BENCH WORK [CORE]
# MG4GPU_DIR: a madgraph4gpu checkout (epochX/cudacpp/PROCESS.sa for gg_tt ...
# gg_ttggg; pp_tt012j.mad's P directory for a subprocess with quarks, such
# as uux_ttxgg: P2_uux_ttxgg, issue 41); HEPEX_BENCH: a
# host build's hepex_bench; WORK: a scratch directory (CUDACPP builds, cudacpp.txt,
# hepex_ROUND_PROCESS.json, hepex.log); CORE: the core both run on (default 2).
# Environment: EVENTS (default 2048), PROCESSES (default gg_tt gg_ttg
# gg_ttgg gg_ttggg), BUILDS (CUDACPP backend:fptype pairs, default all
# below), SIMD (hepex's --simd list, default none,auto), ROUNDS (default 1:
# rounds of all runs; the table gives medians), JOBS (parallel
# CUDACPP builds, default nproc), BUILD_ONLY=1 (stop after the builds; a
# second call reuses them), SKIP_BUILD=1 (use the builds already in WORK).
set -euo pipefail
# OpenBLAS (linked for the BLAS colour sum) must not park spinning threads on the core.
export OPENBLAS_NUM_THREADS=1
src=${1:?usage: run_me_cpu_bench.sh MG4GPU_DIR HEPEX_BENCH WORK [CORE]}
hepex=${2:?}
work=${3:?}
core=${4:-2}
events=${EVENTS:-2048}
processes=${PROCESSES:-"gg_tt gg_ttg gg_ttgg gg_ttggg"}
jobs=${JOBS:-$(nproc)}
# CUDACPP builds: double in every SIMD mode, float in none, avx2 and 512z.
builds=${BUILDS:-"cppnone:d cppavx2:d cpp512y:d cpp512z:d cppnone:f cppavx2:f cpp512z:f"}
simd=${SIMD:-none,auto}
rounds=${ROUNDS:-1}
mkdir -p "$work"
declare -A subdir=([gg_tt]=P1_Sigma_sm_gg_ttx [gg_ttg]=P1_Sigma_sm_gg_ttxg
                   [gg_ttgg]=P1_Sigma_sm_gg_ttxgg [gg_ttggg]=P1_Sigma_sm_gg_ttxggg)
# The directory of a process's CUDACPP code in WORK: its .sa's subprocess, or
# the P directory of pp_tt012j.mad.
process_dir() {
  if [ -n "${subdir[$1]:-}" ]; then
    echo "$work/cudacpp/$1.sa/SubProcesses/${subdir[$1]}"
  else
    ls -d "$work/cudacpp/pp_tt012j.mad/SubProcesses/"P[0-9]_"$1"
  fi
}

build_one() {  # process backend fptype
  local dir
  dir=$(process_dir "$1")
  # -k: without gfortran only the Fortran driver fails; check_cpp.exe still builds.
  make -k -C "$dir" -f cudacpp.mk BACKEND="$2" FPTYPE="$3" HASCURAND=hasNoCurand USEBUILDDIR=1 \
    -j2 > "$work/build_$1_$2_$3.log" 2>&1 || true
}
for p in $processes; do
  mkdir -p "$work/cudacpp"
  copy=$p.sa
  [ -n "${subdir[$p]:-}" ] || copy=pp_tt012j.mad
  [ -d "$work/cudacpp/$copy" ] || cp -r "$src/epochX/cudacpp/$copy" "$work/cudacpp/"
  process_dir "$p" > /dev/null || { echo "run_me_cpu_bench.sh: no CUDACPP code for $p" >&2; exit 1; }
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
# run takes a few seconds (at least 2). hepex: evaluations per run likewise.
# By the number of particles (the quark subprocesses cost about what the
# gluon process of as many particles does).
declare -A iterations=([4]=200 [5]=50 [6]=8 [7]=2)
declare -A repeats=([4]=40 [5]=20 [6]=8 [7]=3)
particles() {  # one letter per particle, x marking an antiparticle: gg_ttgg 6, uux_ttxg 5
  local name=${1//[x_]/}
  echo "${#name}"
}
# ROUNDS rounds; in each, every process's CUDACPP builds and then hepex, back
# to back (a VM's rate drifts between runs far apart).
echo "round process fptype backend mes_per_second" > "$work/cudacpp.txt"
rm -f "$work"/hepex_*.json
for round in $(seq "$rounds"); do
  for p in $processes; do
    for b in $builds; do
      backend=${b%:*} fp=${b#*:}
      exe=$(find "$(process_dir "$p")" -path "*build.${backend#cpp}_${fp}_*" \
              -name check_cpp.exe | head -1)
      [ -n "$exe" ] || { echo "$round $p $fp $backend missing"; continue; }
      rate=$(cd "$(dirname "$exe")" && taskset -c "$core" ./check_cpp.exe -p $((events / 32)) 32 \
               "${iterations[$(particles "$p")]}" 2>&1 |
             sed -n 's/.*EvtsPerSec\[MECalcOnly\] (3a) = ( *\([0-9.e+-]*\) .*/\1/p' | head -1)
      echo "$round $p $fp $backend ${rate:-failed}"
    done | tee -a "$work/cudacpp.txt"
    taskset -c "$core" "$hepex" me --processes "$p" --precisions double,float --simd "$simd" \
      --batches "$events" --warmup 1 --repeats "${repeats[$(particles "$p")]}" --json "$work/hepex_${round}_$p.json" \
      | tee -a "$work/hepex.log"
  done
done

# The table: medians over the rounds; hepex / CUDACPP's best build per round.
python3 - "$work" "$processes" <<'EOF'
import collections, glob, json, os, statistics, sys
work = sys.argv[1]
order = sys.argv[2].split()
cudacpp = collections.defaultdict(lambda: collections.defaultdict(dict))  # key -> round -> build
for line in open(f"{work}/cudacpp.txt").read().split("\n")[1:]:
    f = line.split()
    if len(f) == 5 and f[4] not in ("failed", "missing"):
        cudacpp[(f[1], {"d": "double", "f": "float"}[f[2]])][int(f[0])][f[3]] = float(f[4])
hepex = collections.defaultdict(lambda: collections.defaultdict(dict))  # key -> simd -> round
for name in glob.glob(f"{work}/hepex_*.json"):
    round_ = int(os.path.basename(name).split("_")[1])  # hepex_ROUND_PROCESS.json
    for r in json.load(open(name))["rows"]:
        hepex[(r["process"], r["precision"])][r["simd"]][round_] = (
            r["mes_per_second"], r["events"] / r["thread_cpu_seconds"])
builds = ["cppnone", "cppavx2", "cpp512y", "cpp512z"]
print("| process | precision | " + " | ".join(f"CUDACPP {b[3:]}" for b in builds) +
      " | hepex none | hepex auto (simd) | hepex auto, thread CPU | auto / none |"
      " auto / best CUDACPP, per round | median |")
print("|---|---|" + "---:|" * (len(builds) + 6))
median = statistics.median
for key in sorted(hepex, key=lambda k: (order.index(k[0]), k[1])):
    c, h = cudacpp.get(key, {}), hepex[key]
    simd = next((s for s in h if s != "none"), "none")
    auto = h[simd]
    cell = lambda b: (f"{median(c[r][b] for r in c if b in c[r]):.4g}"
                      if any(b in c[r] for r in c) else "-")
    wall = median(v[0] for v in auto.values())
    cpu = median(v[1] for v in auto.values())
    none = median(v[0] for v in h["none"].values()) if "none" in h else None
    ratios = [auto[r][0] / max(c[r].values()) for r in sorted(auto) if c.get(r)]
    print(f"| {key[0]} | {key[1]} | " + " | ".join(cell(b) for b in builds) +
          f" | {f'{none:.4g}' if none else '-'} | {wall:.4g} ({simd}) | {cpu:.4g} |"
          f" {f'{wall / none:.2f}' if none else '-'} | {', '.join(f'{x:.2f}' for x in ratios)} |"
          f" {f'{median(ratios):.2f}' if ratios else '-'} |")
EOF
