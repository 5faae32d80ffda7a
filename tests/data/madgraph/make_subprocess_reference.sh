#!/usr/bin/env bash
# Reference data for every subprocess of pp -> t t~ + 0..2 jets (issue 41),
# made with MadGraph's own code: madgraph4gpu's pp_tt012j.mad directory,
# copied from a checkout OUTSIDE this repository into WORK (nothing of it
# enters hepex). For each SubProcesses/P<n>_NAME directory:
#   1. extract_subprocess_tables.py writes NAME_{helicities,colormatrix,
#      icolamp,channels,colourbasis}.txt and NAME_subprocess.json (legs, counts);
#   2. CUDACPP's C++ library of the directory is built (cppnone, double);
#   3. rambo_events.py draws on-shell events (512 at sqrt(s) = 1500 GeV, 256
#      at 500 GeV; t and t~ at MT = 173 GeV, the rest massless; seed 20261128);
#   4. selection_driver.cpp drives the library's Fortran bridge as MadEvent
#      does: at the card's coupling G = 1.2177157847767195 with igraph 0, the
#      plain MEs, appended to the events as NAME_onshell_ref.txt
#      (ievt sqrt_s momenta... ME); and with per-event gs, rndhel, rndcol,
#      igraph (seed 20261125, as for the gluon processes) NAME_selection_ref.txt.
# Output in OUT (default: this directory's pp_tt012j/).
#   bash tests/data/madgraph/make_subprocess_reference.sh MG4GPU_DIR WORK [OUT]
# SUBPROCESSES="P0_uux_ttx P1_gu_ttxu" limits the directories. Needs g++, make
# and python3 (no gfortran: only the C++ targets are built). MG4GPU_COMMIT
# names the checkout's commit when MG4GPU_DIR is not a git work tree.
set -euo pipefail
src=${1:?usage: make_subprocess_reference.sh MG4GPU_DIR WORK [OUT]}
work=${2:?usage: make_subprocess_reference.sh MG4GPU_DIR WORK [OUT]}
here=$(cd "$(dirname "$0")" && pwd)
out=${3:-$here/pp_tt012j}
commit=${MG4GPU_COMMIT:-$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)}
mad=pp_tt012j.mad
g=1.2177157847767195 # sqrt(4 pi 0.118): aS of the process's param_card.dat
mkdir -p "$work" "$out"
work=$(cd "$work" && pwd)
out=$(cd "$out" && pwd)
rm -rf "${work:?}/$mad"
cp -r "$src/epochX/cudacpp/$mad" "$work/"
subprocesses=${SUBPROCESSES:-$(cd "$work/$mad/SubProcesses" && ls -d P[0-9]_* | sort)}
for sub in $subprocesses; do
  dir="$work/$mad/SubProcesses/$sub"
  name=${sub#P[0-9]_}
  label="madgraph4gpu $commit, $mad/SubProcesses/$sub"
  python3 "$here/extract_subprocess_tables.py" "$dir" "$out" "$label" > "$out/${name}_subprocess.json"
  read -r npar nconfig masses < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
mass = {"0": "0", "MT": "173"}
print(d["npar"], d["nconfig"], ",".join(mass[m] for m in d["masses"][2:]))' "$out/${name}_subprocess.json")
  # -k: the Fortran targets fail without gfortran; the C++ library still builds.
  (cd "$dir" && make -f cudacpp.mk BACKEND=cppnone FPTYPE=d -j"$(nproc)" -k > "$work/$name.build.log" 2>&1) || true
  lib=$(find "$work/$mad/lib" -name "libmg5amc_${name}_cpp.so" | head -1)
  [ -n "$lib" ] || { echo "$name: no CUDACPP library built (see $work/$name.build.log)" >&2; exit 1; }
  libdir=$(dirname "$lib")
  g++ -O2 -std=c++17 "$here/selection_driver.cpp" -o "$work/$name.driver" -L"$libdir" \
    -l"mg5amc_${name}_cpp" -lmg5amc_common_cpp -Wl,-rpath,"$libdir"
  python3 "$here/rambo_events.py" 20261128 "$masses" 1500:512 500:256 > "$work/$name.events"
  (cd "$dir" && "$work/$name.driver" "$work/$name.events" "$npar" "$nconfig" 20261125 "$g") \
    > "$work/$name.plain"
  {
    echo "# LO QCD reference matrix elements for $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["processes"][0])' "$out/${name}_subprocess.json") (and the processes of ${name}_subprocess.json), ON-SHELL massive tops"
    echo "#   ($label, cppnone, FPTYPE=d, through its Fortran bridge fbridgesequence_nomultichannel_ by selection_driver.cpp at gs = G = $g, igraph 0;"
    echo "#    events: rambo_events.py 20261128, 512 at sqrt(s) = 1500 GeV then 256 at 500 GeV; made by make_subprocess_reference.sh)"
    echo "# ievt sqrt_s E1 px1 py1 pz1 ... E$npar px$npar py$npar pz$npar ME"
    paste -d' ' "$work/$name.events" <(grep -v '^#' "$work/$name.plain" | awk '{print $6}')
  } > "$out/${name}_onshell_ref.txt"
  {
    echo "# $name: made by tests/data/madgraph/make_subprocess_reference.sh ($label, cppnone, FPTYPE=d, fbridgesequence_nomultichannel_, seed 20261125, nconfig $nconfig)"
    (cd "$dir" && "$work/$name.driver" "$work/$name.events" "$npar" "$nconfig" 20261125)
  } > "$out/${name}_selection_ref.txt"
  echo "$name: npar $npar, $nconfig configurations, $(grep -vc '^#' "$out/${name}_onshell_ref.txt") events"
done
