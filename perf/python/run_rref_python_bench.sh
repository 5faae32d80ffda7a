#!/usr/bin/env bash
# hepex.rref from Python beside the C++ host API rref(field, Matrix&, backend)
# on n x n uniform residues mod p: ROUNDS rounds, each one process of each
# (one call apiece, so that neither runs while the other's threads exist),
# then the medians and their ratio.
#   usage: perf/python/run_rref_python_bench.sh BUILD N P host|device ROUNDS
set -euo pipefail
build=$1 n=$2 p=$3 backend=$4 rounds=$5
here=$(dirname "${BASH_SOURCE[0]}")
python=${PYTHON:-python3}
cpp=() py=()
for ((r = 0; r < rounds; ++r)); do
  cpp+=("$("$build/perf/hepex_bench" rref-api "$n" "$p" "$backend" 1 | awk '{print $NF}')")
  py+=("$(PYTHONPATH="$build/python" "$python" "$here/bench_rref_python.py" "$n" "$p" "$backend" 1 | awk '{print $NF}')")
done
PYTHONPATH="$build/python" "$python" - "$n" "$p" "$backend" "${cpp[*]}" "${py[*]}" <<'PY'
import statistics, sys
import hepex
n, p, backend, cpp, py = sys.argv[1:]
cpp, py = [float(x) for x in cpp.split()], [float(x) for x in py.split()]
print(hepex.version_line(), "|", hepex.info()["devices"][0]["name"])
print(f"n={n} p={p} backend={backend}")
print("cpp_api s:", " ".join(f"{t:.4f}" for t in cpp))
print("python  s:", " ".join(f"{t:.4f}" for t in py))
mc, mp = statistics.median(cpp), statistics.median(py)
print(f"median cpp_api {mc:.4f} s, python {mp:.4f} s, python / cpp_api = {mp / mc:.3f}")
PY
