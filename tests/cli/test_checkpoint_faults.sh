#!/usr/bin/env bash
# Fault injection for --checkpoint (issue 24): the three job commands
# (reconstruct --file, rref with several files, me --batches) are killed at
# a random moment, random job files are then damaged (a byte changed,
# truncated, a line appended, two files swapped, a file of another job list
# copied in), and the rerun must print exactly what an uninterrupted run
# prints, every time.
#   test_checkpoint_faults.sh HEPEX WORK_DIR [TRIALS] [SEED]
set -uo pipefail
hepex=$1
dir=$2
trials=${3:-60}
seed=${4:-${HEPEX_TEST_SEED:-20261124}}
RANDOM=$seed
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
echo "seed $seed (set HEPEX_TEST_SEED to repeat)"

fail() {
  echo "FAIL (seed $seed): $*" >&2
  exit 1
}

# Inputs: 12 rational functions, 6 random 120 x 120 matrices mod 65521.
for i in $(seq 1 12); do
  echo "(x^$i + $i*y*z - 3)/(x*y + $((i + 1))*z^2 + 1) + y^$((i % 5))/$((i + 6))"
done >functions.txt
for m in $(seq 1 6); do
  awk -v s=$((seed + m)) 'BEGIN { srand(s); n = 120; print "%%MatrixMarket matrix array integer general";
    print n, n; for (i = 0; i < n * n; ++i) print int(rand() * 65521) }' >m$m.mtx
done
commands=(
  "reconstruct --vars x,y,z --file functions.txt --chunk 1"
  "rref --prime 65521 m1.mtx m2.mtx m3.mtx m4.mtx m5.mtx m6.mtx"
  "me --process gg_ttgg --events 64 --batches 12 --seed 3"
)
declare -a reference seconds
for c in 0 1 2; do
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  "$hepex" ${commands[$c]} >reference-$c.txt 2>/dev/null || fail "${commands[$c]}: exit $?"
  seconds[$c]=$(( ($(date +%s%N) - start) / 1000000 ))  # milliseconds
done

# damage DIR: one of the five kinds of damage on random job files.
damage() {
  local ck=$1 files
  [[ -d $ck ]] || return
  mapfile -t files < <(ls "$ck" | grep -E '^job-[0-9]+$')
  [[ ${#files[@]} -eq 0 ]] && return
  local a=$ck/${files[RANDOM % ${#files[@]}]} b=$ck/${files[RANDOM % ${#files[@]}]}
  local size
  size=$(stat -c %s "$a")
  case $((RANDOM % 5)) in
    0) printf "\\x$(printf %02x $((1 + RANDOM % 255)))" |
         dd of="$a" bs=1 seek=$((RANDOM % size)) conv=notrunc status=none ;;
    1) truncate -s $((RANDOM % size)) "$a" ;;
    2) echo "1 2 3" >>"$a" ;;
    3) cp "$a" swap && cp "$b" "$a" && mv swap "$b" ;;
    4) [[ -f foreign ]] && cp foreign "$a" ;;
  esac
}

recomputed=0
for t in $(seq 1 "$trials"); do
  c=$((RANDOM % 3))
  ck=ck-$t
  # A finished job file of another job list, for damage kind 4.
  rm -rf foreign-ck && "$hepex" me --process gg_tt --events 8 --batches 2 --checkpoint foreign-ck >/dev/null 2>&1
  cp foreign-ck/job-0 foreign
  # Killed at a random moment of an uninterrupted run's time.
  delay=$((RANDOM % (seconds[c] + 1)))
  # shellcheck disable=SC2086
  (timeout -s KILL "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))" \
    "$hepex" ${commands[$c]} --checkpoint "$ck"; true) >/dev/null 2>&1
  for _ in $(seq 0 $((RANDOM % 3))); do damage "$ck"; done
  # shellcheck disable=SC2086
  "$hepex" ${commands[$c]} --checkpoint "$ck" >out.txt 2>err.txt ||
    fail "trial $t (${commands[$c]}, killed after ${delay} ms): rerun exit $?: $(cat err.txt)"
  cmp -s out.txt reference-$c.txt ||
    fail "trial $t (${commands[$c]}, killed after ${delay} ms): output differs: $(diff out.txt reference-$c.txt | head -5)"
  again=$(grep -c 'running that job again' err.txt)
  recomputed=$((recomputed + again))
  echo "ok: trial $t: ${commands[$c]%% *} killed after ${delay} ms, $again damaged job files run again"
  rm -rf "$ck"
done
# An input rewritten with other content of the same size and time is
# another input: its job list's checkpoint is refused.
"$hepex" rref --prime 65521 m1.mtx m2.mtx --checkpoint ck-same >/dev/null 2>&1 || fail "rref --checkpoint"
cp -p m2.mtx m2.saved
{ head -n 2 m2.saved; tail -n +3 m2.saved | tr 0-9 1-90; } >m2.mtx  # digits shifted: same size
touch -r m2.saved m2.mtx
[[ $(stat -c %s:%Y m2.mtx) == $(stat -c %s:%Y m2.saved) ]] && ! cmp -s m2.mtx m2.saved ||
  fail "could not rewrite m2.mtx with the same size and time"
"$hepex" rref --prime 65521 m1.mtx m2.mtx --checkpoint ck-same >/dev/null 2>err.txt
[[ $? -eq 1 ]] && grep -q "different job list" err.txt ||
  fail "a checkpoint of an input rewritten with the same size and time was used"
mv m2.saved m2.mtx
echo "ok: an input rewritten with the same size and time is another input"
# More --primes keeps the finished jobs.
"$hepex" reconstruct --vars x,y,z --file functions.txt --checkpoint ck-primes >/dev/null 2>&1
cp -rp ck-primes ck-primes.before
"$hepex" reconstruct --vars x,y,z --file functions.txt --checkpoint ck-primes --primes 60 >out.txt 2>&1 ||
  fail "reconstruct with more --primes on a checkpoint: $(cat out.txt)"
diff -r ck-primes ck-primes.before >/dev/null && cmp -s out.txt reference-0.txt ||
  fail "a rerun with more --primes did not keep the finished jobs"
echo "ok: a rerun with more --primes keeps the finished jobs"
# A line that needed more primes is tried again with more; the answered
# lines are kept.
printf 'x + y\nx/3 + 1234567890123456789012345678901234567/7\n3/7\n' >more.txt
"$hepex" reconstruct --vars x,y --file more.txt --primes 1 --checkpoint ck-more >/dev/null 2>&1
[[ $? -eq 3 ]] || fail "a line needing more primes was not exit 3"
cp -p ck-more/job-0 job-0.before
"$hepex" reconstruct --vars x,y --file more.txt --primes 10 --checkpoint ck-more >out.txt 2>&1 ||
  fail "the rerun with more primes: $(cat out.txt)"
grep -qF "(7*x + 3703703670370370367037037036703703701)/(21)" out.txt && cmp -s job-0.before ck-more/job-0 ||
  fail "the rerun with more primes did not answer the failed line or rewrote a finished one: $(cat out.txt)"
echo "ok: a line that needed more primes is tried again with more, the others kept"
# The trials must have met damaged files, or they tested nothing.
((recomputed > 0)) || fail "no trial met a damaged job file"
echo "all $trials trials gave the uninterrupted output ($recomputed damaged job files run again)"
