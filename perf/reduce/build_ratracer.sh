#!/usr/bin/env bash
# Builds the Ratracer anchor (magv/ratracer, the `ratracer` tool: traced
# Gaussian elimination of IBP systems, reconstructed with FireFly) OUTSIDE
# this repository, for perf/reduce/run_ratracer_dbox.sh. Checkouts or git
# mirrors fetched beforehand are exported (nothing is downloaded; no Ratracer
# or FireFly code is copied into this repository):
#   - Ratracer to $ANCHORS/ratracer-src, the binary $ANCHORS/ratracer-src/ratracer;
#   - FireFly as Ratracer's Makefile uses it: magv/firefly, branch `ratracer`
#     (a fork of FireFly 2.0.3 on Flint's nmod/fmpz arithmetic; Ratracer's
#     TraceBB needs its FFInt layout), to $ANCHORS/firefly-src-ratracer, built
#     in $ANCHORS/firefly-build-ratracer and installed under
#     $ANCHORS/firefly-build-ratracer/prefix. The upstream FireFly 2.0.3 build
#     of perf/reconstruct ($ANCHORS/firefly-build) is not touched.
#   RATRACER=/path/to/ratracer (a work tree, or a bare mirror: git archive)
#   FIREFLY=/path/to/magv-firefly (work tree or mirror; FIREFLY_REV=ratracer)
#   ANCHORS=/work/anchors  JOBS=2  FORCE=1 (re-export and rebuild from scratch)
# Ratracer's Makefile downloads and builds jemalloc, GMP, MPFR, Flint 3.1,
# flintxx, zlib and FireFly into build/; here Debian 12's packages stand in
# (libflint-dev 2.9 ships flintxx, libgmp-dev, libmpfr-dev, zlib1g-dev,
# libjemalloc-dev; installed with apt-get when missing and run as root).
# Patches, applied with sed to the exported copy only:
#   1. Makefile: `build/ratracer.o` no longer depends on `build/firefly.done`
#      and `ratracer` not on `build/jemalloc.done` (the download-and-build
#      rules); FireFly's prefix comes in through CXXFLAGS/LDFLAGS.
#   2. ratracer.cpp: `flint_clz(this->mod.n)` (Flint >= 3.0) becomes
#      `__builtin_clzll(this->mod.n)`, the same count of leading zeros of the
#      64-bit modulus, for Flint 2.9 (TraceBB::prime_changed).
# The compile flags are the Makefile's own (-O3 -g -std=c++17 -fopenmp ...);
# FireFly gets the Makefile's CMake options and dependency flags
# (-O3 -fno-omit-frame-pointer -fdata-sections -ffunction-sections).
# Prints the path of the ratracer binary; the commits go to
# $ANCHORS/ratracer-src/COMMIT and $ANCHORS/firefly-src-ratracer/COMMIT.
set -euo pipefail
RATRACER=${RATRACER:?set RATRACER to a ratracer checkout or mirror}
FIREFLY=${FIREFLY:?set FIREFLY to a magv/firefly checkout or mirror (branch ratracer)}
FIREFLY_REV=${FIREFLY_REV:-ratracer}
ANCHORS=${ANCHORS:-/work/anchors}
JOBS=${JOBS:-2}
SRC=$ANCHORS/ratracer-src
FF_SRC=$ANCHORS/firefly-src-ratracer
FF_BUILD=$ANCHORS/firefly-build-ratracer
FF_PREFIX=$FF_BUILD/prefix
log() { echo "[build_ratracer] $*" >&2; }

# Debian's libraries in place of the Makefile's downloads.
need=()
[ -f /usr/include/flint/fmpzxx.h ] || need+=(libflint-dev)
[ -f /usr/include/gmp.h ] || need+=(libgmp-dev)
[ -f /usr/include/mpfr.h ] || need+=(libmpfr-dev)
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
[ -f /usr/include/jemalloc/jemalloc.h ] || need+=(libjemalloc-dev)
command -v cmake >/dev/null || need+=(cmake)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    log "installing ${need[*]}"
    apt-get install -y "${need[@]}" >&2
  else
    log "missing Debian packages: ${need[*]} (apt-get install them)"; exit 1
  fi
