#!/usr/bin/env bash
# Reference data for the subprocesses of pp -> t t~ + 3 jets with one light
# quark pair (issue 41), which madgraph4gpu ships no directory of, made with
# MadGraph5_aMC@NLO's own code: a MadGraph checkout OUTSIDE this repository
# (nothing of it enters hepex; the newest that can be fetched here is 3.1.1,
# github HEPcodes/MG5_aMC aeb9651: mg5amcnlo/mg5amcnlo itself is over the
# fetch limit, and CUDACPP's plugin needs MadGraph >= 3.7.1, so these are
# MadGraph's Fortran MEs, not CUDACPP's C++). In WORK it
#   1. generates each subprocess twice with MadGraph (its flavours u c d s as
#      one process, no mirror, as pp_tt012j groups them): `output madevent
#      --hel_recycling=False` for the tables, `output standalone` for the MEs;
#   2. extract_madevent_subprocess_tables.py writes NAME_{helicities,
#      colormatrix,icolamp,channels,colourbasis}.txt and NAME_subprocess.json
#      from the MadEvent directory;
#   3. builds the standalone process (its matrix.f with one added call,
#      HEPEX_RECORD_JAMPS, see standalone_driver.cpp), with param_card.dat of
#      this directory (MadGraph's card of the CUDACPP processes) and
#      standalone_driver.cpp / standalone_glue.f;
#   4. draws on-shell events with rambo_events.py (seed 20261128: 512 at
#      sqrt(s) = 1500 GeV, 256 at 500 GeV) and writes NAME_onshell_ref.txt
#      (the MEs at G = 1.2177157847767195) and NAME_selection_ref.txt
#      (per-event gs, rndhel, rndcol, igraph; seed 20261125), as
#      make_subprocess_reference.sh does for pp_tt012j.
# Output in OUT (default: this directory's pp_tt3j/).
#   bash tests/data/madgraph/make_madevent_reference.sh MG5_DIR WORK [OUT]
# MG5_DIR: a MadGraph5_aMC@NLO directory (bin/mg5_aMC). SUBPROCESSES limits
# the list below. VALIDATE=1 instead makes the two 2-jet subprocesses
# uux_ttxgg and gux_ttxgux the same way, on pp_tt012j's own events, in WORK
# only, and compares them with pp_tt012j's files (made from CUDACPP of
# MadGraph 3.7): helicities, colour matrix and basis the same, MEs to 1e-12,
# selhel the same (channels, icolamp and so selcol differ: MadGraph 3.1
# numbers the diagrams of a four-gluon vertex otherwise).
# Needs python3, gfortran, g++ and make.
set -euo pipefail
mg5=${1:?usage: make_madevent_reference.sh MG5_DIR WORK [OUT]}
work=${2:?usage: make_madevent_reference.sh MG5_DIR WORK [OUT]}
here=$(cd "$(dirname "$0")" && pwd)
out=${3:-$here/pp_tt3j}
g=1.2177157847767195 # sqrt(4 pi 0.118): aS of param_card.dat
# hepex's name -> MadGraph's process (q: u c d s).
declare -A process=(
  [uux_ttxggg]="q q~ > t t~ g g g @3" [gu_ttxggu]="g q > t t~ g g q @3"
  [gux_ttxggux]="g q~ > t t~ g g q~ @3" [gg_ttxguux]="g g > t t~ g q q~ @3"
  [uux_ttxgg]="q q~ > t t~ g g @2" [gux_ttxgux]="g q~ > t t~ g q~ @2")
if [ "${VALIDATE:-0}" = 1 ]; then
  subprocesses="uux_ttxgg gux_ttxgux"
  out=$work/validate
else
  subprocesses=${SUBPROCESSES:-"uux_ttxggg gu_ttxggu gux_ttxggux gg_ttxguux"}
fi
[ -x "$mg5/bin/mg5_aMC" ] && [ -f "$mg5/VERSION" ] ||
  { echo "make_madevent_reference.sh: $mg5 is no MadGraph5_aMC@NLO directory (bin/mg5_aMC, VERSION)" >&2; exit 1; }
