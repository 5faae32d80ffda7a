#!/usr/bin/env python3
"""Linac's own GPU row reduction beside hepex's (the anchor of issue 42).

Runs linac/pycuda_row_reduce.py's cuda_row_reduce and linac/row_reduce.cu
from a checkout of GDeLaurentis/linac, unmodified, on a GPU node that has
CuPy but no PyCUDA: the few PyCUDA calls Linac makes (mem_alloc, Memcpy2D,
SourceModule(...).get_function, launches with block= and grid=) are served
by a stand-in on CuPy (RawModule with the nvcc backend, the source wrapped in
extern "C" as PyCUDA does). The kernels, their grid and block sizes and the
host loop are Linac's. Linac's code is read from LINAC_DIR, never copied into
hepex.

First every size's result is checked against an exact RREF mod p (Python
integers) on small random, rank-deficient, wide and tall matrices; then
random dense n x n matrices mod p are reduced REPEATS times each. Timed: CUDA
events from the first kernel launch to the start of the download (Linac's
column loop, gpu_event_s); call_total_s is the whole call, nvcc included. One line per size:
  linac n=... field=Zp p=... seconds=... rank=... gpu_event_s=...
        call_total_s=... launches=... rank_rows=... identity=yes|no all_seconds=...

usage: linac_rref_driver.py LINAC_DIR SIZES [PRIME] [REPEATS]
  LINAC_DIR  a checkout of GDeLaurentis/linac (its linac/ folder is used)
  SIZES      comma-separated matrix orders, e.g. 8192,16384
  PRIME      default 2147483647 (below 2^32: Linac's 32-bit kernels)
  REPEATS    default 2; the best is reported
"""
import importlib.util
import os
import random
import sys
import tempfile
import time
import types

import numpy


def install_pycuda_stand_in(include_dir, counters):
    """pycuda, pycuda.driver, pycuda.autoinit and pycuda.compiler as modules
    backed by CuPy, with events around the column loop in `counters`."""
    import cupy as cp

    driver = types.ModuleType("pycuda.driver")
    autoinit = types.ModuleType("pycuda.autoinit")
    compiler = types.ModuleType("pycuda.compiler")
    package = types.ModuleType("pycuda")
    package.driver, package.autoinit, package.compiler = driver, autoinit, compiler

    driver.mem_alloc = lambda nbytes: cp.empty(int(nbytes), dtype=cp.uint8)

    class Memcpy2D:
        def set_src_host(self, array):
            self.src, self.upload = numpy.ascontiguousarray(array), True

        def set_dst_device(self, memory):
            self.dst = memory

        def set_src_device(self, memory):
            self.src, self.upload = memory, False

        def set_dst_host(self, array):
            if not array.flags.c_contiguous:
                raise ValueError("linac_rref_driver: the host matrix is not contiguous")
            self.dst = array

        def __call__(self, aligned=True):
            rt = cp.cuda.runtime
            if self.upload:
                rt.memcpy2D(self.dst.data.ptr, self.dst_pitch, self.src.ctypes.data,
                            self.src_pitch, self.width_in_bytes, self.height,
                            rt.memcpyHostToDevice)
            else:
                counters["stop"] = cp.cuda.Event()
                counters["stop"].record()
                rt.memcpy2D(self.dst.ctypes.data, self.dst_pitch, self.src.data.ptr,
                            self.src_pitch, self.width_in_bytes, self.height,
                            rt.memcpyDeviceToHost)

    driver.Memcpy2D = Memcpy2D

    class Function:
        def __init__(self, kernel):
            self.kernel = kernel

        def __call__(self, *args, block, grid, **unused):
            if counters["launches"] == 0:  # the column loop starts (after the compilation)
                counters["start"] = cp.cuda.Event()
                counters["start"].record()
            counters["launches"] += 1
            grid = tuple(grid) + (1,) * (3 - len(grid))
            block = tuple(block) + (1,) * (3 - len(block))
            self.kernel(grid, block, args)

    class SourceModule:
        def __init__(self, source, cache_dir=None, options=None, **unused):
            code = 'extern "C" {\n' + source + "\n}\n"
            # A module of its own each time, as PyCUDA loads one per call:
            # Linac's row and column counters are __device__ globals that
            # start at 0, and CuPy would hand back a loaded module of the
            # same source and options with the last call's counters.
            counters["modules"] = counters.get("modules", 0) + 1
            self.module = cp.RawModule(code=code, backend="nvcc", options=(
                "-I" + include_dir, f"-DLINAC_DRIVER_MODULE={counters['modules']}"))

        def get_function(self, name):
            return Function(self.module.get_function(name))

    compiler.SourceModule = SourceModule
    sys.modules.update({"pycuda": package, "pycuda.driver": driver,
                        "pycuda.autoinit": autoinit, "pycuda.compiler": compiler})


