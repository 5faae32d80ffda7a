#!/usr/bin/env bash
# Builds the FiniteFlow anchor (peraro/finiteflow, GPL) OUTSIDE this
# repository, for perf/reduce/run_finiteflow_dbox.sh: a checkout or git mirror
# fetched beforehand (nothing is downloaded) is exported to
# $ANCHORS/finiteflow-src, configured with CMake (Release, Debian's FLINT and
# GMP), built in $ANCHORS/finiteflow-build (-j2) and installed under
# $ANCHORS/finiteflow-install (lib/libfflow.so, include/fflow/*.hh). No
# FiniteFlow code is copied into this repository.
#   FINITEFLOW=/path/to/finiteflow (a work tree, or a bare mirror: git archive)
#   ANCHORS=/work/anchors  JOBS=2  FORCE=1 (re-export and rebuild from scratch)
# One patch, applied with sed to the exported copy only: upstream expects an
# in-source build (`cmake . && make install`); its generated
# include/fflow/config.hh lands in the build tree, which is not on the include
# path, and `install(FILES include/fflow/config.hh ...)` looks for it in the
# source tree. The sed adds ${CMAKE_CURRENT_BINARY_DIR}/include to the include
# directories and installs config.hh from the build tree. Nothing else is
# changed: FiniteFlow builds as is against Debian 12's FLINT 2.9.
# Prints the FiniteFlow commit (if known) and the install prefix.
set -euo pipefail
FINITEFLOW=${FINITEFLOW:?set FINITEFLOW to a FiniteFlow checkout or mirror}
ANCHORS=${ANCHORS:-/work/anchors}
JOBS=${JOBS:-2}
SRC=$ANCHORS/finiteflow-src
BUILD=$ANCHORS/finiteflow-build
PREFIX=$ANCHORS/finiteflow-install
log() { echo "[build_finiteflow] $*" >&2; }

if [ "${FORCE:-0}" = 1 ]; then rm -rf "$SRC" "$BUILD" "$PREFIX"; fi
commit=unknown
if git -C "$FINITEFLOW" rev-parse HEAD >/dev/null 2>&1; then
  commit=$(git -C "$FINITEFLOW" rev-parse HEAD)
fi
if [ ! -f "$SRC/CMakeLists.txt" ]; then
  mkdir -p "$SRC"
  if [ -f "$FINITEFLOW/CMakeLists.txt" ]; then
    cp -r "$FINITEFLOW/." "$SRC/"
    rm -rf "$SRC/.git"
  else
    git -C "$FINITEFLOW" archive HEAD | tar -x -C "$SRC"
  fi
  echo "$commit" > "$SRC/COMMIT"
  log "exported $FINITEFLOW ($commit) to $SRC"
fi
# The out-of-source patch (idempotent).
if ! grep -q 'CMAKE_CURRENT_BINARY_DIR}/include$' "$SRC/CMakeLists.txt"; then
  sed -i 's|^    ${CMAKE_CURRENT_SOURCE_DIR}/include$|&\n    ${CMAKE_CURRENT_BINARY_DIR}/include|' "$SRC/CMakeLists.txt"
  sed -i 's|^    include/fflow/config.hh$|    ${CMAKE_CURRENT_BINARY_DIR}/include/fflow/config.hh|' "$SRC/CMakeLists.txt"
  grep -q 'CMAKE_CURRENT_BINARY_DIR}/include$' "$SRC/CMakeLists.txt" \
    || { log "the out-of-source patch did not apply"; exit 1; }
  log "patched $SRC/CMakeLists.txt for an out-of-source build"
fi
cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$PREFIX" >&2
make -C "$BUILD" -j"$JOBS" fflow >&2
make -C "$BUILD" install >&2
log "FiniteFlow $(cat "$SRC/COMMIT" 2>/dev/null || echo "$commit") installed in $PREFIX"
echo "$PREFIX"