for tool in gfortran g++ python3; do
  command -v "$tool" > /dev/null || { echo "make_madevent_reference.sh: $tool not found" >&2; exit 1; }
done
mkdir -p "$work" "$out"
work=$(cd "$work" && pwd)
out=$(cd "$out" && pwd)
mg5=$(cd "$mg5" && pwd)
version=$(sed -n 's/^version *= *//p' "$mg5/VERSION")
commit=$(git -C "$mg5" rev-parse --short HEAD 2>/dev/null || echo "${MG5_COMMIT:-unknown}")
{
  echo "set auto_update 0"
  echo "set automatic_html_opening False"
  echo "set zerowidth_tchannel F"
  echo "import model sm"
  echo "define q = u c d s"
  echo "define q~ = u~ c~ d~ s~"
  for name in $subprocesses; do
    rm -rf "${work:?}/$name.mad" "${work:?}/$name.sa"
    echo "generate ${process[$name]}"
    echo "output madevent $work/$name.mad --hel_recycling=False"
    echo "output standalone $work/$name.sa"
  done
} > "$work/proc_card.txt"
(cd "$mg5" && python3 bin/mg5_aMC "$work/proc_card.txt") > "$work/mg5.log" 2>&1 ||
  { echo "MadGraph failed: see $work/mg5.log" >&2; exit 1; }
for name in $subprocesses; do
  mad=$(ls -d "$work/$name.mad/SubProcesses/"P[0-9]_*)
  sa=$(ls -d "$work/$name.sa/SubProcesses/"P[0-9]_*)
  [ "$(echo "$mad" | wc -w)" = 1 ] && [ "$(echo "$sa" | wc -w)" = 1 ] ||
    { echo "$name: not one subprocess directory in $work/$name.{mad,sa}" >&2; exit 1; }
  label="MadGraph5_aMC@NLO $version ($commit), output madevent, SubProcesses/$(basename "$mad")"
  python3 "$here/extract_madevent_subprocess_tables.py" "$mad" "$out" "$name" "$label" \
    > "$out/${name}_subprocess.json"
  # The standalone output must number the helicity combinations as the MadEvent one.
  diff <(grep 'DATA (NHEL' "$mad/matrix1.f") <(grep 'DATA (NHEL' "$sa/matrix.f") > /dev/null ||
    { echo "$name: the standalone and MadEvent helicity tables differ" >&2; exit 1; }
  read -r npar nconfig masses < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
