#!/usr/bin/env bash
# Side-by-side sparse rational-function reconstruction benchmark: FireFly vs hepex.
# (a) builds FireFly (source at $FIREFLY_SRC, fetched earlier; nothing is downloaded here) and
#     perf/reconstruct/firefly_driver.cpp outside the repository, under $ANCHORS;
# (b) generates the family (perf/reconstruct/reconstruct_family.py) into a temp dir;
# (c) runs FireFly on each function with a per-function timeout;
# (d) runs $HEPEX_BENCH reconstruct FILE on the same files if that binary exists (it prints the same JSON line:
#     function, seconds, probes, primes, exact);
# (e) prints a markdown table (device, date, commit) to stdout; progress and logs: stderr.
# Environment: FIREFLY_SRC ANCHORS HEPEX_BENCH TIMEOUT (s, per function and tool) JOBS (build)
#   FUNCS (space-separated names; default below; FUNCS=all for the whole family)
#   FIREFLY_JSONL (reuse FireFly lines from this file instead of rerunning FireFly)
#   RAW_OUT (also append every JSON line to this file)  KEEP=1 (keep the temp dir)
set -euo pipefail

PERF=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$PERF/../.." && pwd)
FIREFLY_SRC=${FIREFLY_SRC:-/work/anchors/firefly-src}
ANCHORS=${ANCHORS:-/work/anchors}
HEPEX_BENCH=${HEPEX_BENCH:-$REPO/build/perf/hepex_bench}
TIMEOUT=${TIMEOUT:-600}
JOBS=${JOBS:-2}
FUNCS=${FUNCS:-"p100 p1000 p5000 r100_25 r1000_250 r5000_1250 p100_n3 p1000_n3 p5000_n3 r100_25_n3
  r1000_250_n3 r5000_1250_n3 p100_n10 p1000_n10 p5000_n10 r100_25_n10 r1000_250_n10 r5000_1250_n10"}
[ "$FUNCS" = all ] && FUNCS=$(python3 "$PERF/reconstruct_family.py" --list)
log() { echo "[bench_reconstruct] $*" >&2; }

# (a) build FireFly (static library, FLINT arithmetic) and the driver
FF_BUILD=$ANCHORS/firefly-build
DRIVER=$ANCHORS/driver-build/firefly_driver
if [ -z "${FIREFLY_JSONL:-}" ]; then
  [ -f "$FIREFLY_SRC/CMakeLists.txt" ] || { log "no FireFly source at $FIREFLY_SRC"; exit 1; }
  mkdir -p "$FF_BUILD" "$(dirname "$DRIVER")"
  cmake -S "$FIREFLY_SRC" -B "$FF_BUILD" -DWITH_FLINT=true -DCMAKE_BUILD_TYPE=Release >&2
  nice -n 10 make -C "$FF_BUILD" -j"$JOBS" FireFly_static >&2
  if [ ! -x "$DRIVER" ] || [ "$PERF/firefly_driver.cpp" -nt "$DRIVER" ] || [ "$FF_BUILD/libfirefly.a" -nt "$DRIVER" ]; then
    log "building $DRIVER"
    nice -n 10 g++ -std=c++17 -O2 -pthread -I"$FF_BUILD/include" -I"$FIREFLY_SRC/source/include" \
      "$PERF/firefly_driver.cpp" -o "$DRIVER" "$FF_BUILD/libfirefly.a" -lflint -lgmpxx -lgmp -lz
  fi
fi

# (b) generate the family
WORK=$(mktemp -d /tmp/bench_reconstruct.XXXXXX)
[ "${KEEP:-0}" = 1 ] && log "work dir $WORK (kept)" || trap 'rm -rf "$WORK"' EXIT
# shellcheck disable=SC2086
python3 "$PERF/reconstruct_family.py" "$WORK/family" --only $FUNCS

# run TOOL NAME CMD...: one JSON line into $WORK/TOOL.jsonl (a timeout/failure line if none)
run() {
  local tool=$1 f=$2; shift 2
  local dir=$WORK/$tool/$f line rc=0
  mkdir -p "$dir"
  log "$tool $f (timeout ${TIMEOUT}s)"
  (cd "$dir" && timeout "$TIMEOUT" "$@" > out.txt 2> err.txt) || rc=$?
  line=$(grep '^{.*"function"' "$dir/out.txt" | tail -n1 || true)
  if [ -z "$line" ]; then
    line="{\"function\": \"$f\", \"seconds\": null, \"probes\": null, \"primes\": null, \"exact\": false, \"tool\": \"$tool\", \"error\": \"$([ $rc = 124 ] && echo "timeout ${TIMEOUT}s" || echo "rc $rc")\"}"
  fi
  echo "$line" >> "$WORK/$tool.jsonl"
  [ -n "${RAW_OUT:-}" ] && echo "$line" >> "$RAW_OUT"
  log "$line"
}

# (c) FireFly, (d) hepex: alternating per function, so that both see the
# machine in the same state
[ -x "$HEPEX_BENCH" ] || log "no hepex bench at $HEPEX_BENCH: hepex columns left empty"
for f in $FUNCS; do
  if [ -n "${FIREFLY_JSONL:-}" ]; then
    grep -E "\"function\": ?\"$f\"" "$FIREFLY_JSONL" | tail -n1 >> "$WORK/firefly.jsonl" || log "no FireFly line for $f"
  else
    run firefly "$f" "$DRIVER" "$WORK/family/$f.txt"
  fi
  [ -x "$HEPEX_BENCH" ] && run hepex "$f" "$HEPEX_BENCH" reconstruct "$WORK/family/$f.txt" --name "$f"
done
touch "$WORK/firefly.jsonl" "$WORK/hepex.jsonl"

# (e) markdown table
DEVICE=$(lscpu | sed -n 's/^Model name: *//p' | head -n1)
COMMIT=$(git -C "$REPO" rev-parse --short HEAD)
FF_VERSION=$(sed -n 's/^project(FireFly VERSION \([^ ]*\).*/\1/p' "$FIREFLY_SRC/CMakeLists.txt" 2>/dev/null || true)
python3 - "$WORK" "$DEVICE" "$COMMIT" "${FF_VERSION:-?}" "$TIMEOUT" $FUNCS <<'EOF'
import datetime, json, sys
work, device, commit, ffv, timeout, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]
def load(tool):
    d = {}
    for line in open(f"{work}/{tool}.jsonl"):
        if line.strip():
            j = json.loads(line); d[j["function"]] = j
    return d
ff, hx = load("firefly"), load("hepex")
def cols(j):
    if not j: return ["", "", "", ""]
    if j.get("seconds") is None: return [j.get("error", "failed"), "", "", ""]
    return [f"{j['seconds']:.3f}", str(j["probes"]), str(j["primes"]), "yes" if j["exact"] else "**no**"]
def ratio(a, b, k):
    try: return f"{a[k] / b[k]:.2f}"
    except Exception: return ""
print(f"Device: {device}; date: {datetime.date.today()}; hepex commit: {commit}; FireFly {ffv} "
      f"(1 thread, bunch 1, shift scan, FLINT); timeout {timeout} s per function\n")
print("| function | FireFly s | FireFly probes | FireFly primes | FireFly exact "
      "| hepex s | hepex probes | hepex primes | hepex exact | time FireFly/hepex | probes FireFly/hepex |")
print("|---|" + "---:|" * 10)
for n in names:
    a, b = ff.get(n), hx.get(n)
    print("| " + " | ".join([n] + cols(a) + cols(b) + [ratio(a, b, "seconds"), ratio(a, b, "probes")]) + " |")
EOF
