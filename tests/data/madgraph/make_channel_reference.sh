#!/usr/bin/env bash
# Reference data for MadEvent's multichannel weights (issue 39), made with
# MadGraph's own Fortran: for each process, MadGraph's get_channel_cut
# (SubProcesses/genps.f, sde_strategy 2) and the process's configs.inc and
# props.inc and config_subproc_map.inc, taken from madgraph4gpu's PROCESS.mad directory of a checkout
# OUTSIDE this repository into WORK (nothing of it enters hepex), are
# compiled with channel_driver.f and run on every event of
# PROCESS_onshell_ref.txt, writing into OUT (default: this directory)
#   PROCESS_channel_weights_ref.txt   ievt stot tmin diagram weight
# (two run settings: stot 1.69e8 GeV^2 with tmin_for_channel -1, and stot
# 2.25e6 with tmin -0.3, so that the t-channel cut acts; three configurations
# per event and setting). Also writes PROCESS_channels.txt through
# extract_channels.py. Needs gfortran and python3.
#   bash tests/data/madgraph/make_channel_reference.sh MG4GPU_DIR WORK [OUT]
set -euo pipefail
src=${1:?usage: make_channel_reference.sh MG4GPU_DIR WORK [OUT]}
work=${2:?}
here=$(cd "$(dirname "$0")" && pwd)
out=${3:-$here}
commit=${MG4GPU_COMMIT:-$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)}
mkdir -p "$work" "$out"
work=$(cd "$work" && pwd)
declare -A subdir=([gg_tt]=P1_gg_ttx [gg_ttg]=P1_gg_ttxg [gg_ttgg]=P1_gg_ttxgg [gg_ttggg]=P1_gg_ttxggg)
for p in ${PROCESSES:-gg_tt gg_ttg gg_ttgg gg_ttggg}; do
  mad="$src/epochX/cudacpp/$p.mad"
  dir="$work/$p"
  rm -rf "$dir" && mkdir -p "$dir"
  for f in configs.inc props.inc config_subproc_map.inc nexternal.inc maxamps.inc; do cp "$mad/SubProcesses/${subdir[$p]}/$f" "$dir/"; done
  for f in maxconfigs.inc maxparticles.inc genps.inc; do cp -L "$mad/SubProcesses/$f" "$dir/"; done
  cp "$mad/Source/vector.inc" "$mad/Source/MODEL/coupl.inc" "$dir/"
  # MadGraph's function alone, from its header line to its END.
  awk '/double precision function get_channel_cut/{on=1} on{print} on&&/^ *end *$/{exit}' \
    "$mad/SubProcesses/genps.f" > "$dir/get_channel_cut.f"
  gfortran -O0 -ffixed-line-length-132 -I"$dir" "$here/channel_driver.f" "$dir/get_channel_cut.f" \
    -o "$dir/driver"
  {
    echo "# $p: MadGraph's multichannel weights, sde_strategy 2 (genps.f get_channel_cut over the sum over"
    echo "#   configurations, as matrix1.f forms AMP2(channel)/XTOT), madgraph4gpu $commit, $p.mad,"
    echo "#   MT 173, WT 1.4915, for the events of ${p}_onshell_ref.txt (make_channel_reference.sh)"
    echo "# ievt stot tmin_for_channel diagram(channel id) weight"
    grep -v '^#' "$here/${p}_onshell_ref.txt" | (cd "$dir" && ./driver)
  } > "$out/${p}_channel_weights_ref.txt"
done
mkdir -p "$work/cudacpp"
for p in gg_tt gg_ttg gg_ttgg gg_ttggg; do
  mkdir -p "$work/cudacpp/$p.mad/SubProcesses/${subdir[$p]}"
  cp "$src/epochX/cudacpp/$p.mad/SubProcesses/${subdir[$p]}/"{configs,props,config_subproc_map}.inc \
    "$work/cudacpp/$p.mad/SubProcesses/${subdir[$p]}/"
done
python3 "$here/extract_channels.py" "$work/cudacpp"
