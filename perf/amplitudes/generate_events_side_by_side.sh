#!/usr/bin/env bash
# MadGraph's bin/generate_events, unchanged, on a .mad directory of a
# madgraph4gpu checkout OUTSIDE this repository (copied into WORK): once
# with MadGraph's Fortran MEs (cudacpp_backend = fortran), once with
# hepex's (examples/madevent/use_hepex.sh, HEPEX in the environment,
# cudacpp_backend = cppnone) and, if asked, once with CUDACPP's own C++
# (cudacpp_backend = CUDACPP_BACKEND), default cards but nevents. Writes
# OUT/generate_events_P.jsonl: cross section, error, events, events whose
# coloured particles lack a colour, which ME library every P directory's
# madevent links, the wall time of generate_events (building included) and
# MadEvent's own counters summed over its jobs (PROGRAM TOTAL, and the ME
# time and events: "[COUNTERS] ... MEs"), and the pull of hepex and CUDACPP
# against Fortran.
#   bash perf/amplitudes/generate_events_side_by_side.sh MG4GPU_DIR WORK [OUT]
# Environment: PROCESSES (default "gg_tt gg_ttgg"; pp_tt012j runs all its 18
# P directories), NEVENTS (2000), BACKENDS (default "fortran hepex"; add
# cudacpp), CUDACPP_BACKEND (default cppauto), HEPEX (the directory of
# libhepex_madevent.so; default this repository's build/src).
set -euo pipefail
src=${1:?usage: generate_events_side_by_side.sh MG4GPU_DIR WORK [OUT]}
work=${2:?}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${3:-$work/results}  # never perf/results/ (perf/README.md: copy what you keep there, named by the rule)
hepex_dir=${HEPEX:-$repo/build/src}
unset HEPEX
mkdir -p "$work" "$out"
work=$(cd "$work" && pwd)
commit=$(git -C "$repo" rev-parse --short HEAD)
for p in ${PROCESSES:-gg_tt gg_ttgg}; do
  json="$out/generate_events_$p.jsonl"
  echo "{\"date\": \"$(date -u +%F)\", \"commit\": \"$commit\", \"process\": \"$p\", \"nevents\": ${NEVENTS:-2000}, \"script\": \"perf/amplitudes/generate_events_side_by_side.sh\"}" > "$json"
  for b in ${BACKENDS:-fortran hepex}; do
    mad="$work/$p.$b.mad"
    rm -rf "$mad" && mkdir -p "$mad" && cp -r "$src/epochX/cudacpp/$p.mad/." "$mad/"
    sed -i "s/^ *[0-9]* *= *nevents .*/ ${NEVENTS:-2000} = nevents ! Number of unweighted events requested/" "$mad/Cards/run_card.dat"
    start=$(date +%s)
    if [ "$b" = hepex ]; then
      bash "$repo/examples/madevent/use_hepex.sh" "$mad" > /dev/null
      sed -i 's/^.*= *cudacpp_backend.*/ cppnone = cudacpp_backend ! CUDACPP backend/' "$mad/Cards/run_card.dat"
      (cd "$mad" && HEPEX=$hepex_dir python3 ./bin/generate_events -f > "$work/$p.$b.log" 2>&1)
    else
      backend=fortran
      [ "$b" = cudacpp ] && backend=${CUDACPP_BACKEND:-cppauto}
      sed -i "s/^.*= *cudacpp_backend.*/ $backend = cudacpp_backend ! CUDACPP backend/" "$mad/Cards/run_card.dat"
      (cd "$mad" && python3 ./bin/generate_events -f > "$work/$p.$b.log" 2>&1)
    fi
    wall=$(($(date +%s) - start))
    read -r xsec err < <(grep "Cross-section :" "$work/$p.$b.log" | tail -1 | awk '{print $3, $5}')
    lhe=$(ls "$mad"/Events/run_01/unweighted_events.lhe.gz)
    read -r events uncoloured < <(zcat "$lhe" | awk -f "$here/lhe_colours.awk")
    # What each P directory's madevent links: libhepex_madevent.so, CUDACPP's
    # libmg5amc_*.so or neither (fortran); the distinct answers, counted.
    linked=$(for d in "$mad/SubProcesses/"P*/; do
               lib=$(ldd "$d/madevent" | grep -o "libhepex_madevent.so\|libmg5amc_[a-z0-9_]*.so" | head -1)
               echo "${lib:-fortran}"
             done | sed 's/libmg5amc_.*/libmg5amc/' | sort | uniq -c |
             awk '{printf "%s%s x %s", (NR > 1 ? ", " : ""), $1, $2}')
    read -r total me_seconds me_events < <(find "$mad/SubProcesses" -name run1_app.log -exec grep -h "COUNTERS" {} + |
      awk '/PROGRAM TOTAL/ {t += $5} / MEs / {m += $8; n += $10} END {print t + 0, m + 0, n + 0}')
    echo "{\"backend\": \"$b\", \"xsec_pb\": $xsec, \"error_pb\": $err, \"events\": $events, \"events_without_colour\": $uncoloured, \"madevent_links\": \"$linked\", \"wall_s\": $wall, \"madevent_program_total_s\": $total, \"madevent_me_s\": $me_seconds, \"madevent_me_events\": $me_events}" >> "$json"
  done
  python3 - "$json" <<'PY'
import json, math, sys
rows = {r["backend"]: r for r in map(json.loads, list(open(sys.argv[1]))[1:])}
f = rows.get("fortran")
for name, r in rows.items():
    rate = f"{r['madevent_me_events'] / r['madevent_me_s']:.4g}" if r["madevent_me_s"] else "-"
    line = (f"{sys.argv[1]}: {name} {r['xsec_pb']} +- {r['error_pb']} pb, {r['events']} events, "
            f"{r['events_without_colour']} without colour, links {r['madevent_links']}, "
            f"generate_events {r['wall_s']} s, madevent jobs {r['madevent_program_total_s']:.0f} s, "
            f"MEs {rate}/s")
    if f is not None and name != "fortran":
        pull = (r["xsec_pb"] - f["xsec_pb"]) / math.hypot(r["error_pb"], f["error_pb"])
        line += f", {pull:+.2f} sigma from fortran"
    print(line)
PY
done
