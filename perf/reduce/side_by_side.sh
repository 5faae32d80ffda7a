#!/usr/bin/env bash
# hepex reduce, FiniteFlow and Ratracer (+ FireFly) on the same IBP system,
# alternating, one thread on one core each (taskset), REPS times: the
# benchmark of perf/results/reduce. The anchors are built outside the
# repository by build_finiteflow.sh and build_ratracer.sh (from fetched
# mirrors; nothing of theirs is in the repository).
#   perf/reduce/side_by_side.sh SYSTEM ORDER TARGETS VARS
# SYSTEM: a Mathematica list of equations (NeatIBP's IBP_all.txt,
# laporta_generator.py's output); ORDER: every integral, most complex first;
# TARGETS: one a line or a list; VARS: d,s,t,...
# Every tool gets the same order: hepex --order, FiniteFlow's unknowns in
# that order (to_finiteflow_input.py), Ratracer one family per integral,
# numbered in that order (to_kira_equations.py).
# Environment: REPS (3), CORE (1), TOOLS ("hepex finiteflow ratracer"),
# HEPEX (build/src/hepex), FF_DRIVER (/work/anchors/finiteflow_reduce_driver),
# RATRACER_BIN (/work/anchors/ratracer-src/ratracer), OUT (kept: tables,
# logs, runs.jsonl). Wall seconds are each process's, start to exit, input
# conversion excluded. The tables are compared afterwards (compare_tables.py
# --numeric: every coefficient at 20 random rational points, exact).
set -euo pipefail
# Ratracer gets one define-family argument per integral (63,706 on the
# largest double box): more than the default 2 MB of arguments, a quarter of
# the stack limit.
ulimit -s unlimited 2>/dev/null || ulimit -s 1048576
PERF=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$PERF/../.." && pwd)
[ $# -eq 4 ] || { sed -n 2,19p "$0" >&2; exit 1; }
SYSTEM=$(realpath "$1") ORDER=$(realpath "$2") TARGETS=$(realpath "$3") VARS=$4
REPS=${REPS:-3}
CORE=${CORE:-1}
TOOLS=${TOOLS:-hepex finiteflow ratracer}
HEPEX=${HEPEX:-$REPO/build/src/hepex}
FF_DRIVER=${FF_DRIVER:-/work/anchors/finiteflow_reduce_driver}
RATRACER_BIN=${RATRACER_BIN:-/work/anchors/ratracer-src/ratracer}
OUT=${OUT:-$(mktemp -d /tmp/side_by_side.XXXXXX)}
mkdir -p "$OUT"
log() { echo "[side_by_side] $*" >&2; }
now() { date +%s.%N; }

for tool in $TOOLS; do
  case $tool in
    finiteflow)
      python3 "$PERF/to_finiteflow_input.py" "$SYSTEM" "$ORDER" "$TARGETS" "$VARS" "$OUT/ff_input.txt" ;;
    ratracer)
      python3 "$PERF/to_kira_equations.py" "$SYSTEM" "$OUT/system.eqns" --vars "$VARS" --order "$ORDER" \
        --families "$OUT/families.txt" --targets "$TARGETS" --keep "$OUT/keep.txt"
      indices=$(python3 -c "import re, sys; print(re.search(r'\[([^]]*)\]', open(sys.argv[1]).read()).group(1).count(',') + 1)" "$ORDER")
      families=()
      while read -r fam; do families+=(define-family "$fam" "--indices=$indices"); done < "$OUT/families.txt" ;;
    hepex) ;;
    *) log "unknown tool $tool"; exit 1 ;;
  esac
done

