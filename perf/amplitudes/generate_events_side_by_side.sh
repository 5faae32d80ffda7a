#!/usr/bin/env bash
# MadGraph's bin/generate_events, unchanged, on a .mad directory of a
# madgraph4gpu checkout OUTSIDE this repository (copied into WORK): once
# with MadGraph's Fortran MEs (cudacpp_backend = fortran) and once with
# hepex's (examples/madevent/use_hepex.sh, HEPEX in the environment,
# cudacpp_backend = cppnone), default cards but nevents. Writes
# OUT/generate_events_P.jsonl: cross section, error, events, events whose
# coloured particles lack a colour, and the pull of hepex against Fortran.
#   bash perf/amplitudes/generate_events_side_by_side.sh MG4GPU_DIR WORK [OUT]
# Environment: PROCESSES (default "gg_tt gg_ttgg"), NEVENTS (2000), HEPEX
# (the directory of libhepex_madevent.so; default this repository's build/src).
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
  for b in fortran hepex; do
    mad="$work/$p.$b.mad"
    rm -rf "$mad" && mkdir -p "$mad" && cp -r "$src/epochX/cudacpp/$p.mad/." "$mad/"
    sed -i "s/^ *[0-9]* *= *nevents .*/ ${NEVENTS:-2000} = nevents ! Number of unweighted events requested/" "$mad/Cards/run_card.dat"
    if [ "$b" = hepex ]; then
      bash "$repo/examples/madevent/use_hepex.sh" "$mad" > /dev/null
      sed -i 's/^.*= *cudacpp_backend.*/ cppnone = cudacpp_backend ! CUDACPP backend/' "$mad/Cards/run_card.dat"
      (cd "$mad" && HEPEX=$hepex_dir python3 ./bin/generate_events -f > "$work/$p.$b.log" 2>&1)
    else
      sed -i 's/^.*= *cudacpp_backend.*/ fortran = cudacpp_backend ! CUDACPP backend/' "$mad/Cards/run_card.dat"
      (cd "$mad" && python3 ./bin/generate_events -f > "$work/$p.$b.log" 2>&1)
    fi
    read -r xsec err < <(grep "Cross-section :" "$work/$p.$b.log" | tail -1 | awk '{print $3, $5}')
    lhe=$(ls "$mad"/Events/run_01/unweighted_events.lhe.gz)
    read -r events uncoloured < <(zcat "$lhe" | awk -f "$here/lhe_colours.awk")
    linked=$(ldd "$mad/SubProcesses/"P1_*/madevent | grep -o "libhepex_madevent.so\|libmg5amc_[a-z_]*.so" | head -1 || echo fortran)
    echo "{\"backend\": \"$b\", \"xsec_pb\": $xsec, \"error_pb\": $err, \"events\": $events, \"events_without_colour\": $uncoloured, \"madevent_links\": \"$linked\"}" >> "$json"
  done
  python3 - "$json" <<'PY'
import json, math, sys
rows = {r["backend"]: r for r in map(json.loads, list(open(sys.argv[1]))[1:])}
f, h = rows["fortran"], rows["hepex"]
pull = (h["xsec_pb"] - f["xsec_pb"]) / math.hypot(h["error_pb"], f["error_pb"])
print(f"{sys.argv[1]}: fortran {f['xsec_pb']} +- {f['error_pb']} pb, hepex {h['xsec_pb']} +- {h['error_pb']} pb "
      f"({pull:+.2f} sigma), events {f['events']} / {h['events']}, hepex events without colour {h['events_without_colour']}")
PY
done
