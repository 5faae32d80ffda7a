#!/usr/bin/env bash
# Weak and strong scaling of the job commands over MPI ranks, one GPU per rank
# (issues 8 and 42).
#   [BATCHES_PER_RANK=32 EVENTS=262144 FUNCTIONS_PER_RANK=96 \
#    MATRICES_PER_RANK=4 RREF_N=8192 RREF_PRIME=2147483647 MATRIX_DIR=OUT_DIR \
#    JOBS="me reconstruct rref" SCHEDULE=static] \
#   perf/distributed/run_scaling_bench.sh HEPEX OUT_DIR "RANKS" [MPIEXEC]
# e.g. perf/distributed/run_scaling_bench.sh ./hepex out "1 2 4" "mpiexec --allow-run-as-root"
# Three job commands, per rank:
#   me --batches 32 of 262144 gg_ttgg events;
#   reconstruct of 96 rational functions in 4 variables (equal cost per block);
#   rref of 4 random RREF_N x RREF_N matrices mod RREF_PRIME (.npy, uint32; full
#   rank, so the reduced forms are identities and the coordinate output is
#   small: the time is reading and eliminating, not printing).
# Weak scaling: R ranks get R times the work; efficiency = T(1) / T(R).
# Strong scaling: the largest rank count's work on every rank count;
# efficiency = T(1) / (R T(R)). Every strong-scaling output is compared byte
# for byte with the 1-rank run of the same jobs. Times: the whole launch (wall)
# and the job section on rank 0 (`seconds` in --json).
# The matrices are written with python3 and numpy (the GPU image has both).
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
matrices_per_rank=${MATRICES_PER_RANK:-4}
rref_n=${RREF_N:-8192}
rref_prime=${RREF_PRIME:-2147483647}
matrix_dir=${MATRIX_DIR:-$out}  # the .npy inputs: kept there, made only where missing
largest=${rank_counts##* }
jobs=${JOBS:-me reconstruct rref}
schedule=${SCHEDULE:-static}  # --schedule of every command

functions() {  # functions N: N distinct rational functions of equal cost, one per line
  # (the coefficients cycle with i mod 96; the copy number only scales x*y*z*w)
  local i c k
  for ((i = 0; i < $1; i++)); do
    c=$((i % 96 + 1)) k=$((i / 96 + 2))
    echo "(x^$((c % 5 + 3))*y + $c*z^4*w - (x + y + $c)^5 + $k*x*y*z*w)/(1 + x*y*z*w + (x - $c*y)^3 + z^$((c % 4 + 2)))"
  done
}

matrices() {  # matrices N: N random RREF_N x RREF_N matrices mod RREF_PRIME, M0.npy ...
  mkdir -p "$matrix_dir"
  ${PYTHON:-python3} - "$matrix_dir" "$1" "$rref_n" "$rref_prime" <<'PY'
import os, sys
import numpy as np
out, count, n, p = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
for i in range(count):
    path = os.path.join(out, f"M{i}.npy")
    if not os.path.exists(path):
        rng = np.random.default_rng(1000 + i)
        np.save(path, rng.integers(0, p, size=(n, n), dtype=np.uint32))
PY
}

matrix_list() {  # matrix_list N: the first N matrix paths
  local i
  for ((i = 0; i < $1; i++)); do echo "$matrix_dir/M$i.npy"; done
}

run() {  # run NAME RANKS COMMAND...: time one launch, keep stdout and JSON
  local name=$1 ranks=$2
  shift 2
  local start=$EPOCHREALTIME
  "${mpiexec[@]}" -n "$ranks" "$@" >"$out/$name.out" 2>"$out/$name.err"
  local rc=$?
  local seconds
  seconds=$(grep -o '"seconds": *[0-9.e+-]*' "$out/$name.json" 2>/dev/null | tail -1 | sed 's/.*: *//')
  awk -v n="$name" -v r="$ranks" -v c="$rc" -v a="$start" -v b="$EPOCHREALTIME" -v s="${seconds:-nan}" \
    'BEGIN { printf "%-26s ranks %2d  rc %d  wall %8.3f s  jobs %8.3f s\n", n, r, c, b - a, s }' |
    tee -a "$out/summary.txt"
}

me() {  # me NAME RANKS BATCHES
  run "$1" "$2" "$hepex" me --process gg_ttgg --events "$events" --batches "$3" \
    --schedule "$schedule" --json "$out/$1.json"
}
reconstruct() {  # reconstruct NAME RANKS FUNCTIONS
  [ -s "$out/functions_$3.txt" ] || functions "$3" >"$out/functions_$3.txt"
  run "$1" "$2" "$hepex" reconstruct --vars x,y,z,w --file "$out/functions_$3.txt" --chunk 4 \
    --schedule "$schedule" --json "$out/$1.json"
}
rref() {  # rref NAME RANKS MATRICES
  local files
  mapfile -t files < <(matrix_list "$3")
  run "$1" "$2" "$hepex" rref --prime "$rref_prime" --format coordinate --schedule "$schedule" \
    --json "$out/$1.json" "${files[@]}"
}

work() {  # work KIND RANKS COUNT_FACTOR: one command with COUNT_FACTOR ranks' work
  case $1 in
    me) me "${mode}_me_r$2" "$2" $((batches_per_rank * $3)) ;;
    reconstruct) reconstruct "${mode}_reconstruct_r$2" "$2" $((functions_per_rank * $3)) ;;
    rref) rref "${mode}_rref_r$2" "$2" $((matrices_per_rank * $3)) ;;
  esac
}

