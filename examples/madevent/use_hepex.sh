#!/usr/bin/env bash
# Lets a MadGraph .mad directory's MadEvent use hepex's matrix elements
# (docs/madevent.md): adds `include .../hepex.mk` at the end of its
# SubProcesses/makefile, once (running it again changes nothing). Usage:
#     bash use_hepex.sh PROCESS.mad [HEPEX_MK]
# HEPEX_MK: the hepex.mk to include (default: the one beside this script).
# Afterwards HEPEX=<directory of libhepex_madevent.so> in the environment
# switches madevent_cpp* / madevent_cuda (and bin/generate_events) to hepex.
set -euo pipefail
mad=${1:?usage: use_hepex.sh PROCESS.mad [HEPEX_MK]}
mk=$(cd "$(dirname "${2:-$(dirname "$0")/hepex.mk}")" && pwd)/$(basename "${2:-hepex.mk}")
makefile="$mad/SubProcesses/makefile"
[ -f "$makefile" ] || { echo "use_hepex.sh: $makefile: no such file (a .mad directory?)" >&2; exit 1; }
[ -f "$mk" ] || { echo "use_hepex.sh: $mk: no such file" >&2; exit 1; }
line="include $mk"
grep -qxF "$line" "$makefile" || printf '\n%s\n' "$line" >> "$makefile"
echo "use_hepex.sh: $makefile includes $mk"
