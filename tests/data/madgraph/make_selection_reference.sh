#!/usr/bin/env bash
# Reference data for helicity and colour selection and the per-event coupling
# (issue 23), made with MadGraph's own code: for each process, builds
# CUDACPP's C++ library (cppnone, double) of madgraph4gpu's PROCESS.mad
# directory, copied from a checkout OUTSIDE this repository into WORK (nothing
# of it enters hepex), drives its Fortran bridge with selection_driver.cpp on
# every event of PROCESS_onshell_ref.txt, and writes into OUT (default: this
# directory)
#   PROCESS_selection_ref.txt  ievt gs rndhel rndcol igraph ME selhel selcol
#   PROCESS_icolamp.txt        the colour flows each diagram configuration
#                              allows (coloramps.h: one line per iconfig,
#                              1/0 per flow in MadGraph's order)
#   bash tests/data/madgraph/make_selection_reference.sh MG4GPU_DIR WORK [OUT]
# Needs g++ and make (no gfortran: only the C++ targets are built).
# MG4GPU_COMMIT names the checkout's commit in the files' headers when
# MG4GPU_DIR is not a git work tree.
set -euo pipefail
src=${1:?usage: make_selection_reference.sh MG4GPU_DIR WORK [OUT]}
work=${2:?}
here=$(cd "$(dirname "$0")" && pwd)
out=${3:-$here}
seed=20261125
commit=${MG4GPU_COMMIT:-$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)}
mkdir -p "$work" "$out"
work=$(cd "$work" && pwd)
declare -A subdir=([gg_tt]=P1_gg_ttx [gg_ttg]=P1_gg_ttxg [gg_ttgg]=P1_gg_ttxgg [gg_ttggg]=P1_gg_ttxggg)
declare -A npar=([gg_tt]=4 [gg_ttg]=5 [gg_ttgg]=6 [gg_ttggg]=7)
for p in ${PROCESSES:-gg_tt gg_ttg gg_ttgg gg_ttggg}; do
  rm -rf "$work/$p.mad"
  cp -r "$src/epochX/cudacpp/$p.mad" "$work/"
  dir="$work/$p.mad/SubProcesses/${subdir[$p]}"
  # -k: the Fortran targets fail without gfortran; the C++ library still builds.
  (cd "$dir" && make -f cudacpp.mk BACKEND=cppnone FPTYPE=d -j"$(nproc)" -k > "$work/$p.build.log" 2>&1) || true
  lib=$(find "$work/$p.mad/lib" -name "libmg5amc_*_cpp.so" ! -name "*common*" | head -1)
  [ -n "$lib" ] || { echo "$p: no CUDACPP library built (see $work/$p.build.log)" >&2; exit 1; }
  libdir=$(dirname "$lib")
  name=$(basename "$lib" .so)
  g++ -O2 -std=c++17 "$here/selection_driver.cpp" -o "$work/$p.driver" -L"$libdir" -l"${name#lib}" \
    -lmg5amc_common_cpp -Wl,-rpath,"$libdir"
  nconfig=$(grep -o "nconfigSDE = [0-9]*" "$dir/coloramps.h" | awk '{print $3}')
  {
    echo "# $p: made by tests/data/madgraph/make_selection_reference.sh (madgraph4gpu $commit, $p.mad, cppnone, FPTYPE=d, fbridgesequence_nomultichannel_, seed $seed, nconfig $nconfig)"
    (cd "$dir" && "$work/$p.driver" "$here/${p}_onshell_ref.txt" "${npar[$p]}" "$nconfig" "$seed")
  } > "$out/${p}_selection_ref.txt"
  {
    echo "# $p: icolamp of coloramps.h (madgraph4gpu $commit, $p.mad): line ICONFIG, 1 where colour flow i (MadGraph's order) may be chosen"
    grep -E "// ICONFIG=" "$dir/coloramps.h" | sed -e 's|//.*||' -e 's/[{},]/ /g' -e 's/true/1/g' -e 's/false/0/g' | awk '{$1=$1; print}'
  } > "$out/${p}_icolamp.txt"
  echo "$p: $(grep -vc '^#' "$out/${p}_selection_ref.txt") events, $nconfig configurations"
done
