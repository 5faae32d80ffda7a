#!/usr/bin/env bash
# hepex beside FireFly on FireFly's own benchmark functions (benchmarks/f1.m ..
# f4.m, factors1.m .. factors5.m of jklappert/FireFly, read from its source):
# FireFly with the shift scan, factor scan off and on (1 thread, bunch size 1;
# perf/reconstruct/firefly_suite_driver.cpp), and `hepex reconstruct --file`
# on the same files, one core each (taskset), alternating per function. Every
# answer is checked against its input at random points modulo random 127-bit
# primes (check_answer.py). Prints a markdown table (device, date, commit);
# JSON lines go to RAW_OUT. `ibp200` (in FUNCS by default) is the IBP-shaped job
# of ibp_shaped.py: 200 functions of (s, t, d, m) as one black box, hepex
# through its Python API (together=True), FireFly with all 200 in one parser.
# FireFly and the driver are built outside the repository, under $ANCHORS,
# from a checkout at $FIREFLY_SRC (fetched beforehand; nothing is downloaded).
# Environment: FIREFLY_SRC ANCHORS HEPEX (the CLI) TIMEOUT (s) FUNCS CORE RAW_OUT
#   HEPEX_ARGS (extra options for hepex reconstruct)
set -euo pipefail
PERF=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$PERF/../.." && pwd)
FIREFLY_SRC=${FIREFLY_SRC:-/work/anchors/firefly-src}
ANCHORS=${ANCHORS:-/work/anchors}
HEPEX=${HEPEX:-$REPO/build/src/hepex}
TIMEOUT=${TIMEOUT:-600}
CORE=${CORE:-1}
FUNCS=${FUNCS:-"f1 f2 f3 f4 factors1 factors2 factors3 factors4 factors5 ibp200"}
PYTHON=${PYTHON:-/usr/bin/python3}
RAW_OUT=${RAW_OUT:-/dev/null}
log() { echo "[firefly_suite] $*" >&2; }

FF_BUILD=$ANCHORS/firefly-build
DRIVER=$ANCHORS/firefly_suite_driver
if [ ! -f "$FF_BUILD/libfirefly.a" ]; then
  cmake -S "$FIREFLY_SRC" -B "$FF_BUILD" -DWITH_FLINT=true -DCMAKE_BUILD_TYPE=Release >&2
  make -C "$FF_BUILD" -j2 FireFly_static >&2
fi
if [ ! -x "$DRIVER" ] || [ "$PERF/firefly_suite_driver.cpp" -nt "$DRIVER" ]; then
  g++ -std=c++17 -O2 -pthread -I"$FF_BUILD/include" -I"$FIREFLY_SRC/source/include" \
    "$PERF/firefly_suite_driver.cpp" -o "$DRIVER" "$FF_BUILD/libfirefly.a" -lflint -lgmpxx -lgmp -lz
fi

variables() {
  case $1 in
    ibp200) echo s,t,d,m; return ;;
    f1|factors3|factors4|factors5) n=20 ;;
    factors1|factors2) n=4 ;;
    *) n=5 ;;
  esac
  seq -s, -f 'x%g' 1 "$n"
}

