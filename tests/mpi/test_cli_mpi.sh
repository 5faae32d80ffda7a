#!/usr/bin/env bash
# The job commands of the CLI under MPI (docs/cli.md "Many jobs, many ranks"):
# output byte-identical to a single-rank run for reconstruct --file, rref with
# several files and me --batches, with both schedules, rref of one matrix
# (spread over the ranks), and for reduce (its
# probe batches spread over the ranks); a run killed midway and
# restarted from its checkpoint ends with the uninterrupted output and does not
# redo finished jobs; malformed job lists give exit 1 and no output.
#   test_cli_mpi.sh HEPEX "MPIEXEC -n 2 [FLAGS]" WORK_DIR
# With an empty launcher ("") the same checks run on one process (a build
# without MPI: HEPEX_ENABLE_MPI=OFF).
set -uo pipefail
hepex=$1
read -r -a mpiexec <<<"$2"
dir=$3
data=$(cd "$(dirname "$0")/../../examples/data" && pwd)
ranks=$([[ ${#mpiexec[@]} -eq 0 ]] && echo 1 || echo 2)
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
same() {  # same FILE1 FILE2 WHAT
  cmp -s "$1" "$2" || {
    diff "$1" "$2" | head -20 >&2
    fail "$3: output differs from the single-rank run"
  }
  echo "ok: $3"
}

# --- reconstruct --file: one job per line
cat >functions.txt <<'END'
x^2 + 3*y - z/7
(x + 1)/(y - 2)
1/3*x*y^3*z^2 - 5
(x^2 - y^2)/(x + y)
(2*x*y + z^3)/(x - 3*z + 1)
17
x^5*y - 4/9*z^2
(1 + x + y + z)^3
y/(x^2 + z^2 + 1)
(x - y)^2*(y - z)/(3 + x)
END
"$hepex" reconstruct --vars x,y,z --file functions.txt >reconstruct.one || fail "reconstruct, one rank"
[[ $(wc -l <reconstruct.one) -eq 10 ]] || fail "reconstruct: expected 10 lines"
for schedule in static dynamic; do
  for chunk in 1 3; do
    "${mpiexec[@]}" "$hepex" reconstruct --vars x,y,z --file functions.txt --schedule $schedule \
      --chunk $chunk >reconstruct.two || fail "reconstruct under mpiexec ($schedule, chunk $chunk)"
    same reconstruct.one reconstruct.two "reconstruct --file, $ranks ranks, $schedule, chunk $chunk"
  done
done
"${mpiexec[@]}" "$hepex" reconstruct --vars x,y,z --file - <functions.txt >reconstruct.stdin ||
  fail "reconstruct --file - under mpiexec"
same reconstruct.one reconstruct.stdin "reconstruct --file - (stdin reaches rank 0 alone)"

# --- rref with several matrices: one job per file
for k in 0 1 2 3 4 5 6; do
  awk -v seed=$((k + 11)) 'BEGIN {
    srand(seed); m = 5 + int(rand() * 30); n = 5 + int(rand() * 30)
    print "%%MatrixMarket matrix array integer general"; print m, n
    for (i = 0; i < m * n; i++) print int(rand() * 2001) - 1000 }' >m$k.mtx
done
"$hepex" rref --prime 2147483647 m0.mtx m1.mtx m2.mtx m3.mtx m4.mtx m5.mtx m6.mtx >rref.one ||
  fail "rref, one rank"
for k in 0 1 2 3 4 5 6; do "$hepex" rref --prime 2147483647 m$k.mtx; done >rref.each
same rref.each rref.one "rref with several files = each file alone, in order"
for schedule in static dynamic; do
  "${mpiexec[@]}" "$hepex" rref --prime 2147483647 --schedule $schedule m0.mtx m1.mtx m2.mtx \
    m3.mtx m4.mtx m5.mtx m6.mtx >rref.two || fail "rref under mpiexec ($schedule)"
  same rref.one rref.two "rref with 7 files, $ranks ranks, $schedule"
done

# --- rref of one matrix: its rows spread over the ranks (distributed_rref);
# output and pivots those of one rank, whatever the rank count, for a
# rank-deficient matrix with repeated rows and for .npy output
awk 'BEGIN { srand(5); m = 90; n = 70
  print "%%MatrixMarket matrix array integer general"; print m, n
  for (j = 0; j < n; j++) for (i = 0; i < m; i++) {
    r = i % 60; print int(sin(r * 13 + j * 7 + 1) * 1000003) } }' >big.mtx
"$hepex" rref --prime 65521 big.mtx --json spread_one.json >spread.one || fail "rref of one matrix, one rank"
"${mpiexec[@]}" "$hepex" rref --prime 65521 big.mtx --json spread_two.json >spread.two ||
  fail "rref of one matrix under mpiexec"
same spread.one spread.two "rref of one matrix spread over $ranks ranks"
grep -o '"rank": [0-9]*' spread_one.json >rank.one && grep -o '"rank": [0-9]*' spread_two.json >rank.two
same rank.one rank.two "rref of one matrix spread: the rank"
if [[ $ranks -gt 1 ]]; then
  grep -q '"distributed": true' spread_two.json || fail "rref of one matrix: --json does not say distributed"
  "${mpiexec[@]}" "$hepex" rref --prime 4611686018427387847 big.mtx --out spread64.npy ||
    fail "rref of one matrix, 62-bit prime, .npy output, under mpiexec"
  "$hepex" rref --prime 4611686018427387847 big.mtx --out one64.npy || fail "rref, 62-bit prime, one rank"
  same one64.npy spread64.npy "rref of one matrix spread, 62-bit prime, .npy"
  # A .npy input: each rank reads only its rows (io::read_npy_rows).
  "$hepex" rref --prime 65521 one64.npy >npy.one || fail "rref of a .npy input, one rank"
  "${mpiexec[@]}" "$hepex" rref --prime 65521 one64.npy >npy.two || fail "rref of a .npy input under mpiexec"
  same npy.one npy.two "rref of a .npy input spread over $ranks ranks (each rank its rows)"
  # Ranks that read different matrices (mpiexec's ':' with other arguments):
  # exit 1 on every rank, the input named, no output.
  flags=("${mpiexec[@]:3}")
  "${mpiexec[0]}" "${flags[@]}" -n 1 "$hepex" rref --prime 65521 big.mtx --out differ.mtx : \
    -n 1 "$hepex" rref --prime 65521 m0.mtx --out differ.mtx 2>differ.err
  [[ $? -ne 0 ]] || fail "rref with different inputs on the ranks: expected a failure"
  grep -q "read another matrix than rank 0" differ.err || fail "rref, different inputs: $(cat differ.err)"
  [[ ! -e differ.mtx ]] || fail "rref, different inputs: an output file written"
  echo "ok: rref of one matrix, ranks with different inputs refused"
fi

# --- me --batches: one job per batch; batches are slices of one RAMBO stream
"$hepex" me --process gg_ttg --events 500 --batches 6 >me.one 2>/dev/null || fail "me, one rank"
"$hepex" me --process gg_ttg --events 3000 >me.whole || fail "me, one batch"
[[ $(tail -1 me.one) == $(tail -1 me.whole) ]] || fail "me: 6 batches of 500 differ from 3000 events"
for schedule in static dynamic; do
  "${mpiexec[@]}" "$hepex" me --process gg_ttg --events 500 --batches 6 --schedule $schedule \
    >me.two 2>me.err || fail "me under mpiexec ($schedule)"
  same me.one me.two "me --batches 6, $ranks ranks, $schedule"
  grep -q "$ranks ranks" me.err || fail "me: the throughput summary does not name $ranks ranks"
done

# --- reduce: one system, its probe batches spread over the ranks (every rank
# learns the same elimination with rank 0's seed; rank 0 writes the table)
reduce_args=(reduce "$data/ibp_bubble.m" --vars d,s --targets "$data/ibp_bubble_targets.txt" --seed 7)
"$hepex" "${reduce_args[@]}" --out reduce.one --json reduce_one.json 2>/dev/null || fail "reduce, one rank"
"${mpiexec[@]}" "$hepex" "${reduce_args[@]}" --out reduce.two --json reduce_two.json 2>reduce.err ||
  fail "reduce under mpiexec: $(cat reduce.err)"
same reduce.one reduce.two "reduce, $ranks ranks"
grep -q "\"ranks\": $ranks" reduce_two.json || fail "reduce: --json does not name $ranks ranks"
[[ $(grep -c "is a master integral" reduce.err) -eq 1 ]] || fail "reduce: the master warning not once (rank 0's)"
"${mpiexec[@]}" "$hepex" "${reduce_args[@]}" --checkpoint ck-reduce --out reduce.ck 2>/dev/null ||
  fail "reduce --checkpoint under mpiexec"
same reduce.one reduce.ck "reduce --checkpoint, $ranks ranks"
printf 'B[1,1]\nB[7,7]\n' >bad_targets.txt
"${mpiexec[@]}" "$hepex" reduce "$data/ibp_bubble.m" --vars d,s --targets bad_targets.txt \
  --out bad_reduce.out 2>bad.err
[[ $? -eq 1 ]] || fail "reduce with a target not in the system under mpiexec: expected exit 1"
grep -q "bad_targets.txt:2:1" bad.err || fail "reduce: the message does not name bad_targets.txt:2:1"
[[ ! -e bad_reduce.out ]] || fail "reduce: an output file written on failure"
echo "ok: reduce under mpiexec"

# --- malformed job lists: exit 1, a message naming the place, nothing on stdout
printf 'x + 1\nx + * 2\n' >bad.txt
"${mpiexec[@]}" "$hepex" reconstruct --vars x --file bad.txt >bad.out 2>bad.err
[[ $? -eq 1 ]] || fail "malformed expression under mpiexec: expected exit 1"
grep -q "bad.txt:2" bad.err || fail "malformed expression: message does not name bad.txt:2"
[[ ! -s bad.out ]] || fail "malformed expression: partial output"
"${mpiexec[@]}" "$hepex" rref --prime 7 m0.mtx missing.mtx >bad.out 2>bad.err
[[ $? -eq 1 ]] || fail "missing matrix under mpiexec: expected exit 1"
grep -q "missing.mtx" bad.err || fail "missing matrix: message does not name the file"
[[ ! -s bad.out ]] || fail "missing matrix: partial output"
# --batches 0 is the documented default (one batch, its time on stdout).
"$hepex" me --process gg_ttg --events 8 --batches 0 2>/dev/null | grep -q "mean ME" ||
  fail "me --batches 0 (the default, given) refused"
"$hepex" me --process gg_ttg --batches -1 >/dev/null 2>&1 && fail "me --batches -1 accepted"
echo "ok: malformed job lists"

# --- checkpoint: kill a run midway, restart it, compare. The kill must land
# mid-run (some jobs finished, not all), or the restart tests nothing: a run
# that could not be killed mid-run is a failure, not a note.
finished_jobs() {  # finished_jobs DIR: whole job files in DIR
  find "$1" -name 'job-*' ! -name '*.tmp-*' 2>/dev/null | wc -l
}
# The finished job files by name, inode and time: a restart must leave them.
job_files() { stat -c '%n %i %Y' "$1"/job-* 2>/dev/null | grep -v '\.tmp-' | sort; }
# signal_run SIGNAL PID: every process of the session that `setsid` gave the
# run (PID leads it): the launcher and the ranks, which Open MPI puts in
# process groups of their own, so that a signal to the launcher's group
# would miss them.
signal_run() {
  local stat line fields pids=()
  for stat in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null <"$stat" || continue
    read -r -a fields <<<"${line##*) }"  # state ppid pgrp session ...
    [[ ${fields[3]} == "$2" ]] && pids+=("${stat//[^0-9]/}")
  done
  ((${#pids[@]} > 0)) && kill "-$1" "${pids[@]}" 2>/dev/null
  true
}

# rref: job 5's input is a named pipe, fed once for the checkpoint's
# fingerprint of the inputs (read by rank 0 alone) and never again, so the
# job that reads it waits for ever: with the static schedule jobs 0-4 finish
# (one rank: in order; two: rank 0 takes 0-3, rank 1 takes 4-6) and 5 and 6
# do not, on a machine of any speed. The restart gets a regular file of the
# same content in its place (inputs are identified by content).
rref_inputs=(m0.mtx m1.mtx m2.mtx m3.mtx m4.mtx p5.mtx m6.mtx)
cp m5.mtx p5.mtx
"$hepex" rref --prime 2147483647 "${rref_inputs[@]}" >rref_ck.reference || fail "rref reference run"
rm -f p5.mtx && mkfifo p5.mtx || fail "mkfifo"
cat m5.mtx >p5.mtx &
feeder=$!
setsid "${mpiexec[@]}" "$hepex" rref --prime 2147483647 --checkpoint ck-rref "${rref_inputs[@]}" \
  >/dev/null 2>rref_ck.err &
launcher=$!
for _ in $(seq 1200); do
  (($(finished_jobs ck-rref) >= 5)) && break
  kill -0 "$launcher" 2>/dev/null || break
  sleep 0.05
done
sleep 1  # nothing more may finish: job 5 waits for its pipe, job 6 comes after it
job_files ck-rref >before_restart
signal_run KILL "$launcher"
wait "$launcher" 2>/dev/null
kill "$feeder" 2>/dev/null
# A reader that outlived the kill would get end-of-file here and stop.
timeout 5 bash -c ': >p5.mtx' 2>/dev/null
wait "$feeder" 2>/dev/null
names=$(cut -d' ' -f1 before_restart | tr '\n' ' ')
[[ $names == "ck-rref/job-0 ck-rref/job-1 ck-rref/job-2 ck-rref/job-3 ck-rref/job-4 " ]] ||
  fail "rref checkpoint: expected jobs 0-4 finished at the kill, found: '$names' ($(cat rref_ck.err))"
rm -f p5.mtx && cp m5.mtx p5.mtx
"${mpiexec[@]}" "$hepex" rref --prime 2147483647 --checkpoint ck-rref "${rref_inputs[@]}" \
  >rref_ck.resumed 2>rref_ck.err || fail "restarted rref run: $(cat rref_ck.err)"
same rref_ck.reference rref_ck.resumed "rref with 7 files killed after 5 jobs and restarted"
job_files ck-rref | grep -E '/job-[0-4] ' >after_restart
cmp -s before_restart after_restart || fail "rref checkpoint: the restart rewrote finished jobs"
(($(finished_jobs ck-rref) == 7)) || fail "rref checkpoint: the restart did not store jobs 5 and 6"
echo "ok: rref: finished jobs were not redone"

# me: no input to hold a job back, so the jobs are many (64 batches) and the
# run is stopped (SIGSTOP) as soon as one has finished, counted while
# stopped, then killed.
args=(me --process gg_ttgg --events 256 --batches 64 --checkpoint ck)
"$hepex" me --process gg_ttgg --events 256 --batches 64 >me_ck.reference 2>/dev/null ||
  fail "me reference run"
setsid "${mpiexec[@]}" "$hepex" "${args[@]}" >/dev/null 2>&1 &
launcher=$!
for _ in $(seq 6000); do
  (($(finished_jobs ck) >= 1)) && break
  kill -0 "$launcher" 2>/dev/null || break
  sleep 0.01
done
signal_run STOP "$launcher"
sleep 0.5
job_files ck >before_restart
signal_run KILL "$launcher"
wait "$launcher" 2>/dev/null
done_before=$(wc -l <before_restart)
((done_before >= 1)) || fail "me checkpoint: no job had finished when the run was killed"
((done_before < 64)) || fail "me checkpoint: every job had finished before the kill (not a mid-run kill)"
"${mpiexec[@]}" "$hepex" "${args[@]}" >me_ck.resumed 2>/dev/null || fail "restarted me run"
same me_ck.reference me_ck.resumed "me --batches 64 killed after $done_before jobs and restarted"
stat -c '%n %i %Y' $(cut -d' ' -f1 before_restart) | sort >after_restart
cmp -s before_restart after_restart || fail "me checkpoint: the restart rewrote finished jobs"
echo "ok: me: finished jobs were not redone"
"$hepex" me --process gg_ttgg --events 257 --batches 64 --checkpoint ck >/dev/null 2>bad.err
[[ $? -eq 1 ]] && grep -q "different job list" bad.err || fail "checkpoint of another job list accepted"
echo "ok: a checkpoint of another job list is refused"
echo "all job-command checks passed ($ranks ranks)"
