#!/usr/bin/env bash
# On the GPU machine (one device call): hepex reduce with the GPU, and
# Ratracer (+ its FireFly) and FiniteFlow on the same machine's host with
# the thread counts of ANCHOR_THREADS, on the benchmark systems; the
# replay's probe rate at large batches (hepex_bench replay-rate) on the GPU and on
# one host core. The anchors are the binaries build_ratracer.sh and
# build_finiteflow.sh (+ finiteflow_reduce_driver.cpp) made on the build
# machine, carried with the shared libraries they need as
# .ext/anchors.tar.xz (pack_anchors.sh; nothing of them is in the
# repository), since nothing can be fetched or built from the network
# there. The systems: .ext/dbox (NeatIBP's double box), .ext/laporta
# (make_laporta_systems.sh) and, when carried, .ext/inputs.tar.xz
# (pack_anchors.sh INPUTS=1: the 98,380-equation double box and every
# system's FiniteFlow input; without it FiniteFlow is not run).
#   bash perf/reduce/device_side_by_side.sh OUT_DIR
# Environment: THREADS (16), ANCHOR_THREADS ("1 $THREADS"), ANCHORS
# ("finiteflow ratracer": which to run), REPS (2: hepex's
# runs; the anchors' once per thread count), SYSTEMS (every one: names to
# run), REPLAY (1; 0 skips the replay-rate runs). Writes OUT_DIR/runs.jsonl
# (one line a run: system, tool, threads, wall seconds, hepex's phases) and
# the tables.
set -euo pipefail
# Ratracer gets one define-family argument per integral (63,706 on the
# largest double box): more than the default 2 MB of arguments, a quarter of
# the stack limit.
ulimit -s unlimited 2>/dev/null || ulimit -s 1048576
cd "$(dirname "$0")/../.."
OUT=${1:?usage: device_side_by_side.sh OUT_DIR}
THREADS=${THREADS:-16}
REPS=${REPS:-2}
ANCHOR_THREADS=${ANCHOR_THREADS:-1 $THREADS}
ANCHORS=${ANCHORS:-finiteflow ratracer}
mkdir -p "$OUT"
HEPEX_CMAKE_ARGS=-DHEPEX_BUILD_PERF=ON HEPEX_TARGETS="hepex_cli hepex_bench" \
  bash perf/common/build_gpu.sh build-cuda > "$OUT/build.log" 2>&1
source perf/common/gpu_env.sh
[[ -d .ext/anchors ]] || tar -C .ext -xJf .ext/anchors.tar.xz
[[ -d .ext/inputs || ! -f .ext/inputs.tar.xz ]] || tar -C .ext -xJf .ext/inputs.tar.xz
FF_DRIVER=$PWD/.ext/anchors/bin/finiteflow_reduce_driver
export LD_LIBRARY_PATH=$PWD/.ext/anchors/lib:$LD_LIBRARY_PATH
HEPEX=$PWD/build-cuda/src/hepex
RATRACER=$PWD/.ext/anchors/bin/ratracer
RUNS=$OUT/runs.jsonl
: > "$RUNS"
now() { date +%s.%N; }
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2 | xargs)
echo "{\"device\": \"$device\", \"host\": \"$cpu\", \"cores\": $(nproc)}" >> "$RUNS"
record() {  # record SYSTEM TOOL THREADS START END [EXTRA_JSON]
  local wall
  wall=$(python3 -c "print(round($5 - $4, 3))")
  echo "{\"system\": \"$1\", \"tool\": \"$2\", \"threads\": $3, \"wall_seconds\": $wall, \"extra\": ${6:-{\}}}" >> "$RUNS"
  echo "[device] $1 $2 ($3 threads): $wall s" >&2
}
systems=(
  "neatibp_dbox .ext/dbox/IBP_all.txt .ext/dbox/OrderedIntegrals.txt .ext/dbox/targetIntegrals.txt d,s,t"
  "laporta_dbox .ext/laporta/dbox.m .ext/laporta/dbox.order .ext/laporta/dbox.targets d,s,t"
  "laporta_pentagon .ext/laporta/pentagon.m .ext/laporta/pentagon.order .ext/laporta/pentagon.targets d,s12,s23,s34,s45,s51"
)
[[ ! -d .ext/inputs ]] ||
  systems+=("laporta_dbox13 .ext/inputs/laporta/dbox13.m .ext/inputs/laporta/dbox13.order .ext/inputs/laporta/dbox13.targets d,s,t")
