# Sourced by the perf/*/run_*.sh drivers (after `out` is set to OUT_DIR).
# begin_run: makes OUT_DIR, empties OUT_DIR/summary.txt, records the GPU in
# OUT_DIR/device.txt. step NAME COMMAND...: runs COMMAND with its output in
# OUT_DIR/NAME.log, adds "NAME ok|FAILED SECONDS" to the summary, and sets
# status=1 on a failure.
status=0
# binary DIR NAME: DIR/NAME, or where a build tree puts it (DIR/src,
# DIR/tests, DIR/perf), so DIR may be a folder of binaries or a build folder.
binary() {
  local d
  for d in "$1" "$1/src" "$1/tests" "$1/perf"; do
    [[ -x $d/$2 && -f $d/$2 ]] && { echo "$d/$2"; return 0; }
  done
  echo "$1/$2"  # not found: the caller's run of it fails and says so
}
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
