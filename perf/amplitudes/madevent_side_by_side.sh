#!/usr/bin/env bash
# MadEvent as MadGraph's tmad scripts run it (madgraph4gpu epochX/cudacpp/tmad/
# madX.sh: one iteration of NEVT points per channel, single-diagram
# enhancement on, the process's default cards), channel by channel, with
# MadGraph's Fortran MEs, with hepex through its Fortran bridge
# (examples/madevent/hepex.mk) and optionally with CUDACPP's C++ library, on
# the .mad directories of a madgraph4gpu checkout OUTSIDE this repository
# (copied into WORK; nothing of it enters hepex). Writes OUT/madevent_P.jsonl
# (one line per channel and backend: cross section, error, exit status,
# seconds, events written, events whose coloured particles lack a colour,
# addmothers failures) and prints per backend the sum over the channels
# with its error and the pull against Fortran.
#   bash perf/amplitudes/madevent_side_by_side.sh MG4GPU_DIR WORK [OUT]
# Environment: PROCESSES (default "gg_tt gg_ttg gg_ttgg"), BACKENDS (default
# "fortran hepex"; add fortran_sde2 for MadGraph's Fortran with sde_strategy
# 2, whose channels hepex's equal, and cppavx2, cppnone, ... for CUDACPP's;
# the first is the one the others are compared with), NEVT (8192),
# CHANNELS ("all", or a list of iconfigs), HEPEX (the directory of
# libhepex_madevent.so; default this repository's build/src).
set -euo pipefail
src=${1:?usage: madevent_side_by_side.sh MG4GPU_DIR WORK [OUT]}
work=${2:?}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${3:-$work/results}  # never perf/results/ (perf/README.md: copy what you keep there, named by the rule)
export HEPEX_DIR=${HEPEX:-$repo/build/src}
unset HEPEX
nevt=${NEVT:-8192}
mkdir -p "$work" "$out"
work=$(cd "$work" && pwd)
export CUDACPP_RUNTIME_VECSIZEUSED=$nevt
declare -A subdir=([gg_tt]=P1_gg_ttx [gg_ttg]=P1_gg_ttxg [gg_ttgg]=P1_gg_ttxgg [gg_ttggg]=P1_gg_ttxggg)
commit=$(git -C "$repo" rev-parse --short HEAD)
mg_commit=${MG4GPU_COMMIT:-$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)}
cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')

# The madevent of one backend in the process directory: madevent_BACKEND.
build() {
  local backend=$1 dir=$2
  case $backend in
    fortran) make -C "$dir" -j"$(nproc)" madevent_fortran ;;
    # MadGraph's Fortran with sde_strategy 2 (the channel weights hepex
    # gives): run_card.inc's SDE_STRAT is compiled in, so in a copy.
    fortran_sde2)
      local root=$work/$p.sde2.mad copy=$work/$p.sde2.mad/SubProcesses/${subdir[$p]}
      rm -rf "$root" && mkdir -p "$root" && cp -r "$src/epochX/cudacpp/$p.mad/." "$root/"
      sed -i 's/SDE_STRAT = 1/SDE_STRAT = 2/' "$root/Source/run_card.inc"
      grep -q "SDE_STRAT = 2" "$root/Source/run_card.inc"
      make -C "$copy" -j"$(nproc)" madevent_fortran
      cp "$copy/madevent_fortran" "$dir/madevent_fortran_sde2" ;;
    hepex) HEPEX=$HEPEX_DIR make -C "$dir" -j"$(nproc)" USEBUILDDIR=1 BACKEND=cppnone FPTYPE=d madevent_cppnone_link
           cp "$dir/build.none_d_inl0_hrd0/madevent_cpp" "$dir/madevent_hepex" ;;
    # CUDACPP's: run where it was built (its run path is relative to it).
    *) make -C "$dir" -j"$(nproc)" USEBUILDDIR=1 BACKEND="$backend" FPTYPE=d "madevent_${backend}_link"
       ln -sfn "build.${backend#cpp}_d_inl0_hrd0/madevent_cpp" "$dir/madevent_$backend" ;;
  esac
}

# Events of an LHE file, and the coloured particles without their colour.
lhe_colours() { awk -f "$here/lhe_colours.awk" "$1"; }

