#!/usr/bin/env bash
# On a GPU node: MadEvent with hepex's CUDA build against MadEvent with
# CUDACPP's CUDA backend, same .mad directory, same channels, same inputs
# (tmad's: one iteration of NEVT points, single-diagram enhancement on), in
# one call. The node has nvcc but no gfortran, so the .mad directory comes
# with its Fortran already built by madevent_side_by_side.sh on another
# machine (objects and lib/*.a; nothing of MadGraph enters hepex):
#   .ext/madevent/PROCESS.tar.xz, and libgfortran.so.5, libquadmath.so.0
# beside it. Both madevents are linked here with g++; CUDACPP's CUDA
# library is built here with nvcc (FPTYPE=d). Prints per run the cross
# section, the wall time and MadEvent's own ME counter.
#   bash perf/amplitudes/device_madevent.sh OUT [PROCESS]   (after build_gpu.sh build-cuda)
# Environment: CHANNELS ("1 2"), NEVT (8192), VECSIZE (CUDACPP_RUNTIME_VECSIZEUSED, 8192),
# IGRAPH_FIX (1): CUDACPP 82c6b1b0's Bridge::gpu_sequence hands its CUDA
# kernels MadEvent's per-event igraph array, which is host memory
# (compute-sanitizer: sigmaKin's colour choice reads it at a host address;
# every CUDA madevent run aborts on the H100/H200 nodes); with 1 this
# node's copy of Bridge.h copies the array to the device first (six lines,
# applied here, outside hepex); 0 runs CUDACPP as shipped. CUDACPP_ONLY=1:
# unpack and build CUDACPP's library only (beside build_gpu.sh, to save minutes);
# CUDACPP=0: hepex alone, without building CUDACPP.
set -euo pipefail
out=${1:?usage: device_madevent.sh OUT [PROCESS]}
p=${2:-gg_ttgg}
repo=$(pwd)
rt=$repo/.ext/madevent
work=/tmp/hepex_madevent
mkdir -p "$work" "$out"
# Unpacked once per node (a second call reuses it and CUDACPP's build).
[ -f "$work/$p.unpacked" ] || { rm -rf "$work/$p.mad" && tar xJf "$rt/$p.tar.xz" -C "$work" && touch "$work/$p.unpacked"; }
dir=$(echo "$work/$p.mad/SubProcesses/P1_"*)
objs="myamp.o genps.o unwgt.o setcuts.o get_color.o cuts.o cluster.o reweight.o initcluster.o
      addmothers.o setscales.o idenparts.o dummy_fct.o driver_cudacpp.o auto_dsig1_cudacpp.o
      auto_dsig.o matrix1.o counters.o ompnumthreads.o"
link() {
  local exe=$1
  shift
  (cd "$dir" && g++ -o "$exe" $objs -L../../lib -ldhelas -ldsample -lmodel -lgeneric -lpdf \
     -lcernlib -lbias "$@" "$rt/libgfortran.so.5" "$rt/libquadmath.so.0" -Wl,-rpath,"$rt")
}
bridge=$work/$p.mad/SubProcesses/Bridge.h
if [ "${IGRAPH_FIX:-1}" = 1 ] && ! grep -q hepex_igraph_fix "$bridge"; then
  python3 - "$bridge" <<'PY'
import sys
path = sys.argv[1]
s = open(path).read()
old = "    m_pmek->setigraph( igraph );\n    m_pmek->computeMatrixElements( useChannelIds );\n    copyHostFromDevice("
assert s.count(old) == 1, "CUDACPP's gpu_sequence is not as expected"
new = """    { // hepex_igraph_fix: igraph is host memory; the kernels read it on the device
      static int* devIgraph = nullptr;
      if( igraph != nullptr && devIgraph == nullptr ) gpuMalloc( (void**)&devIgraph, m_nevt * sizeof( int ) );
      if( igraph != nullptr ) gpuMemcpy( devIgraph, igraph, m_nevt * sizeof( int ), gpuMemcpyHostToDevice );
      m_pmek->setigraph( igraph != nullptr ? devIgraph : nullptr );
    }
    m_pmek->computeMatrixElements( useChannelIds );
    copyHostFromDevice("""
open(path, "w").write(s.replace(old, new))
PY
fi
if [ "${CUDACPP:-1}" = 1 ]; then
  (cd "$dir" && MADGRAPH_CUDA_ARCHITECTURE=${MADGRAPH_CUDA_ARCHITECTURE:-90} make -k -f cudacpp.mk \
     BACKEND=cuda FPTYPE=d USEBUILDDIR=1 USEGTEST=0 -j"$(nproc)" > "$out/cudacpp_build.log" 2>&1) || true
fi
[ "${CUDACPP_ONLY:-0}" = 1 ] && exit 0
link madevent_hepex -L"$repo/build-cuda/src" -lhepex_madevent -Wl,-rpath,"$repo/build-cuda/src"
# Without CUDACPP's library (its build failed or did not finish): hepex alone.
backends=hepex
libdir=$work/$p.mad/lib/build.cuda_d_inl0_hrd0
if ls "$libdir"/libmg5amc_*_cuda.so 2>/dev/null | grep -qv common; then
  link madevent_cuda -L"$libdir" -lmg5amc_common_cuda -l"$(basename "$(ls "$libdir"/libmg5amc_*_cuda.so | grep -v common)" .so | sed 's/^lib//')" \
    -Wl,-rpath,"$libdir"
  backends="hepex cuda"
else
  echo "$p: no CUDACPP CUDA library (see $out/cudacpp_build.log): hepex only"
fi
export CUDACPP_RUNTIME_VECSIZEUSED=${VECSIZE:-8192}
for ch in ${CHANNELS:-1 2}; do
  printf "%s 1 1 ! Number of events and max and min iterations\n0.000001 ! Accuracy\n0 ! Grid Adjustment 0=none\n1 ! Suppress Amplitude 1=yes\n0 ! Helicity Sum/event 0=exact\n%s ! ICONFIG number\n" "${NEVT:-8192}" "$ch" > "$work/in_$ch"
  for b in $backends; do
    rm -f "$dir/events.lhe" "$dir/results.dat" "$dir/ftn25" "$dir/ftn26"
    start=$(date +%s%N)
    set +e
    (cd "$dir" && "./madevent_$b" < "$work/in_$ch" > "$out/$p.$b.$ch.out" 2> "$out/$p.$b.$ch.err")
    rc=$?
    set -e
    seconds=$(awk -v ns="$(( $(date +%s%N) - start ))" 'BEGIN{printf "%.3f", ns / 1e9}')
    xsec=$(grep -a "Actual xsec" "$out/$p.$b.$ch.out" | awk '{print $NF}' | tail -1 || true)
    mes=$(grep -a "CudaCpp MEs" "$out/$p.$b.$ch.out" | sed 's/.*: *//' || true)
    lhe=$(md5sum "$dir/events.lhe" 2>/dev/null | cut -c1-12 || echo none)
    echo "$p channel $ch $b: exit $rc, xsec $xsec pb, wall ${seconds} s, MEs: $mes, lhe $lhe"
  done
done
