#!/usr/bin/env bash
# Issue 23's throughput criterion: the ME with the generator's per-event
# inputs (gs, rndhel, rndcol, igraph -> ME, selhel, selcol) against the plain
# ME, same process, precision and batch, in interleaved rounds (`hepex_bench
# me --choices off,on`, one process at a time, so that each round times off
# and on back to back). Prints the median rate of each and their ratio.
# CHOICES=off,on,channels adds MadEvent's channel ids (the ME times the
# channel weight, issue 39), each compared with off.
#   ROUNDS=3 BATCHES=1024,65536 bash perf/amplitudes/run_me_choices_bench.sh HEPEX_BENCH OUT_DIR
set -euo pipefail
hepex=${1:?usage: run_me_choices_bench.sh HEPEX_BENCH OUT_DIR}
out=${2:?usage: run_me_choices_bench.sh HEPEX_BENCH OUT_DIR}
rounds=${ROUNDS:-3}
batches=${BATCHES:-65536}
precisions=${PRECISIONS:-double,mixed,float}
choices=${CHOICES:-off,on}
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
  for p in gg_tt gg_ttg gg_ttgg gg_ttggg; do
    "$hepex" me --processes "$p" --precisions "$precisions" --choices "$choices" \
      --batches "$batches" --json "$out/choices_${p}_round$r.json" >> "$out/choices_bench.log"
  done
done
python3 - "$out" "$rounds" <<'PY'
import glob, json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
rates = {}
for path in sorted(glob.glob(f"{out}/choices_*_round*.json")):
    for row in json.load(open(path))["rows"]:
        key = (row["process"], row["precision"], row["events"])
        choice = "off" if not row["choices"] else "channels" if row.get("channels") else "on"
        rates.setdefault(key, {}).setdefault(choice, []).append(row["mes_per_second"])
print(f"| process | precision | events | choices | plain MEs/s | with choices MEs/s | ratio (median of {rounds}) | ratio per round |")
print("|---|---|---:|---|---:|---:|---:|---|")
for (process, precision, events), by in sorted(rates.items()):
    off = by["off"]
    for choice in ("on", "channels"):
        if choice not in by:
            continue
        ratios = [b / a for a, b in zip(off, by[choice])]
        print(f"| {process} | {precision} | {events} | {choice} | {statistics.median(off):.4g} | "
              f"{statistics.median(by[choice]):.4g} | {statistics.median(ratios):.3f} | "
              + " ".join(f"{x:.3f}" for x in ratios) + " |")
PY
