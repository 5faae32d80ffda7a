#!/usr/bin/env bash
# Modular matrix product benchmark on a GPU node: `hepex_bench gemm` for
# primes of 16, 20, 24, 31 and 62/63 bits, every method where it is exact, on
# square shapes and Sparse-FGLM's fat vectors (D x D times D x 32 / 64), each
# next to the vendor DGEMM and int8 GEMM measured in the same run. JSON + log
# go to OUT_DIR (and OUT_DIR.tar.gz).
#   bash perf/linalg/run_gemm_bench.sh BIN_DIR OUT_DIR [SQUARE_SIZES]
set -euo pipefail
bin=${1:?usage: run_gemm_bench.sh BIN_DIR OUT_DIR [SQUARE_SIZES]}
source "$(dirname "$0")/../common/bench_steps.sh"  # binary
out=${2:?}
square=${3:-2048,4096,8192,16384}
fat=10000x10000x32,10000x10000x64
mkdir -p "$out"
bench() {  # bench NAME PRIME METHODS SIZES [FLAGS...]
  "$(binary "$bin" hepex_bench)" gemm --prime "$2" --methods "$3" --sizes "$4" --repeats 3 "${@:5}" \
    --json "$out/gemm_$1.json" | tee -a "$out/gemm.log"
}
: >"$out/gemm.log"
bench p16 65521 fp64,int8 "$square,$fat"
bench p20 1048573 fp64,int8 "$square,$fat"
bench p24 16777213 fp64,int8 "$square,$fat"
bench p31 2147483647 int8,multiword "$square,$fat"
bench p63 9223372036854775783 int8 "$square,$fat"
# Sparse-FGLM's loop T V_i: T converted once (GemmWorkspace::keep_left_operand).
bench p16_kept 65521 fp64,int8 "$fat" --keep-a
bench p31_kept 2147483647 int8,multiword "$fat" --keep-a
# The int64 kernel is two orders slower: small sizes only.
bench p31_int64 2147483647 int64 2048,4096
bench p62_int64 4611686018427387847 int64 2048,4096
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