RUNS=$OUT/runs.jsonl
: > "$RUNS"
for rep in $(seq "$REPS"); do
  for tool in $TOOLS; do
    start=$(now)
    case $tool in
      hepex)
        taskset -c "$CORE" "$HEPEX" reduce "$SYSTEM" --vars "$VARS" --order "$ORDER" --targets "$TARGETS" \
          --seed "$rep" --out "$OUT/hepex.txt" --json "$OUT/hepex.json" 2> "$OUT/hepex.log"
        end=$(now)
        extra=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps({k: j.get(k) for k in ('probes','primes','read_seconds','learn_seconds','probe_seconds','algebra_seconds','check_seconds','masters','equations_used')}))" "$OUT/hepex.json") ;;
      finiteflow)
        taskset -c "$CORE" "$FF_DRIVER" "$OUT/ff_input.txt" --out "$OUT/finiteflow.txt" > "$OUT/finiteflow.json"
        end=$(now)
        extra=$(tail -n1 "$OUT/finiteflow.json") ;;
      ratracer)
        # shellcheck disable=SC2086
        (cd "$OUT" && TMPDIR="$OUT" taskset -c "$CORE" "$RATRACER_BIN" "${families[@]}" \
          load-equations system.eqns solve-equations choose-equation-outputs keep-outputs keep.txt \
          optimize finalize reconstruct --threads=1 --inmem --factor-scan --shift-scan --to=table.raw) \
          > "$OUT/ratracer.log" 2>&1 || { tail -20 "$OUT/ratracer.log" >&2; log "ratracer failed"; exit 1; }
        end=$(now)
        # A target that is a master is "(1)*TARGET" in hepex's table: the
        # masters (hepex's, else FiniteFlow's) tell ratracer_table.py which.
        masters=()
        for j in "$OUT/hepex.json" "$OUT/finiteflow.json"; do
          if [ -s "$j" ]; then
            python3 - "$j" > "$OUT/masters.txt" <<'PY'
import json, sys
text = open(sys.argv[1]).read().strip()
try:
    summary = json.loads(text)  # hepex's --json
except ValueError:
    summary = json.loads(text.splitlines()[-1])  # the driver's last line
print("\n".join(summary["masters"]))
PY
            masters=(--masters "$OUT/masters.txt")
            break
          fi
        done
        python3 "$PERF/ratracer_table.py" "$OUT/table.raw" "$OUT/ratracer.txt" --targets "$TARGETS" \
          --vars "$VARS" "${masters[@]}" > /dev/null
        probes=$(grep -o '[0-9]* probes in total' "$OUT/ratracer.log" | tail -1 | grep -o '^[0-9]*' || echo null)
        extra="{\"probes\": ${probes:-null}}" ;;
    esac
    wall=$(python3 -c "print(round($end - $start, 3))")
    echo "{\"tool\": \"$tool\", \"rep\": $rep, \"wall_seconds\": $wall, \"extra\": $extra}" >> "$RUNS"
    log "$tool rep $rep: $wall s"
  done
done

agree=()
for tool in $TOOLS; do
  [ "$tool" = hepex ] && continue
  if python3 "$PERF/compare_tables.py" --numeric "$OUT/hepex.txt" "$OUT/$tool.txt" > "$OUT/compare_$tool.txt" 2>&1; then
    agree+=("$tool=yes")
  else
    agree+=("$tool=NO")
  fi
done
python3 - "$RUNS" "$CORE" "$SYSTEM" "${agree[*]:-}" <<'PY'
import collections, datetime, json, statistics, sys
runs, core, system, agree = sys.argv[1:]
by = collections.defaultdict(list)
for line in open(runs):
    r = json.loads(line)
    by[r["tool"]].append(r)
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"{system}: {cpu}, core {core}, {datetime.date.today()}; tables equal to hepex's: {agree or 'n/a'}\n")
print("| tool | runs | best wall s | median wall s | probes |")
print("|---|---|---|---|---|")
best = {}
for tool, rs in by.items():
    walls = [r["wall_seconds"] for r in rs]
    best[tool] = min(walls)
    extra = rs[-1]["extra"] if isinstance(rs[-1]["extra"], dict) else {}
    probes = extra.get("probes", extra.get("evaluations"))
    print(f"| {tool} | {len(rs)} | {min(walls):.3f} | {statistics.median(walls):.3f} | {probes} |")
anchors = [best[t] for t in best if t != "hepex"]
if "hepex" in best and anchors:
    print(f"\nhepex / faster anchor (best walls): {best['hepex'] / min(anchors):.3f}")
PY
log "kept in $OUT"