fi

# export SRC-REPO REV DEST: a work tree is copied, a (bare) git repository archived.
export_tree() {
  local from=$1 rev=$2 to=$3 commit=unknown
  if git -C "$from" rev-parse "$rev" >/dev/null 2>&1; then
    commit=$(git -C "$from" rev-parse "$rev")
  fi
  mkdir -p "$to"
  if [ -f "$from/CMakeLists.txt" ] || [ -f "$from/Makefile" ]; then
    cp -r "$from/." "$to/"
    rm -rf "$to/.git"
  else
    git -C "$from" archive "$rev" | tar -x -C "$to"
  fi
  echo "$commit" > "$to/COMMIT"
  log "exported $from ($commit) to $to"
}

if [ "${FORCE:-0}" = 1 ]; then rm -rf "$SRC" "$FF_SRC" "$FF_BUILD"; fi

# FireFly (magv/firefly@ratracer), as the Makefile's build/firefly.done rule.
if [ ! -f "$FF_PREFIX/lib/libfirefly.a" ]; then
  [ -f "$FF_SRC/CMakeLists.txt" ] || export_tree "$FIREFLY" "$FIREFLY_REV" "$FF_SRC"
  DEP_FLAGS="-O3 -fno-omit-frame-pointer -fdata-sections -ffunction-sections"
  cmake -S "$FF_SRC" -B "$FF_BUILD" \
    -DCMAKE_POLICY_VERSION_MINIMUM=3.5 -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS="$DEP_FLAGS" \
    -DCMAKE_INSTALL_PREFIX="$FF_PREFIX" -DCMAKE_INSTALL_LIBDIR=lib \
    -DENABLE_STATIC=ON -DENABLE_SHARED=OFF -DENABLE_FF_INSERT=OFF -DENABLE_EXAMPLE=OFF >&2
  make -C "$FF_BUILD" -j"$JOBS" >&2
  make -C "$FF_BUILD" install >&2
fi

# Ratracer.
[ -f "$SRC/ratracer.cpp" ] || export_tree "$RATRACER" HEAD "$SRC"
# Patch 1: no download-and-build prerequisites (applied once: an unpatched
# file only, so that a rebuild does not see a newer Makefile).
if grep -qE '^(build/ratracer\.o|ratracer):.*\.done' "$SRC/Makefile"; then
  sed -i -e 's|^\(build/ratracer\.o: .*\) build/firefly\.done$|\1|' \
         -e 's|^\(ratracer: build/ratracer\.o\) build/jemalloc\.done$|\1|' "$SRC/Makefile"
  if grep -qE '^(build/ratracer\.o|ratracer):.*\.done' "$SRC/Makefile"; then
    log "the Makefile patch did not apply"; exit 1
  fi
fi
# Patch 2: Flint 2.9 has no flint_clz (applied once).
if grep -q 'flint_clz' "$SRC/ratracer.cpp"; then
  sed -i 's|flint_clz(this->mod\.n)|__builtin_clzll(this->mod.n)|' "$SRC/ratracer.cpp"
  if grep -q 'flint_clz' "$SRC/ratracer.cpp"; then log "the flint_clz patch did not apply"; exit 1; fi
fi
mkdir -p "$SRC/build"
# The shipped primes.h, never regenerated by ./mkprimes: as old as mkprimes.
touch -r "$SRC/mkprimes" "$SRC/primes.h"
make -C "$SRC" -j"$JOBS" ratracer \
  CXXFLAGS="-I$FF_PREFIX/include" LDFLAGS="-L$FF_PREFIX/lib" >&2
log "ratracer $(cat "$SRC/COMMIT") with FireFly $(cat "$FF_SRC/COMMIT" 2>/dev/null || echo '?') built"
echo "$SRC/ratracer"