mass = {"0": "0", "MT": "173"}
print(d["npar"], d["nconfig"], ",".join(mass[m] for m in d["masses"][2:]))' "$out/${name}_subprocess.json")
  iden=$(sed -n 's/^ *DATA IDEN\/\([0-9]*\)\/.*/\1/p' "$sa/matrix.f")
  [ "$(grep -c '^      MATRIX = 0.D0' "$sa/matrix.f")" = 1 ] ||
    { echo "$name: MATRIX's colour sum not found in $sa/matrix.f" >&2; exit 1; }
  cp "$here/param_card.dat" "$work/$name.sa/Cards/param_card.dat"
  sed 's/^      MATRIX = 0.D0/      CALL HEPEX_RECORD_JAMPS(JAMP, NCOLOR)\n      MATRIX = 0.D0/' \
    "$sa/matrix.f" > "$sa/matrix_hepex.f"
  (cd "$sa" &&
    gfortran -O2 -ffixed-line-length-132 -I. -c matrix_hepex.f "$here/standalone_glue.f" &&
    g++ -O2 -std=c++17 "$here/standalone_driver.cpp" matrix_hepex.o standalone_glue.o \
      -L../../lib -ldhelas -lmodel -lgfortran -o standalone_driver) > "$work/$name.build.log" 2>&1 ||
    { echo "$name: build failed, see $work/$name.build.log" >&2; exit 1; }
  if [ "${VALIDATE:-0}" = 1 ]; then
    grep -v '^#' "$here/pp_tt012j/${name}_onshell_ref.txt" | awk -v n="$npar" \
      '{ line = $1 " " $2; for (k = 3; k <= 2 + 4 * n; ++k) line = line " " $k; print line }' \
      > "$work/$name.events"
  else
    python3 "$here/rambo_events.py" 20261128 "$masses" 1500:512 500:256 > "$work/$name.events"
  fi
  (cd "$sa" && ./standalone_driver "$work/$name.events" "$npar" "$out/${name}_helicities.txt" \
    "$out/${name}_icolamp.txt" "$iden" 20261125 "$g") > "$work/$name.plain"
  {
    echo "# LO QCD reference matrix elements for $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["processes"][0])' "$out/${name}_subprocess.json") (and the processes of ${name}_subprocess.json), ON-SHELL massive tops"
    echo "#   (MadGraph5_aMC@NLO $version ($commit), output standalone, SMATRIX of $(basename "$sa"), by standalone_driver.cpp at gs = G = $g;"
    echo "#    events: rambo_events.py 20261128, 512 at sqrt(s) = 1500 GeV then 256 at 500 GeV; made by make_madevent_reference.sh)"
    echo "# ievt sqrt_s E1 px1 py1 pz1 ... E$npar px$npar py$npar pz$npar ME"
    paste -d' ' "$work/$name.events" <(grep -v '^#' "$work/$name.plain" | awk '{print $6}')
  } > "$out/${name}_onshell_ref.txt"
  {
    echo "# $name: made by tests/data/madgraph/make_madevent_reference.sh (MadGraph5_aMC@NLO $version ($commit), output standalone, $(basename "$sa"), standalone_driver.cpp, seed 20261125, nconfig $nconfig)"
    (cd "$sa" && ./standalone_driver "$work/$name.events" "$npar" "$out/${name}_helicities.txt" \
      "$out/${name}_icolamp.txt" "$iden" 20261125)
  } > "$out/${name}_selection_ref.txt"
  echo "$name: npar $npar, $nconfig configurations, IDEN $iden, $(grep -vc '^#' "$out/${name}_onshell_ref.txt") events"
  if [ "${VALIDATE:-0}" = 1 ]; then
    for table in helicities colormatrix colourbasis; do
      diff <(grep -v '^#' "$out/${name}_$table.txt") \
        <(grep -v '^#' "$here/pp_tt012j/${name}_$table.txt") > /dev/null ||
        { echo "$name: $table differs from pp_tt012j's" >&2; exit 1; }
    done
    python3 - "$out" "$here/pp_tt012j" "$name" <<'EOF'
import sys
mine, theirs, name = sys.argv[1:]
def rows(path):
    return [l.split() for l in open(path) if not l.startswith("#")]
a, b = rows(f"{mine}/{name}_onshell_ref.txt"), rows(f"{theirs}/{name}_onshell_ref.txt")
me = max(abs(float(x[-1]) / float(y[-1]) - 1) for x, y in zip(a, b))
a, b = rows(f"{mine}/{name}_selection_ref.txt"), rows(f"{theirs}/{name}_selection_ref.txt")
assert len(a) == len(b) == 768, (len(a), len(b))
gs = max(abs(float(x[1]) / float(y[1]) - 1) for x, y in zip(a, b))
sel_me = max(abs(float(x[5]) / float(y[5]) - 1) for x, y in zip(a, b))
selhel = sum(x[6] != y[6] for x, y in zip(a, b))
print(f"{name}: MEs at G against CUDACPP's: largest relative difference {me:.2e}; "
      f"at per-event gs {sel_me:.2e} (gs {gs:.1e}); selhel differs in {selhel} of {len(a)}")
if me > 1e-12 or sel_me > 1e-12 or selhel:
    raise SystemExit(f"{name}: not MadGraph 3.7's CUDACPP reference")
EOF
  fi
done
