#!/usr/bin/env bash
# FiniteFlow (peraro/finiteflow) on NeatIBP's shipped massless double box, the
# anchor beside `hepex reduce` (run_neatibp_dbox.sh): the same files
# (yzhphy/NeatIBP examples/dbox: outputs/dbox/results/IBP_all.txt,
# OrderedIntegrals.txt, MI_all.txt, targetIntegrals.txt; parameters d, s, t),
# read from a checkout or git mirror fetched beforehand (nothing is
# downloaded, nothing of NeatIBP or FiniteFlow is copied into this
# repository), converted by to_finiteflow_input.py (unknowns ordered as
# OrderedIntegrals.txt, most complex first), reduced by
# finiteflow_reduce_driver.cpp on one core (taskset -c $CORE): learn,
# mark and sweep, reconstruction over Q with FiniteFlow's default options,
# one thread. Prints the driver's JSON line (timings, masters, primes,
# evaluations, sample points) with wall_seconds of the whole process and
# same_masters (against MI_all.txt) added.
# FiniteFlow must be built and installed beforehand by build_finiteflow.sh
# (FF_PREFIX, default $ANCHORS/finiteflow-install); this script compiles the
# driver against it (into $ANCHORS/finiteflow_reduce_driver, rebuilt when the
# .cpp is newer).
#   NEATIBP=/path/to/NeatIBP (a work tree, or a bare mirror: read with git show)
#   ANCHORS=/work/anchors  FF_PREFIX=$ANCHORS/finiteflow-install  CORE=1
#   OUT=dir (kept: the NeatIBP files, ff_input.txt, table.txt, summary.json)
#   HEPEX_TABLE=file (optional: a `hepex reduce` table of the same system to
#     compare with, by compare_tables.py; exit 1 if they differ)
set -euo pipefail
PERF=$(cd "$(dirname "$0")" && pwd)
NEATIBP=${NEATIBP:?set NEATIBP to a NeatIBP checkout or mirror}
ANCHORS=${ANCHORS:-/work/anchors}
FF_PREFIX=${FF_PREFIX:-$ANCHORS/finiteflow-install}
CORE=${CORE:-1}
PYTHON=${PYTHON:-python3}
OUT=${OUT:-$(mktemp -d /tmp/finiteflow_dbox.XXXXXX)}
DRIVER=$ANCHORS/finiteflow_reduce_driver
log() { echo "[finiteflow_dbox] $*" >&2; }
mkdir -p "$OUT"

if [ ! -f "$FF_PREFIX/lib/libfflow.so" ] || [ ! -f "$FF_PREFIX/include/fflow/graph.hh" ]; then
  log "no FiniteFlow in $FF_PREFIX: run perf/reduce/build_finiteflow.sh first"
  exit 1
fi
if [ ! -x "$DRIVER" ] || [ "$PERF/finiteflow_reduce_driver.cpp" -nt "$DRIVER" ]; then
  g++ -std=c++17 -O2 -I"$FF_PREFIX/include" "$PERF/finiteflow_reduce_driver.cpp" -o "$DRIVER" \
    -L"$FF_PREFIX/lib" -Wl,-rpath,"$FF_PREFIX/lib" -lfflow -lflint -lgmp -pthread
fi

get() {  # get PATH-IN-NEATIBP DEST
  if [ -f "$NEATIBP/$1" ]; then cp "$NEATIBP/$1" "$2"; else git -C "$NEATIBP" show "HEAD:$1" > "$2"; fi
}
R=examples/dbox/outputs/dbox/results
get "$R/IBP_all.txt" "$OUT/IBP_all.txt"
get "$R/OrderedIntegrals.txt" "$OUT/OrderedIntegrals.txt"
get "$R/MI_all.txt" "$OUT/MI_all.txt"
get examples/dbox/targetIntegrals.txt "$OUT/targetIntegrals.txt"
"$PYTHON" "$PERF/to_finiteflow_input.py" "$OUT/IBP_all.txt" "$OUT/OrderedIntegrals.txt" \
  "$OUT/targetIntegrals.txt" d,s,t "$OUT/ff_input.txt"
log "FiniteFlow $(cat "$ANCHORS/finiteflow-src/COMMIT" 2>/dev/null || echo '(commit unknown)'), core $CORE"

start=$(date +%s.%N)
taskset -c "$CORE" "$DRIVER" "$OUT/ff_input.txt" --out "$OUT/table.txt" > "$OUT/driver.json"
end=$(date +%s.%N)
"$PYTHON" - "$OUT" "$start" "$end" <<'PY'
import json, re, sys
out, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
summary = json.loads(open(f"{out}/driver.json").read().strip().splitlines()[-1])
norm = lambda t: re.sub(r"\s+", "", t)
theirs = sorted(norm(m) for m in re.findall(r"G\[[^\]]*\]", open(f"{out}/MI_all.txt").read()))
summary["wall_seconds"] = round(end - start, 3)
summary["same_masters"] = sorted(summary["masters"]) == theirs
json.dump(summary, open(f"{out}/summary.json", "w"), indent=1)
print(json.dumps(summary))
if not summary["same_masters"]:
    sys.exit(f"masters differ: FiniteFlow {summary['masters']}, NeatIBP {theirs}")
PY
if [ -n "${HEPEX_TABLE:-}" ]; then
  "$PYTHON" "$PERF/compare_tables.py" "$OUT/table.txt" "$HEPEX_TABLE" >&2
fi
log "table: $OUT/table.txt"