[[ " $jobs " == *" rref "* ]] && matrices $((matrices_per_rank * largest))
echo "== weak scaling (work per rank fixed; --schedule $schedule)" | tee -a "$out/summary.txt"
mode=weak
for r in $rank_counts; do
  for kind in $jobs; do work "$kind" "$r" "$r"; done
done
echo "== strong scaling (the work of $largest ranks on each count)" | tee -a "$out/summary.txt"
mode=strong
for r in $rank_counts; do
  for kind in $jobs; do work "$kind" "$r" "$largest"; done
done
# Identical output: every strong-scaling run against its 1-rank run.
for kind in $jobs; do
  for r in $rank_counts; do
    [ "$r" = 1 ] && continue
    if [ -s "$out/strong_${kind}_r$r.out" ] &&
      cmp -s "$out/strong_${kind}_r$r.out" "$out/strong_${kind}_r1.out"; then
      echo "$kind: output of $r ranks identical to 1 rank" | tee -a "$out/summary.txt"
    else
      echo "$kind: OUTPUT DIFFERS between $r ranks and 1 rank" | tee -a "$out/summary.txt"
    fi
  done
done
# The efficiencies from the job sections (rank 0's `seconds`).
awk '/^weak_|^strong_/ {
       split($1, p, "_"); kind = p[2]; mode = p[1]; r = $3; t = $10
       time[mode, kind, r] = t; wall[mode, kind, r] = $7; ranks[r] = 1; kinds[kind] = 1 }
     END {
       printf "\n%-8s %-12s %5s %10s %10s %10s\n", "mode", "job", "ranks", "jobs s", "wall s", "efficiency"
       for (mode_i = 1; mode_i <= 2; mode_i++) {
         mode = mode_i == 1 ? "weak" : "strong"
         for (kind in kinds) for (r in ranks) if ((mode, kind, r) in time) {
           t1 = time[mode, kind, 1]; t = time[mode, kind, r]
           e = mode == "weak" ? t1 / t : t1 / (r * t)
           printf "%-8s %-12s %5d %10.3f %10.3f %9.1f%%\n", mode, kind, r, t, wall[mode, kind, r], 100 * e
         }
       }
     }' "$out/summary.txt" | tee -a "$out/summary.txt"