def load_linac_row_reduce(linac_dir):
    """linac.pycuda_row_reduce without running linac/__init__.py (which
    imports Linac's optional dependencies)."""
    folder = os.path.join(linac_dir, "linac")
    if not os.path.isfile(os.path.join(folder, "row_reduce.cu")):
        sys.exit(f"linac_rref_driver: {folder}/row_reduce.cu not found (LINAC_DIR = a linac checkout)")
    package = types.ModuleType("linac")
    package.__path__ = [folder]
    sys.modules["linac"] = package
    spec = importlib.util.spec_from_file_location("linac.pycuda_row_reduce",
                                                  os.path.join(folder, "pycuda_row_reduce.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.cuda_row_reduce


def exact_rref(rows, p):
    """Gauss-Jordan mod p on lists of Python integers: the reference."""
    a = [list(r) for r in rows]
    m, n = len(a), len(a[0])
    r = 0
    for c in range(n):
        pivot = next((i for i in range(r, m) if a[i][c] % p), None)
        if pivot is None:
            continue
        a[r], a[pivot] = a[pivot], a[r]
        inverse = pow(a[r][c], p - 2, p)
        a[r] = [x * inverse % p for x in a[r]]
        for i in range(m):
            if i != r and a[i][c]:
                factor = a[i][c]
                a[i] = [(x - factor * y) % p for x, y in zip(a[i], a[r])]
        r += 1
        if r == m:
            break
    return a


def check(row_reduce, p, rng):
    def random_matrix(m, n):
        return [[rng.randrange(p) for _ in range(n)] for _ in range(m)]

    def product(x, y):
        return [[sum(a * b for a, b in zip(row, col)) % p for col in zip(*y)] for row in x]

    cases = {"random 64x64": random_matrix(64, 64),
             "rank 8, 64x64": product(random_matrix(64, 8), random_matrix(8, 64)),
             "wide 32x80": random_matrix(32, 80),
             "tall 80x32": random_matrix(80, 32)}
    # The timed matrices are random and square: that case must agree, the
    # others are reported (a difference is Linac's, and said).
    for name, rows in cases.items():
        got = [[int(x) for x in r] for r in
               row_reduce(numpy.array(rows, dtype=numpy.uint64), field_characteristic=p)]
        want = exact_rref(rows, p)
        if got == want:
            print(f"check ok: {name}", flush=True)
            continue
        differing = [i for i in range(len(want)) if got[i] != want[i]]
        same_rows = sorted(map(tuple, got)) == sorted(map(tuple, want))
        print(f"check DIFFERS: {name}: rows {differing[:8]} of {len(want)} differ; "
              f"the same rows in another order: {same_rows}; "
              f"Linac's first differing row {got[differing[0]][:6]}..., exact {want[differing[0]][:6]}...",
              flush=True)
        if name.startswith("random"):
            sys.exit("linac_rref_driver: Linac is wrong on the kind of matrix it is timed on")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    linac_dir, sizes = sys.argv[1], [int(s) for s in sys.argv[2].split(",")]
    p = int(sys.argv[3]) if len(sys.argv) > 3 else 2147483647
    repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    if not 2 < p < 2**32 or repeats < 1 or min(sizes) < 1:
        sys.exit("linac_rref_driver: PRIME must lie in (2, 2^32), REPEATS and SIZES >= 1")
    include_dir = tempfile.mkdtemp(prefix="linac_include_")
    # Linac's source includes PyCUDA's complex header; Z/p never uses it.
    open(os.path.join(include_dir, "pycuda-complex.hpp"), "w").close()
    counters = {"launches": 0}
    install_pycuda_stand_in(include_dir, counters)
    import cupy as cp
    row_reduce = load_linac_row_reduce(linac_dir)
    check(row_reduce, p, random.Random(20261205))
    generator = numpy.random.default_rng(1)
    for n in sizes:
        times, events, totals = [], [], []
        for _ in range(repeats):
            a = generator.integers(0, p, size=(n, n), dtype=numpy.uint64)
            counters["launches"] = 0
            start = time.perf_counter()
            reduced = row_reduce(a, field_characteristic=p)
            totals.append(time.perf_counter() - start)
            counters["stop"].synchronize()
            events.append(cp.cuda.get_elapsed_time(counters["start"], counters["stop"]) / 1e3)
            times.append(events[-1])
        nonzero = numpy.count_nonzero(reduced.any(axis=1))
        identity = "yes" if numpy.array_equal(reduced, numpy.eye(n, dtype=reduced.dtype)) else "no"
        best = min(range(repeats), key=lambda r: times[r])
        print(f"linac n={n} field=Zp p={p} seconds={times[best]:.6f} rank={nonzero} "
              f"gpu_event_s={events[best]:.6f} call_total_s={totals[best]:.3f} "
              f"launches={counters['launches']} rank_rows={nonzero} identity={identity} "
              f"all_seconds={','.join(f'{t:.6f}' for t in times)}", flush=True)


if __name__ == "__main__":
    main()