for entry in "${systems[@]}"; do
  read -r name system order targets vars <<<"$entry"
  [[ -z ${SYSTEMS:-} || " $SYSTEMS " == *" $name "* ]] || continue
  work=$OUT/$name
  mkdir -p "$work"
  python3 perf/reduce/to_kira_equations.py "$system" "$work/system.eqns" --vars "$vars" --order "$order" \
    --families "$work/families.txt" --targets "$targets" --keep "$work/keep.txt" >/dev/null
  indices=$(python3 -c "import re, sys; print(re.search(r'\[([^]]*)\]', open(sys.argv[1]).read()).group(1).count(',') + 1)" "$order")
  families=()
  while read -r fam; do families+=(define-family "$fam" "--indices=$indices"); done < "$work/families.txt"
  for rep in $(seq "$REPS"); do
    start=$(now)
    "$HEPEX" reduce "$system" --vars "$vars" --order "$order" --targets "$targets" --seed "$rep" \
      --out "$work/hepex.txt" --json "$work/hepex.json" 2>/dev/null
    end=$(now)
    record "$name" hepex "$(nproc)" "$start" "$end" "$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps({k: j.get(k) for k in ('probes','threads','read_seconds','learn_seconds','probe_seconds','algebra_seconds','check_seconds')}))" "$work/hepex.json")"
  done
  ff_input=.ext/inputs/ffinput/$name.txt
  for threads in $ANCHOR_THREADS; do
    if [[ -f $ff_input && " $ANCHORS " == *" finiteflow "* ]]; then
      start=$(now)
      "$FF_DRIVER" "$ff_input" --threads "$threads" --out "$work/finiteflow_$threads.txt" \
        > "$work/finiteflow_$threads.json" 2> "$work/finiteflow_$threads.log" ||
        echo "[device] finiteflow failed: $(tail -3 "$work/finiteflow_$threads.log")" >&2
      end=$(now)
      record "$name" finiteflow "$threads" "$start" "$end" "$(tail -n1 "$work/finiteflow_$threads.json" | python3 -c "import json,sys; j=json.loads(sys.stdin.read() or '{}'); print(json.dumps({k: j.get(k) for k in ('build_s','learn_s','degrees_s','reconstruct_s','total_s','evaluations','primes')}))")"
    fi
  done
  for threads in $ANCHOR_THREADS; do
      [[ " $ANCHORS " == *" ratracer "* ]] || continue
      start=$(now)
      (cd "$work" && TMPDIR="$work" "$RATRACER" "${families[@]}" load-equations system.eqns solve-equations \
        choose-equation-outputs keep-outputs keep.txt optimize finalize reconstruct --threads="$threads" \
        --inmem --factor-scan --shift-scan --to=table.raw) > "$work/ratracer_$threads.log" 2>&1 ||
        echo "[device] ratracer failed: $(tail -3 "$work/ratracer_$threads.log")" >&2
      end=$(now)
      probes=$(grep -o '[0-9]* probes in total' "$work/ratracer_$threads.log" | tail -1 | grep -o '^[0-9]*' || echo null)
      probe_time=$(sed 's/\x1b\[[0-9;]*m//g' "$work/ratracer_$threads.log" | grep -o 'Average time of the black-box probe: [0-9.e-]* s' | tail -1 | grep -o '[0-9.e-]* s' | cut -d' ' -f1 || echo null)
      record "$name" ratracer "$threads" "$start" "$end" "{\"probes\": ${probes:-null}, \"probe_seconds_each\": ${probe_time:-null}}"
  done
  # A target that is a master is "(1)*TARGET" in hepex's table: hepex's
  # masters tell ratracer_table.py which (as side_by_side.sh does).
  python3 -c "import json, sys; print('\n'.join(json.load(open(sys.argv[1]))['masters']))" "$work/hepex.json" \
    > "$work/masters.txt"
  python3 perf/reduce/ratracer_table.py "$work/table.raw" "$work/ratracer.txt" --targets "$targets" --vars "$vars" \
    --masters "$work/masters.txt" > /dev/null 2>&1 || true
done
# The replay alone at large batches: GPU and one host core (the rate the
# issue compares with Ratracer's probe on one core).
for entry in "${systems[@]:1}"; do
  [[ ${REPLAY:-1} == 1 ]] || break
  read -r name system order targets vars <<<"$entry"
  OMP_NUM_THREADS=1 build-cuda/perf/hepex_bench replay-rate "$system" "$order" "$targets" "$vars" 4096 65536 \
    > "$OUT/replay_rate_$name.jsonl" 2>/dev/null || echo "[device] replay_rate $name failed" >&2
done
echo "[device] done" >&2
