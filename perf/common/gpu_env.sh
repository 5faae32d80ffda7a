# Sourced on a GPU node after perf/common/build_gpu.sh: the libraries of
# .ext/prefix (GMP, FLINT, OpenBLAS) for the test programs and Python.
_hepex_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.ext"
export LD_LIBRARY_PATH="$_hepex_root/prefix/usr/lib/x86_64-linux-gnu:$_hepex_root/prefix/usr/lib/x86_64-linux-gnu/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
# libgomp's threads spin after each of the host space's parallel regions by
# default; they then take the cores from hepex's host threads (the
# reconstruction's algebra, core/host_threads.hpp) and the other way round.
# Passive waiting, measured on the H200 node's 16 Xeon cores (2026-11-27,
# e1aaa5c, the 20,130-equation pentagon): 10.5-11.2 s -> 8.2 s.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
