#!/usr/bin/env bash
# The linear-algebra commands on .npy files (docs/cli.md "Linear algebra"):
# a .npy input gives exactly the output of the same matrix in Matrix Market
# (any integer width, C or Fortran order, either byte order, a 1-D right-hand
# side), --out FILE.npy and --format give the expected bytes, the RREF's
# checkpoint keeps them, and a short file, a wrong or pickled dtype or npy to
# standard output exit 1 with the reason and leave no output file.
# The .npy files are written here byte by byte, from the format's description.
#   test_cli_npy.sh HEPEX WORK_DIR
set -euo pipefail
hepex=$1
dir=$2
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
trap 'echo "FAIL: line $LINENO: $BASH_COMMAND" >&2' ERR

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# bytes VALUE COUNT [big]: VALUE's two's-complement bytes as printf escapes,
# little-endian (or big-endian).
bytes() {
  local k at
  for ((k = 0; k < $2; k++)); do
    at=$k
    if [[ ${3:-} == big ]]; then at=$(($2 - 1 - k)); fi
    printf '\\x%02x' $((($1 >> (8 * at)) & 255))
  done
}

# npy FILE DESCR FORTRAN SHAPE VALUE...: a version 1.0 file of integers.
npy() {
  local file=$1 descr=$2 fortran=$3 shape=$4 size=${2:2} order=
  shift 4
  [[ ${descr:0:1} == ">" ]] && order=big
  local dict="{'descr': '$descr', 'fortran_order': $fortran, 'shape': $shape, }" data="" v
  while (((10 + ${#dict} + 1) % 64 != 0)); do dict+=" "; done
  for v in "$@"; do data+=$(bytes "$v" "$size" $order); done
  {
    printf '\x93NUMPY\x01\x00'
    printf "$(bytes $((${#dict} + 1)) 2)"
    printf '%s\n' "$dict"
    printf "$data"
  } >"$file"
}

# same ARGS... -- ARGS...: both succeed with the same standard output.
same() {
  local first=()
  while [[ $1 != -- ]]; do first+=("$1") && shift; done
  shift
  "$hepex" "${first[@]}" >first.out
  "$hepex" "$@" >second.out
  cmp -s first.out second.out || fail "hepex ${first[*]} and hepex $* differ"
  echo "ok: hepex ${first[*]} = hepex $*"
}

# expect CODE PATTERN ARGS...: the exit code, and the pattern in the output.
expect() {
  local code=$1 pattern=$2 out rc=0
  shift 2
  out=$("$hepex" "$@" 2>&1) || rc=$?
  [[ $rc == "$code" ]] || fail "hepex $*: exit $rc, expected $code: $out"
  [[ $out =~ $pattern ]] || fail "hepex $*: output does not match '$pattern': $out"
  echo "ok: hepex $* -> $rc"
}

# data FILE: a version 1.0 .npy file's data, after its header, as unsigned 32-bit words.
data() { od -An -v -tu4 -j $((10 + $(od -An -tu2 -j 8 -N 2 "$1"))) "$1" | xargs; }

# A = [[1 2 3] [4 5 6]] (mod 7, as the Matrix Market test in test_cli.cmake),
# b = [6 15], v = [1 1 1]^T.
header="%%MatrixMarket matrix array integer general"
printf '%s\n2 3\n1\n4\n2\n5\n3\n6\n' "$header" >A.mtx
printf '%s\n2 1\n6\n15\n' "$header" >b.mtx
printf '%s\n3 1\n1\n1\n1\n' "$header" >v.mtx
npy A.npy '<i8' False '(2, 3)' 1 2 -4 4 5 -1             # -4 = 3, -1 = 6 mod 7
npy A_fortran.npy '<u2' True '(2, 3)' 8 4 2 12 3 6       # columns; 8 = 1, 12 = 5 mod 7
npy A_big.npy '>i4' False '(2, 3)' 1 2 3 4 5 6
npy A_byte.npy '|u1' False '(2, 3)' 1 2 3 4 5 6
npy b.npy '<u4' False '(2,)' 6 15
npy v.npy '<i1' False '(3, 1)' 1 1 1

for a in A.npy A_fortran.npy A_big.npy A_byte.npy; do
  for command in rref rank nullspace; do
    same "$command" --prime 7 A.mtx -- "$command" --prime 7 "$a"
  done
done
same rref --field real A.mtx -- rref --field real A_big.npy
same rank --field complex A.mtx -- rank --field complex A_byte.npy
same solve --prime 7 A.mtx b.mtx -- solve --prime 7 A.npy b.npy
same gemm --prime 7 A.mtx v.mtx -- gemm --prime 7 A_fortran.npy v.npy
same gemm --prime 2147483647 A.mtx v.mtx -- gemm --prime 2147483647 A_big.npy v.npy

# .npy output: the result's words, row by row, after a version 1.0 header.
"$hepex" rref --prime 7 A.mtx --out R.npy
[[ $(head -c 8 R.npy | od -An -tx1 | xargs) == "93 4e 55 4d 50 59 01 00" ]] ||
  fail "R.npy does not start with \\x93NUMPY 1.0"
grep -aq "{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3), }" R.npy ||
  fail "R.npy's header: $(head -c 128 R.npy)"
[[ $(data R.npy) == "1 0 6 0 1 2" ]] || fail "R.npy's data: $(data R.npy)"
same rref --prime 7 A.mtx -- rref --prime 7 R.npy    # the RREF of an RREF is itself
"$hepex" rref --prime 7 A.npy --format npy --out R.bin
cmp R.npy R.bin || fail "--format npy --out R.bin differs from --out R.npy"
"$hepex" nullspace --prime 7 A.npy --out N.npy
[[ $(data N.npy) == "6 2 6" ]] && grep -aq "'shape': (3, 1)" N.npy || fail "N.npy: $(data N.npy)"
"$hepex" solve --prime 7 A.npy b.npy --out X.npy
[[ $(data X.npy) == "0 3 0" ]] || fail "X.npy: $(data X.npy)"
"$hepex" gemm --prime 7 A.npy v.npy --out C.npy
[[ $(data C.npy) == "6 1" ]] && grep -aq "'shape': (2, 1)" C.npy || fail "C.npy: $(data C.npy)"
"$hepex" rref --prime 7 A.npy --out R.txt --format array
cmp R.txt <("$hepex" rref --prime 7 A.mtx) || fail "--format array into R.txt"

# Matrix Market coordinate output: the non-zero entries.
expect 0 $'^%%MatrixMarket matrix coordinate integer general\n2 3 4\n1 1 1\n1 3 6\n2 2 1\n2 3 2$' \
  rref --prime 7 A.npy --format coordinate
expect 0 $'^%%MatrixMarket matrix coordinate integer general\n3 1 3\n1 1 6\n2 1 2\n3 1 6$' \
  nullspace --prime 7 A.npy --format coordinate

# The RREF's checkpoint keeps the bytes of every format.
for run in 1 2; do
  "$hepex" rref --prime 7 A.npy --out K$run.npy --checkpoint ck-npy
  cmp R.npy K$run.npy || fail "rref --checkpoint run $run: .npy output differs"
  "$hepex" rref --prime 7 A.npy A.mtx --format coordinate --checkpoint ck-coordinate >K$run.txt
  "$hepex" rref --prime 7 A.npy A.mtx --format coordinate >plain.txt
  cmp plain.txt K$run.txt || fail "rref --checkpoint run $run: coordinate output differs"
done

# Refusals: exit 1 before any work, no output file.
npy short.npy '<i8' False '(2, 3)' 1 2
npy float.npy '<f8' False '(1, 1)' 0
npy object.npy '|O' False '(1,)'                              # no data: refused before
expect 1 "^hepex: short.npy: 2 x 3 <i8 needs 48 bytes of data, the file has 16" \
  rref --prime 7 short.npy --out short-out.mtx
expect 1 "^hepex: float.npy: dtype '<f8' cannot be read here: a modular run reads integer dtypes" \
  rank --prime 7 float.npy --out float-out.txt
expect 1 "float.npy: dtype '<f8'" solve --prime 7 A.npy float.npy --out float-out.npy
expect 1 "object.npy: dtype '\\|O' is not supported: object arrays are pickled; save integers as int64/uint64" \
  nullspace --prime 7 object.npy --out object-out.npy
expect 1 "short.npy: 2 x 3 <i8 needs 48 bytes" gemm --prime 7 v.npy short.npy --out gemm-out.npy
expect 1 "^hepex: --format npy needs --out FILE" rref --prime 7 A.mtx --format npy
expect 1 "^hepex: .npy output \\(--format npy, or --out FILE.npy\\) takes one input" \
  rref --prime 7 A.mtx A.npy --out two.npy
expect 1 "format" rank --prime 7 A.mtx --format npy    # rank prints a number: no --format
for f in short-out.mtx float-out.txt float-out.npy object-out.npy gemm-out.npy two.npy; do
  if compgen -G "$f*" >/dev/null; then fail "$f was created by a refused command"; fi
done
echo "all .npy CLI checks passed"
