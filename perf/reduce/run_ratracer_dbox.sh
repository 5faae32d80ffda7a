#!/usr/bin/env bash
# Ratracer (magv/ratracer; perf/reduce/build_ratracer.sh builds it outside the
# repository) on NeatIBP's shipped massless double box (yzhphy/NeatIBP,
# examples/dbox: outputs/dbox/results/IBP_all.txt, OrderedIntegrals.txt,
# MI_all.txt, targetIntegrals.txt; parameters d, s, t), read from a checkout
# or git mirror of NeatIBP fetched beforehand (nothing is downloaded), one
# thread on one core (taskset), beside `hepex reduce` on the same core.
# The pipeline is the one of Ratracer's README for linear systems:
#   define-family G_r0 --indices=9 ... (ORDER=neatibp: NeatIBP's order)
#   load-equations dbox.eqns       (to_kira_equations.py: Kira's format)
#   solve-equations                (traced Gaussian elimination + back substitution)
#   choose-equation-outputs        (every reduced row's coefficients as outputs)
#   keep-outputs keep.txt          (only the 16 targets' rows: CO[TARGET,*])
#   optimize finalize              (constant propagation, dead code, low-level code)
#   reconstruct --threads=1 $RECONSTRUCT_ARGS --to=table.raw   (FireFly)
# ORDER=neatibp gives every integral its own family, numbered in NeatIBP's
# OrderedIntegrals.txt order (Ratracer orders by family first), so Ratracer
# eliminates in NeatIBP's order, as hepex does with --order; ORDER=ratracer
# keeps the name G and Ratracer's own order (more positive indices, then a
# larger sum of |indices|, then the indices), whose masters are compared with
# NeatIBP's all the same. ratracer_table.py writes the table in hepex's format
# and compares it, coefficient by coefficient at random rational points, with
# hepex's table (same masters per target required), compare_tables.py (if
# present) compares the two exactly (sympy); check_table.py checks
# Ratracer's table against an independent elimination (ORDER=neatibp).
# Times are Ratracer's own log clock: trace = load-equations .. finalize,
# reconstruct = FireFly's reconstruction (probes and their average time as
# FireFly reports them).
#   NEATIBP=/path/to/NeatIBP (a work tree, or a bare mirror: read with git show)
#   RATRACER_BIN=/work/anchors/ratracer-src/ratracer  CORE=1  ORDER=neatibp|ratracer
#   RECONSTRUCT_ARGS="--inmem --factor-scan --shift-scan"
#   HEPEX=build/src/hepex (empty: no hepex run)  HEPEX_TABLE=table (compare with it
#   instead of running hepex)  SEED=1  OUT=dir (kept: dbox.eqns, ratracer.log,
#   table.raw, table.txt, hepex/table.txt ...)
# Prints one JSON line.
set -euo pipefail
PERF=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$PERF/../.." && pwd)
NEATIBP=${NEATIBP:?set NEATIBP to a NeatIBP checkout or mirror}
RATRACER_BIN=${RATRACER_BIN:-/work/anchors/ratracer-src/ratracer}
CORE=${CORE:-1}
ORDER=${ORDER:-neatibp}
RECONSTRUCT_ARGS=${RECONSTRUCT_ARGS:---inmem --factor-scan --shift-scan}
HEPEX=${HEPEX-$REPO/build/src/hepex}
HEPEX_TABLE=${HEPEX_TABLE:-}
SEED=${SEED:-1}
OUT=${OUT:-$(mktemp -d /tmp/ratracer_dbox.XXXXXX)}
mkdir -p "$OUT"
log() { echo "[ratracer_dbox] $*" >&2; }
get() {  # get PATH-IN-NEATIBP DEST
  if [ -f "$NEATIBP/$1" ]; then cp "$NEATIBP/$1" "$2"; else git -C "$NEATIBP" show "HEAD:$1" > "$2"; fi
}
R=examples/dbox/outputs/dbox/results
get "$R/IBP_all.txt" "$OUT/IBP_all.txt"
get "$R/OrderedIntegrals.txt" "$OUT/OrderedIntegrals.txt"
get "$R/MI_all.txt" "$OUT/MI_all.txt"
get examples/dbox/targetIntegrals.txt "$OUT/targetIntegrals.txt"

families=()
case $ORDER in
  neatibp)
    python3 "$PERF/to_kira_equations.py" "$OUT/IBP_all.txt" "$OUT/dbox.eqns" --vars d,s,t \
      --order "$OUT/OrderedIntegrals.txt" --families "$OUT/families.txt" \
      --targets "$OUT/targetIntegrals.txt" --keep "$OUT/keep.txt"
    while read -r fam; do families+=(define-family "$fam" --indices=9); done < "$OUT/families.txt" ;;
  ratracer)
    python3 "$PERF/to_kira_equations.py" "$OUT/IBP_all.txt" "$OUT/dbox.eqns" --vars d,s,t \
      --targets "$OUT/targetIntegrals.txt" --keep "$OUT/keep.txt" ;;
  *) log "ORDER is neatibp or ratracer"; exit 1 ;;
esac

# shellcheck disable=SC2086  # RECONSTRUCT_ARGS are words
log "ratracer ($ORDER order) on core $CORE"
start=$(date +%s.%N)
(cd "$OUT" && TMPDIR="$OUT" taskset -c "$CORE" "$RATRACER_BIN" \
  "${families[@]}" \
  load-equations dbox.eqns \
  solve-equations \
  choose-equation-outputs \
  keep-outputs keep.txt \
  optimize \
  finalize \
  reconstruct --threads=1 $RECONSTRUCT_ARGS --to=table.raw) > "$OUT/ratracer.log" 2>&1 \
  || { tail -20 "$OUT/ratracer.log" >&2; log "ratracer failed"; exit 1; }
