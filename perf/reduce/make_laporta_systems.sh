#!/usr/bin/env bash
# Regenerates the three large Laporta IBP benchmark systems of
# perf/reduce/laporta_generator.py into DIR (default /tmp/laporta), with the
# exact parameters of the benchmark:
#   dbox      families/dbox.json, massless planar double box (NeatIBP's
#             examples/dbox), seeds r = 1 dot, s = 2 numerators, all
#             non-zero subsectors of the top sector, pure IBPs (no symmetry
#             relations); targets: top sector, <= 1 dot, <= 1 numerator
#             -> 39790 equations, 29821 integrals, 24 targets; vars d,s,t
#   pentagon  families/pentagon.json, one-loop massless pentagon, seeds
#             r = 4, s = 2, all non-zero subsectors; targets: top sector,
#             <= 4 dots -> 20130 equations, 10377 integrals, 126 targets;
#             vars d,s12,s23,s34,s45,s51
#   dbox13    the double box again with seeds r = 1, s = 3; targets: top
#             sector, <= 1 dot, <= 2 numerators -> 98380 equations, 63706
#             integrals, 48 targets; vars d,s,t
# Per system NAME: NAME.m (Mathematica list, the input of `hepex reduce` and
# of to_finiteflow_input.py / to_kira_equations.py), NAME.kira (Kira's
# equation format), NAME.order (every integral, most complex first: hepex's
# default order), NAME.targets (one a line), NAME.summary.json.
#   perf/reduce/make_laporta_systems.sh [DIR]
#   PYTHON=/usr/bin/python3 (stdlib + sympy)
# then e.g.
#   hepex reduce DIR/dbox.m --vars d,s,t --order DIR/dbox.order \
#     --targets DIR/dbox.targets --out table.txt --json summary.json -v
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-/tmp/laporta}
PYTHON=${PYTHON:-/usr/bin/python3}
mkdir -p "$DIR"
gen() {  # gen NAME FAMILY R S [TARGET_R TARGET_S]
  local name=$1 family=$2 r=$3 s=$4 start end targets=()
  [ $# -ge 6 ] && targets=(--target-r "$5" --target-s "$6")
  start=$(date +%s%N)
  "$PYTHON" "$HERE/laporta_generator.py" "$HERE/families/$family.json" --r "$r" --s "$s" \
    --sectors subsectors --target-sectors top "${targets[@]}" \
    --mathematica "$DIR/$name.m" --kira "$DIR/$name.kira" \
    --order "$DIR/$name.order" --targets "$DIR/$name.targets" --quiet > "$DIR/$name.summary.json"
  end=$(date +%s%N)
  echo "[$name] r=$r s=$s: $(cat "$DIR/$name.summary.json") wall $(( (end - start) / 1000000 )) ms" >&2
}
gen dbox dbox 1 2
gen pentagon pentagon 4 2
gen dbox13 dbox 1 3 1 2
echo "vars: dbox and dbox13 d,s,t; pentagon d,s12,s23,s34,s45,s51; files in $DIR" >&2
