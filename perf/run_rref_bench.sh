#!/usr/bin/env bash
# RREF benchmark on a GPU node: hepex on the device for Z/p (p = 2^31 - 1 and
# p = 8388593 < 2^23) and float64, FLINT's nmod_mat_rref on one CPU core as
# the anchor, all in one run. Results (JSON + log) go to OUT_DIR.
#   bash perf/run_rref_bench.sh BIN_DIR OUT_DIR SIZES [FLINT_SIZES]
# BIN_DIR holds hepex and hepex_bench_rref_flint.
set -euo pipefail
bin=${1:?usage: run_rref_bench.sh BIN_DIR OUT_DIR SIZES [FLINT_SIZES]}
out=${2:?}
sizes=${3:?}
flint_sizes=${4:-}
mkdir -p "$out"
"$bin/hepex" bench rref --prime 2147483647 --sizes "$sizes" --repeats 2 \
  --json "$out/rref_p31.json" | tee "$out/rref.log"
"$bin/hepex" bench rref --prime 8388593 --sizes "$sizes" --repeats 2 \
  --json "$out/rref_p23.json" | tee -a "$out/rref.log"
"$bin/hepex" bench rref --field real --sizes "$sizes" --repeats 2 \
  --json "$out/rref_f64.json" | tee -a "$out/rref.log"
if [[ -n "$flint_sizes" ]]; then
  "$bin/hepex_bench_rref_flint" 2147483647 "$flint_sizes" "$out/rref_flint_p31.json" \
    | tee -a "$out/rref.log"
fi
