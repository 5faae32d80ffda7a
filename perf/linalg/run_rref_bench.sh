#!/usr/bin/env bash
# RREF benchmark on a GPU node: hepex on the device for Z/p (p = 2^31 - 1,
# p = 8388593 < 2^23 and a 62-bit prime) and float64, each algorithm given in
# BLOCKS (`hepex_bench rref --blocks`: -1 unblocked, 0 automatic, b panels of
# b columns), FLINT's nmod_mat_rref on one CPU core as the anchor, all in one
# run. Results (JSON + log) go to OUT_DIR. Linac's kernels run beside it with
# its own driver (not part of this repository; perf/results/linalg/README.md).
#   BLOCKS=-1,0 bash perf/linalg/run_rref_bench.sh BIN_DIR OUT_DIR SIZES [FLINT_SIZES]
# BIN_DIR holds hepex_bench (a build folder, or a folder of binaries).
set -euo pipefail
bin=${1:?usage: run_rref_bench.sh BIN_DIR OUT_DIR SIZES [FLINT_SIZES]}
source "$(dirname "$0")/../common/bench_steps.sh"  # binary
out=${2:?}
sizes=${3:?}
flint_sizes=${4:-}
blocks=${BLOCKS:--1,0}
mkdir -p "$out"
: >"$out/rref.log"
for field in "--prime 2147483647 p31" "--prime 8388593 p23" \
  "--prime 4611686018427387847 p62" "--field real f64"; do
  read -r flag value name <<<"$field"
  "$(binary "$bin" hepex_bench)" rref "$flag" "$value" --sizes "$sizes" --blocks "$blocks" --repeats 2 \
    --json "$out/rref_$name.json" | tee -a "$out/rref.log"
done
if [[ -n "$flint_sizes" ]]; then
  "$(binary "$bin" hepex_bench)" rref-flint 2147483647 "$flint_sizes" "$out/rref_flint_p31.json" \
    | tee -a "$out/rref.log"
fi
