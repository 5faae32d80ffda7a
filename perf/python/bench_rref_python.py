"""hepex.rref from Python beside the C++ host API on the same n x n uniform
uint32 matrix size mod p (issue: within 5% of the C++ API's time).

usage: PYTHONPATH=build/python python3 perf/python/bench_rref_python.py \
           build/perf/hepex_bench_rref_api N P host|device REPEATS
Prints the times of each repeat and the ratio of the medians.
"""
import statistics
import subprocess
import sys
import time

import numpy as np

import hepex


def main():
    api, n, p, backend, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
    a = np.random.default_rng(7).integers(0, p, (n, n), dtype=np.uint32)
    python_times = []
    cpp_times = []
    # Interleaved: one C++ run (its own process), then one Python call, so
    # that both see the same machine state.
    for _ in range(repeats):
        out = subprocess.run([api, str(n), str(p), backend, "1"], check=True, capture_output=True,
                             text=True).stdout.split()
        cpp_times.append(float(out[-1]))
        start = time.perf_counter()
        r = hepex.rref(a, p, backend=backend)
        python_times.append(time.perf_counter() - start)
        assert r.rank == n
    print(hepex.version_line(), hepex.info()["devices"][0]["name"])
    print(f"n={n} p={p} backend={backend}")
    print("cpp_api s:", " ".join(f"{t:.4f}" for t in cpp_times))
    print("python  s:", " ".join(f"{t:.4f}" for t in python_times))
    mc, mp = statistics.median(cpp_times), statistics.median(python_times)
    print(f"median cpp_api {mc:.4f} s, python {mp:.4f} s, python / cpp_api = {mp / mc:.3f}")


if __name__ == "__main__":
    main()