for p in ${PROCESSES:-gg_tt gg_ttg gg_ttgg}; do
  rm -rf "$work/$p.mad" && mkdir -p "$work/$p.mad"
  cp -r "$src/epochX/cudacpp/$p.mad/." "$work/$p.mad/"
  bash "$repo/examples/madevent/use_hepex.sh" "$work/$p.mad" > /dev/null
  dir="$work/$p.mad/SubProcesses/${subdir[$p]}"
  for b in ${BACKENDS:-fortran hepex}; do build "$b" "$dir" > "$work/$p.build_$b.log" 2>&1; done
  nconfig=$(grep -o "MAPCONFIG(0)/[0-9]*" "$dir/configs.inc" | cut -d/ -f2)
  channels=${CHANNELS:-all}
  [ "$channels" = all ] && channels=$(seq 1 "$nconfig")
  json="$out/madevent_$p.jsonl"
  echo "{\"date\": \"$(date -u +%F)\", \"commit\": \"$commit\", \"madgraph4gpu\": \"$mg_commit\", \"process\": \"$p\", \"cpu\": \"$cpu\", \"events_per_channel\": $nevt, \"script\": \"perf/amplitudes/madevent_side_by_side.sh\", \"backends\": \"${BACKENDS:-fortran hepex}\"}" > "$json"
  for ch in $channels; do
    printf "%s 1 1 ! Number of events and max and min iterations\n0.000001 ! Accuracy\n0 ! Grid Adjustment 0=none\n1 ! Suppress Amplitude 1=yes\n0 ! Helicity Sum/event 0=exact\n%s ! ICONFIG number\n" "$nevt" "$ch" > "$work/$p.in_$ch"
    for b in ${BACKENDS:-fortran hepex}; do
      log="$work/$p.$b.$ch"
      rm -f "$dir/events.lhe" "$dir/results.dat" "$dir/ftn25" "$dir/ftn26"
      start=$(date +%s.%N)
      set +e
      (cd "$dir" && "./madevent_$b" < "$work/$p.in_$ch" > "$log.out" 2> "$log.err")
      rc=$?
      set -e
      seconds=$(printf "%.3f" "$(echo "$(date +%s.%N) - $start" | bc)")
      line=$(grep -a -E "^ +1 +[0-9.E+-]+ +[0-9.E+-]+ +\+- +[0-9.E+-]+" "$log.out" | tail -1 || true)
      # The error from the iteration's line, the cross section in full from "Actual xsec".
      err=$(echo "$line" | awk '{print 0+$5}')
      xsec=$(grep -a "Actual xsec" "$log.out" | awk '{print $NF}' | tail -1 || true)
      read -r events uncoloured < <(lhe_colours "$dir/events.lhe" 2>/dev/null || echo "0 0")
      failures=$(grep -a -c "failed to reduce to color indices" "$log.out" || true)
      fpe=$(grep -a -c "IEEE_" "$log.err" || true)
      lhe=$(md5sum "$dir/events.lhe" 2>/dev/null | cut -c1-12 || echo none)
      # MadEvent's own counters (CUDACPP's counters.cc): the MEs' throughput inside it.
      rate=$(grep -a -E "\[COUNTERS\] (CudaCpp|Fortran) MEs" "$log.out" | grep -o "throughput is [0-9.E+-]*" | awk '{print 0+$3}' || true)
      echo "{\"channel\": $ch, \"backend\": \"$b\", \"exit\": $rc, \"xsec_pb\": ${xsec:-null}, \"error_pb\": ${err:-null}, \"seconds\": $seconds, \"events\": $events, \"events_without_colour\": $uncoloured, \"addmothers_failures\": $failures, \"fpe_lines\": $fpe, \"lhe_md5\": \"$lhe\", \"me_per_second\": ${rate:-null}}" >> "$json"
    done
  done
  python3 - "$json" <<'PY'
import json, math, sys
rows = [json.loads(l) for l in open(sys.argv[1])][1:]
backends = sorted({r["backend"] for r in rows}, key=lambda b: (b != "fortran", b))
total = {}
for b in backends:
    mine = [r for r in rows if r["backend"] == b]
    bad = [r["channel"] for r in mine if r["exit"] != 0 or r["xsec_pb"] is None]
    x = sum(r["xsec_pb"] or 0 for r in mine)
    e = math.sqrt(sum((r["error_pb"] or 0) ** 2 for r in mine))
    total[b] = (x, e)
    me_rates = sorted(r["me_per_second"] for r in mine if r.get("me_per_second"))
    rate = f", MEs/s in MadEvent (median) {me_rates[len(me_rates) // 2]:.3g}" if me_rates else ""
    line = (f"{b:10s} {len(mine)} channels, sum {x:.6g} +- {e:.3g} pb, {sum(r['seconds'] for r in mine):.1f} s{rate}, "
            f"exit != 0: {bad or 'none'}, events {sum(r['events'] for r in mine)}, "
            f"without colour {sum(r['events_without_colour'] for r in mine)}, "
            f"addmothers failures {sum(r['addmothers_failures'] for r in mine)}, FPE lines {sum(r['fpe_lines'] for r in mine)}")
    if b != "fortran" and "fortran" in total:
        (xf, ef) = total["fortran"]
        line += f", pull vs fortran {(x - xf) / math.sqrt(e * e + ef * ef):+.2f} sigma"
    print(line)
# hepex's channels against MadGraph's Fortran with the same partition (sde_strategy 2).
pairs = {}
for r in rows:
    pairs.setdefault(r["channel"], {})[r["backend"]] = r
both = [c for c in pairs.values() if "hepex" in c and "fortran_sde2" in c]
if both:
    worst = max(abs(c["hepex"]["xsec_pb"] / c["fortran_sde2"]["xsec_pb"] - 1) for c in both)
    same = sum(c["hepex"]["lhe_md5"] == c["fortran_sde2"]["lhe_md5"] for c in both)
    print(f"hepex vs fortran_sde2: {len(both)} channels, largest relative difference of a channel's "
          f"cross section {worst:.3g}, identical LHE files in {same}")
PY
done
