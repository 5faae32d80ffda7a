#!/usr/bin/env bash
# Runs every fuzz target for SECONDS on a scratch copy of its committed
# corpus (tests/fuzz/corpus_<name>); the crash-regression inputs in
# tests/fuzz/regressions/<name> run first. Exit 1 on any crash.
#   run_fuzzers.sh BUILD_DIR/tests/fuzz SECONDS
set -euo pipefail
bin=$1
seconds=${2:-60}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in matrix_market expression momenta select checkpoint; do
  mkdir -p "$work/$name"
  cp "$here/corpus_$name"/* "$work/$name/"
  if [ -d "$here/regressions/$name" ]; then
    "$bin/hepex_fuzz_$name" "$here/regressions/$name"/*
  fi
  echo "fuzzing $name for $seconds s"
  "$bin/hepex_fuzz_$name" -max_total_time="$seconds" -print_final_stats=1 "$work/$name" 2>&1 |
    tail -n 12
done
echo "all fuzz targets ran without a crash"
