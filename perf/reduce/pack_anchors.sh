#!/usr/bin/env bash
# Packs the anchors that build_ratracer.sh and build_finiteflow.sh (with
# run_finiteflow_dbox.sh's driver) built on this machine, for the GPU
# machine, where nothing can be fetched or built from the network:
#   OUT (default .ext/anchors.tar.xz, git-ignored, carried to the device):
#     anchors/bin/ratracer, anchors/bin/finiteflow_reduce_driver,
#     anchors/lib/*.so (libfflow and every library either needs that is not
#     the C/C++ runtime: FLINT, NTL, gf2x, MPFR, GMP, jemalloc, libgomp, zlib)
# and, with INPUTS=1, the benchmark systems that device_side_by_side.sh reads
# besides .ext/dbox and .ext/laporta, compressed (the carry is 64 MiB):
#   .ext/inputs.tar.xz: laporta/dbox13.{m,order,targets} (make_laporta_systems.sh
#   dbox13) and ffinput/NAME.txt (to_finiteflow_input.py of each system, so the
#   device does not spend minutes converting).
# Nothing of the anchors is in the repository.
#   perf/reduce/pack_anchors.sh
# Environment: ANCHORS (/work/anchors), OUT, INPUTS (0), LAPORTA (/tmp/laporta,
# where make_laporta_systems.sh wrote dbox13.*).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
ANCHORS=${ANCHORS:-/work/anchors}
OUT=${OUT:-$REPO/.ext/anchors.tar.xz}
LAPORTA=${LAPORTA:-/tmp/laporta}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/anchors/bin" "$stage/anchors/lib"
cp "$ANCHORS/ratracer-src/ratracer" "$ANCHORS/finiteflow_reduce_driver" "$stage/anchors/bin/"
cp "$ANCHORS/finiteflow-install/lib/libfflow.so" "$stage/anchors/lib/"
for binary in "$stage/anchors/bin/"*; do
  LD_LIBRARY_PATH=$ANCHORS/finiteflow-install/lib ldd "$binary" | awk '/=> \// {print $3}'
done | sort -u | grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt)\.so' |
  while read -r lib; do cp -L "$lib" "$stage/anchors/lib/"; done
tar -C "$stage" -cJf "$OUT" anchors
echo "[pack_anchors] $OUT: $(tar -tJf "$OUT" | grep -c '[^/]$') files, $(du -h "$OUT" | cut -f1)" >&2
if [ "${INPUTS:-0}" = 1 ]; then
  mkdir -p "$stage/inputs/laporta" "$stage/inputs/ffinput"
  cp "$LAPORTA"/dbox13.{m,order,targets} "$stage/inputs/laporta/"
  convert() {  # convert NAME SYSTEM ORDER TARGETS VARS
    python3 "$HERE/to_finiteflow_input.py" "$2" "$3" "$4" "$5" "$stage/inputs/ffinput/$1.txt" >&2
  }
  convert neatibp_dbox "$REPO/.ext/dbox/IBP_all.txt" "$REPO/.ext/dbox/OrderedIntegrals.txt" \
    "$REPO/.ext/dbox/targetIntegrals.txt" d,s,t
  convert laporta_dbox "$REPO/.ext/laporta/dbox.m" "$REPO/.ext/laporta/dbox.order" \
    "$REPO/.ext/laporta/dbox.targets" d,s,t
  convert laporta_pentagon "$REPO/.ext/laporta/pentagon.m" "$REPO/.ext/laporta/pentagon.order" \
    "$REPO/.ext/laporta/pentagon.targets" d,s12,s23,s34,s45,s51
  convert laporta_dbox13 "$LAPORTA/dbox13.m" "$LAPORTA/dbox13.order" "$LAPORTA/dbox13.targets" d,s,t
  tar -C "$stage" -cJf "$REPO/.ext/inputs.tar.xz" inputs
  echo "[pack_anchors] $REPO/.ext/inputs.tar.xz: $(du -h "$REPO/.ext/inputs.tar.xz" | cut -f1)" >&2
fi
