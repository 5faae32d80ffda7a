#!/usr/bin/env bash
# MadEvent's own ME throughput on one CPU core, backends interleaved: in a
# process directory prepared by madevent_side_by_side.sh (its
# WORK/PROCESS.mad/SubProcesses/P1_*, with madevent_hepex and
# madevent_cppXXX built there), every round runs each backend once per
# channel (tmad's input: one iteration of NEVT points, single-diagram
# enhancement on) under taskset, so that a slow moment of the machine falls
# on all backends alike. Prints one JSON line per run (MadEvent's
# "[COUNTERS] CudaCpp MEs" throughput, the cross section, the exit status)
# and per backend the median over all runs.
#   bash perf/amplitudes/madevent_one_core.sh P1_DIR OUT.jsonl
# Environment: BACKENDS ("hepex cpp512z"), CHANNELS ("1 2 3"), ROUNDS (3),
# NEVT (32768), VECSIZE (CUDACPP_RUNTIME_VECSIZEUSED, 8192), CORE (1).
set -euo pipefail
dir=$(cd "${1:?usage: madevent_one_core.sh P1_DIR OUT.jsonl}" && pwd)
out=${2:?}
export CUDACPP_RUNTIME_VECSIZEUSED=${VECSIZE:-8192}
here=$(cd "$(dirname "$0")" && pwd)
commit=$(git -C "$here" rev-parse --short HEAD)
echo "{\"date\": \"$(date -u +%F)\", \"commit\": \"$commit\", \"dir\": \"$dir\", \"cpu\": \"$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')\", \"core\": ${CORE:-1}, \"events_per_channel\": ${NEVT:-32768}, \"vecsize\": $CUDACPP_RUNTIME_VECSIZEUSED, \"script\": \"perf/amplitudes/madevent_one_core.sh\"}" > "$out"
input=$(mktemp)
trap 'rm -f "$input"' EXIT
for round in $(seq 1 "${ROUNDS:-3}"); do
  for ch in ${CHANNELS:-1 2 3}; do
    printf "%s 1 1 ! Number of events and max and min iterations\n0.000001 ! Accuracy\n0 ! Grid Adjustment 0=none\n1 ! Suppress Amplitude 1=yes\n0 ! Helicity Sum/event 0=exact\n%s ! ICONFIG number\n" "${NEVT:-32768}" "$ch" > "$input"
    for b in ${BACKENDS:-hepex cpp512z}; do
      rm -f "$dir/events.lhe" "$dir/results.dat" "$dir/ftn25" "$dir/ftn26"
      set +e
      log=$(cd "$dir" && taskset -c "${CORE:-1}" "./madevent_$b" < "$input" 2>&1)
      rc=$?
      set -e
      rate=$(grep -a "CudaCpp MEs" <<< "$log" | sed 's/.*throughput is *//; s/ .*//' || true)
      xsec=$(grep -a "Actual xsec" <<< "$log" | awk '{print $NF}' | tail -1 || true)
      echo "{\"round\": $round, \"channel\": $ch, \"backend\": \"$b\", \"exit\": $rc, \"xsec_pb\": ${xsec:-null}, \"me_per_second\": ${rate:-null}}" | tee -a "$out"
    done
  done
done
python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])][1:]
medians = {}
for b in dict.fromkeys(r["backend"] for r in rows):
    rates = [r["me_per_second"] for r in rows if r["backend"] == b and r["me_per_second"]]
    medians[b] = statistics.median(rates)
    print(f"{b}: median {medians[b]:.4g} MEs/s over {len(rates)} runs "
          f"(range {min(rates):.4g} - {max(rates):.4g}), exits {sorted({r['exit'] for r in rows if r['backend'] == b})}")
first = next(iter(medians))
for b, m in medians.items():
    if b != first:
        print(f"{first} / {b}: {medians[first] / m:.3f}")
PY
