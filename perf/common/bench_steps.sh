# Sourced by the perf/*/run_*.sh drivers (after `out` is set to OUT_DIR).
# begin_run: makes OUT_DIR, empties OUT_DIR/summary.txt, records the GPU in
# OUT_DIR/device.txt. step NAME COMMAND...: runs COMMAND with its output in
# OUT_DIR/NAME.log, adds "NAME ok|FAILED SECONDS" to the summary, and sets
# status=1 on a failure.
status=0
begin_run() {
  mkdir -p "$out"
  : >"$out/summary.txt"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader \
    >"$out/device.txt" 2>&1 || true
}
step() {
  local name=$1 start=$SECONDS r
  shift
  if "$@" >"$out/$name.log" 2>&1; then r=ok; else r=FAILED; status=1; fi
  printf '%-28s %-7s %4ss\n' "$name" "$r" "$((SECONDS - start))" >>"$out/summary.txt"
}
