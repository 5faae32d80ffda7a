"""hepex.rref from Python on an n x n uniform uint32 matrix mod p: the
Python side of run_rref_python_bench.sh (issue: within 5% of the C++ API).

usage: PYTHONPATH=build/python python3 perf/python/bench_rref_python.py N P host|device REPEATS
Prints "python N P BACKEND SECONDS..." (each repeat), as `hepex_bench rref-api`
prints "cpp_api ...".
"""
import sys
import time

import numpy as np

import hepex


def main():
    n, p, backend, repeats = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    a = np.random.default_rng(7).integers(0, p, (n, n), dtype=np.uint32)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        r = hepex.rref(a, p, backend=backend)
        times.append(time.perf_counter() - start)
        assert r.rank == n
    print("python", n, p, backend, " ".join(f"{t:.6f}" for t in times))


if __name__ == "__main__":
    main()