end=$(date +%s.%N)
echo "$start $end" > "$OUT/ratracer.wall"

compare=()
if [ -z "$HEPEX_TABLE" ] && [ -n "$HEPEX" ] && [ -x "$HEPEX" ]; then
  mkdir -p "$OUT/hepex"
  log "hepex reduce on core $CORE"
  hstart=$(date +%s.%N)
  taskset -c "$CORE" "$HEPEX" reduce "$OUT/IBP_all.txt" --vars d,s,t --order "$OUT/OrderedIntegrals.txt" \
    --targets "$OUT/targetIntegrals.txt" --seed "$SEED" --out "$OUT/hepex/table.txt" \
    --json "$OUT/hepex/summary.json" > "$OUT/hepex/log.txt" 2>&1
  hend=$(date +%s.%N)
  echo "$hstart $hend" > "$OUT/hepex/wall"
  HEPEX_TABLE=$OUT/hepex/table.txt
fi
[ -n "$HEPEX_TABLE" ] && compare=(--compare "$HEPEX_TABLE" --vars d,s,t)
python3 "$PERF/ratracer_table.py" "$OUT/table.raw" "$OUT/table.txt" --targets "$OUT/targetIntegrals.txt" \
  --masters "$OUT/MI_all.txt" "${compare[@]}" > "$OUT/table.json" || true
exact=skipped  # compare_tables.py (sympy, exact) when it is there
if [ -n "$HEPEX_TABLE" ] && [ -f "$PERF/compare_tables.py" ]; then
  if python3 "$PERF/compare_tables.py" "$OUT/table.txt" "$HEPEX_TABLE" > "$OUT/compare_tables.txt" 2>&1
  then exact=equal; else exact=differ; fi
fi
independent=skipped
if [ "$ORDER" = neatibp ]; then
  if python3 "$PERF/check_table.py" "$OUT/IBP_all.txt" "$OUT/OrderedIntegrals.txt" "$OUT/table.txt" d,s,t 2 \
      > "$OUT/check_table.txt" 2>&1; then independent=agrees; else independent=differs; fi
fi

python3 - "$OUT" "$ORDER" "$RECONSTRUCT_ARGS" "$independent" "$exact" <<'PY'
import json, os, re, sys
out, order, rargs, independent, exact = sys.argv[1:6]
raw = re.sub(r"\x1b\[[0-9;]*m", "", open(f"{out}/ratracer.log").read())
# Ratracer's log: "SECONDS +DELTA * command" at each command's start.
starts = [(float(t), c) for t, c in re.findall(r"^\s*([\d.]+) \+[\d.]+ \* (\S+)", raw, re.M)]
def at(cmd):
    return next(t for t, c in starts if c == cmd)
start, wall_end = (float(x) for x in open(f"{out}/ratracer.wall").read().split())
res = {"tool": "ratracer", "order": order, "reconstruct_args": rargs,
       "trace_s": round(at("reconstruct") - at("load-equations"), 3),
       "solve_s": round(at("choose-equation-outputs") - at("solve-equations"), 3),
       "optimize_finalize_s": round(at("reconstruct") - at("optimize"), 3),
       "reconstruct_s": round(at("done") - at("reconstruct"), 3),
       "total_s": round(at("done"), 3), "wall_s": round(wall_end - start, 3)}
m = re.findall(r"Completed reconstruction in [\d.]+ s \| (\d+) probes in total", raw)
if m: res["probes"] = int(m[-1])
m = re.findall(r"Average time of the black-box probe: ([\d.e+-]+) s", raw)
if m: res["probe_s"] = float(m[-1])
m = re.findall(r"Required prime fields: (\d+) \+ (\d+)", raw)
if m: res["primes"] = int(m[-1][0]) + int(m[-1][1])
m = re.findall(r"Chosen (\d+) outputs", raw)
if m: res["outputs_all_rows"] = int(m[-1])
m = re.findall(r"Reconstructing in (\d+) \(out of", raw)
if m: res["variables"] = int(m[-1])
m = re.findall(r"Runtime: ([\d.]+)s user time, ([\d.]+)s system time, (\S+) maximum RSS", raw)
if m: res["user_s"], res["sys_s"], res["max_rss"] = float(m[-1][0]), float(m[-1][1]), m[-1][2]
table = json.load(open(f"{out}/table.json")) if os.path.getsize(f"{out}/table.json") else {}
res.update(masters=table.get("masters"), same_masters_as_neatibp=table.get("same_masters"))
if "agree" in table:
    res["agrees_with_hepex"] = table["agree"]
    if "difference" in table: res["difference"] = table["difference"]
res["compare_tables"] = exact
res["independent_check"] = independent
if os.path.exists(f"{out}/hepex/wall"):
    hs, he = (float(x) for x in open(f"{out}/hepex/wall").read().split())
    h = {"wall_s": round(he - hs, 3)}
    try:
        s = json.load(open(f"{out}/hepex/summary.json"))
        h.update({k: s[k] for k in ("probes", "primes") if k in s})
    except Exception:
        h["error"] = "no summary (see hepex/log.txt)"
    res["hepex"] = h
res["out"] = out
print(json.dumps(res))
PY
