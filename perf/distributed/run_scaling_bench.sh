#!/usr/bin/env bash
# Weak scaling of the job commands over MPI ranks, one GPU per rank (issue 8):
# the same work per rank at 1, 2, ... ranks, so the ideal wall time is flat.
#   [BATCHES_PER_RANK=32 EVENTS=262144 FUNCTIONS_PER_RANK=96] \
#   perf/distributed/run_scaling_bench.sh HEPEX OUT_DIR "RANKS" [MPIEXEC]
# e.g. perf/distributed/run_scaling_bench.sh ./hepex out "1 2 4" "mpiexec --allow-run-as-root"
# Per rank: me --batches 32 of 262144 gg_ttgg events, and reconstruct of 96
# rational functions in 4 variables. The outputs of the largest rank count
# are compared byte for byte with a 1-rank run of the same jobs. Weak-scaling
# efficiency = T(1 rank) / T(R ranks), wall clock of the whole launch.
set -uo pipefail
hepex=${1:?usage: run_scaling_bench.sh HEPEX OUT_DIR "RANKS" [MPIEXEC]}
out=${2:?}
rank_counts=${3:-"1 2"}
read -r -a mpiexec <<<"${4:-mpiexec}"
mkdir -p "$out"
: >"$out/summary.txt"
batches_per_rank=${BATCHES_PER_RANK:-32}
events=${EVENTS:-262144}
functions_per_rank=${FUNCTIONS_PER_RANK:-96}

functions() {  # functions N: N distinct rational functions of equal cost, one per line
  # (the coefficients cycle with i mod 96; the copy number only scales x*y*z*w)
  local i c k
  for ((i = 0; i < $1; i++)); do
    c=$((i % 96 + 1)) k=$((i / 96 + 2))
    echo "(x^$((c % 5 + 3))*y + $c*z^4*w - (x + y + $c)^5 + $k*x*y*z*w)/(1 + x*y*z*w + (x - $c*y)^3 + z^$((c % 4 + 2)))"
  done
}

run() {  # run NAME RANKS COMMAND...: time one launch, keep stdout and JSON
  local name=$1 ranks=$2
  shift 2
  local start=$EPOCHREALTIME
  "${mpiexec[@]}" -n "$ranks" "$@" >"$out/$name.out" 2>"$out/$name.err"
  local rc=$?
  awk -v n="$name" -v r="$ranks" -v c="$rc" -v a="$start" -v b="$EPOCHREALTIME" \
    'BEGIN { printf "%-28s ranks %2d  rc %d  wall %8.3f s\n", n, r, c, b - a }' |
    tee -a "$out/summary.txt"
}

for r in $rank_counts; do
  run "me_r$r" "$r" "$hepex" me --process gg_ttgg --events $events \
    --batches $((batches_per_rank * r)) --json "$out/me_r$r.json"
  functions $((functions_per_rank * r)) >"$out/functions_r$r.txt"
  run "reconstruct_r$r" "$r" "$hepex" reconstruct --vars x,y,z,w \
    --file "$out/functions_r$r.txt" --chunk 4 --json "$out/reconstruct_r$r.json"
done
# Identical output: the largest total again on one rank.
largest=${rank_counts##* }
if [ "$largest" != 1 ]; then
  run "me_r${largest}_on_1" 1 "$hepex" me --process gg_ttgg --events $events \
    --batches $((batches_per_rank * largest))
  run "reconstruct_r${largest}_on_1" 1 "$hepex" reconstruct --vars x,y,z,w \
    --file "$out/functions_r$largest.txt" --chunk 4
  for kind in me reconstruct; do
    if [ -s "$out/${kind}_r$largest.out" ] &&
      cmp -s "$out/${kind}_r$largest.out" "$out/${kind}_r${largest}_on_1.out"; then
      echo "$kind: output of $largest ranks identical to 1 rank" | tee -a "$out/summary.txt"
    else
      echo "$kind: OUTPUT DIFFERS between $largest ranks and 1 rank" | tee -a "$out/summary.txt"
    fi
  done
fi
grep -h "seconds\|mes_per_second" "$out"/*.json >>"$out/summary.txt"
cat "$out/summary.txt"
