#!/usr/bin/env bash
# `hepex rref` of one dense n x n matrix mod 2^31 - 1 on one rank and spread
# over R ranks (linalg::distributed_rref): wall time of the elimination
# (--json seconds), panels, and the outputs compared byte for byte.
#   bash perf/linalg/run_distributed_rref.sh HEPEX OUT_LOG [N] [RANKS] [BACKEND]
# The matrix is written by awk (uniform residues, fixed seed) to $TMPDIR.
set -euo pipefail
hepex=${1:?usage: run_distributed_rref.sh HEPEX OUT_LOG [N] [RANKS] [BACKEND]}
log=${2:?}
n=${3:-3000}
ranks=${4:-2}
backend=${5:-device}
work=$(mktemp -d "${TMPDIR:-/tmp}/hepex_spread.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
awk -v n="$n" 'BEGIN { srand(2); print "%%MatrixMarket matrix array integer general"; print n, n
  for (i = 0; i < n * n; i++) print int(rand() * 2147483647) }' >"$work/a.mtx"
{
  echo "# $(date -u +%F) $(git -C "$(dirname "$0")" rev-parse --short HEAD) $(hostname)"
  echo "# $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sed 's/^/# GPU: /' || true
  echo "# n = $n mod 2147483647, backend $backend"
  "$hepex" rref --prime 2147483647 --backend "$backend" "$work/a.mtx" --json "$work/one.json" \
    --out "$work/one.mtx"
  echo "1 rank: $(grep -o '"seconds": [0-9.e-]*' "$work/one.json") rank $(grep -o '"rank": [0-9]*' "$work/one.json")"
  mpiexec --oversubscribe -n "$ranks" "$hepex" rref --prime 2147483647 --backend "$backend" \
    "$work/a.mtx" --json "$work/spread.json" --out "$work/spread.mtx"
  echo "$ranks ranks: $(grep -o '"seconds": [0-9.e-]*' "$work/spread.json") $(grep -o '"panels": [0-9]*' "$work/spread.json")"
  cmp "$work/one.mtx" "$work/spread.mtx" && echo "outputs equal byte for byte"
} | tee "$log"
