#!/usr/bin/env bash
# The team shapes of the ME kernel on a GPU (issue 6): `hepex_bench me` per
# process and precision for several threads-per-team x events-per-team and
# instance counts, at a small, a medium and a large batch. The defaults in
# src/amplitudes/matrix_element.cpp (team_shape) come from this sweep
# (perf/results/amplitudes/README.md). Output: OUT_DIR/shapes.log and one JSON per run.
#   bash perf/amplitudes/run_me_shapes.sh BIN_DIR OUT_DIR [PROCESSES] [PRECISIONS]
# STREAMS (default "1 4") lists the instance counts.
set -uo pipefail
bin=${1:?usage: run_me_shapes.sh BIN_DIR OUT_DIR [PROCESSES] [PRECISIONS]}
source "$(dirname "$0")/../common/bench_steps.sh"  # binary
out=${2:?}
processes=${3:-gg_tt gg_ttg gg_ttgg gg_ttggg}
precisions=${4:-double}
mkdir -p "$out"
shapes() {  # threads-per-team x events-per-team candidates (SHAPES overrides)
  [ -n "${SHAPES:-}" ] && { echo "$SHAPES"; return; }
  case $1 in
    gg_tt) echo 32x4 32x8 32x16 64x16 ;;
    gg_ttg) echo 32x2 32x4 32x8 64x8 ;;
    gg_ttgg) echo 32x1 64x1 32x2 64x2 ;;
    gg_ttggg) echo 64x1 128x1 160x1 192x1 256x1 ;;
  esac
}
for process in $processes; do
  batches=$([ "$process" = gg_ttggg ] && echo 64,256,1024,8192 || echo 64,256,1024,16384)
  for precision in $precisions; do
    for shape in $(shapes "$process"); do
      for streams in ${STREAMS:-1 4}; do
        tag=${process}_${precision}_${shape}_s$streams
        "$(binary "$bin" hepex_bench)" me --processes "$process" --precisions "$precision" \
          --team-size "${shape%x*}" --events-per-team "${shape#*x}" --streams "$streams" \
          --batches "$batches" --warmup 2 --repeats 5 --budget 2 --json "$out/$tag.json" |
          awk -v s="$streams" '$5 ~ /^[0-9]+$/ && NF == 10 {print $0, "streams", s}'
      done
    done
  done
done | tee "$out/shapes.log"