WORK=$(mktemp -d /tmp/firefly_suite.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# run TOOL F CMD...: the JSON line of one run, the answer checked.
run() {
  local tool=$1 f=$2; shift 2
  local dir=$WORK/$tool-$f rc=0 line check
  mkdir -p "$dir"
  (cd "$dir" && timeout "$TIMEOUT" taskset -c "$CORE" "$@" > out.txt 2> err.txt) || rc=$?
  if [ "$tool" = hepex-py ]; then
    line=$(grep '^{' "$dir/out.txt" | tail -n1 | sed 's/"tool": "hepex-py"/"tool": "hepex"/' || true)
    tool=hepex
  elif [ "$tool" = hepex ]; then
    line=$(python3 - "$dir/r.json" "$f" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"][0]
print(json.dumps({"function": sys.argv[2], "tool": "hepex", "seconds": d["seconds"],
                  "probes": d["probes"], "primes": d["primes"],
                  "prime_probes": [p["probes"] for p in d["prime_list"]]}))
PY
) || line=""
    cp "$dir/out.txt" "$dir/answer.txt" 2>/dev/null || true
  elif [ -f "$dir/answer.txt" ]; then  # FireFly with --answers
    line=$(grep '^{' "$dir/out.txt" | tail -n1 || true)
  else
    line=$(grep '^{' "$dir/out.txt" | tail -n1 || true)
    python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])['result'])" \
      "$dir/out.txt" > "$dir/answer.txt" 2>/dev/null || true
    line=$(echo "$line" | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); d.pop('result', None); print(json.dumps(d))" 2>/dev/null || true)
  fi
  if [ -z "$line" ]; then
    line="{\"function\": \"$f\", \"tool\": \"$tool\", \"error\": \"$([ $rc = 124 ] && echo "timeout ${TIMEOUT}s" || echo "rc $rc")\"}"
    check=false
  elif python3 "$PERF/check_answer.py" "$(source_of "$f")" "$dir/answer.txt" "$(variables "$f")" >/dev/null; then
    check=true
  else
    check=false
  fi
  line=$(echo "$line" | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); d['exact']=$([ $check = true ] && echo True || echo False); print(json.dumps(d))")
  echo "$line" | tee -a "$RAW_OUT" >> "$WORK/all.jsonl"
  log "$line"
}

source_of() {
  if [ "$1" = ibp200 ]; then echo "$WORK/ibp200.m"; else echo "$FIREFLY_SRC/benchmarks/$1.m"; fi
}
"$PYTHON" "$PERF/ibp_shaped.py" write "$WORK/ibp200.m"

for f in $FUNCS; do
  src=$(source_of "$f")
  if [ "$f" = ibp200 ]; then
    run firefly "$f" "$DRIVER" "$src" s,t,d,m --name "$f" --answers answer.txt
    run firefly-fs "$f" "$DRIVER" "$src" s,t,d,m --name "$f" --factor-scan --answers answer.txt
    run hepex-py "$f" env PYTHONPATH="$REPO/build/python" "$PYTHON" "$PERF/ibp_shaped.py" hepex "$src" answer.txt
    continue
  fi
  run firefly "$f" "$DRIVER" "$src" "$(variables "$f" | tr ',' '\n' | wc -l)" --name "$f"
  run firefly-fs "$f" "$DRIVER" "$src" "$(variables "$f" | tr ',' '\n' | wc -l)" --name "$f" --factor-scan
  # shellcheck disable=SC2086
  run hepex "$f" "$HEPEX" reconstruct --vars "$(variables "$f")" --file "$src" --json r.json ${HEPEX_ARGS:-}
done

DEVICE=$(lscpu | sed -n 's/^Model name: *//p' | head -n1)
COMMIT=$(git -C "$REPO" rev-parse --short HEAD)
python3 - "$WORK/all.jsonl" "$DEVICE" "$COMMIT" <<'PY'
import json, sys, datetime
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows:
    by.setdefault(r["function"], {})[r["tool"]] = r
print(f"FireFly's benchmark functions, one core each ({sys.argv[2]}), {datetime.date.today()}, hepex {sys.argv[3]}\n")
print("| function | FireFly probes / s | FireFly factor scan probes / s | hepex probes / s | hepex primes | probes vs better FireFly | time vs better FireFly | exact |")
print("|---|---|---|---|---|---|---|---|")
def cell(r):
    if not r or "error" in r:
        return (r or {}).get("error", "-")
    return f"{r['probes']} / {r['seconds']:.3g}"
for f, t in by.items():
    a, b, h = t.get("firefly"), t.get("firefly (factor scan)"), t.get("hepex")
    ok = [x for x in (a, b) if x and "error" not in x]
    best_p = min((x["probes"] for x in ok), default=None)
    best_s = min((x["seconds"] for x in ok), default=None)
    ratio_p = f"{h['probes'] / best_p:.2f}" if h and "error" not in h and best_p else "-"
    ratio_s = f"{h['seconds'] / best_s:.2f}" if h and "error" not in h and best_s else "-"
    exact = all(x.get("exact") for x in (a, b, h) if x)
    print(f"| {f} | {cell(a)} | {cell(b)} | {cell(h)} | {h.get('primes', '-') if h else '-'} | {ratio_p} | {ratio_s} | {'yes' if exact else 'NO'} |")
PY
