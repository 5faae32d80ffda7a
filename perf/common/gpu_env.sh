# Sourced on a GPU node after perf/common/build_gpu.sh: the libraries of
# .ext/prefix (GMP, FLINT, OpenBLAS) for the test programs and Python.
_hepex_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.ext"
export LD_LIBRARY_PATH="$_hepex_root/prefix/usr/lib/x86_64-linux-gnu:$_hepex_root/prefix/usr/lib/x86_64-linux-gnu/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
