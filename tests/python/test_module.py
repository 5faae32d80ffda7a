"""The package itself: version, exceptions and the GIL released while hepex
computes (another Python thread runs meanwhile)."""
import threading
import time

import numpy as np

import hepex
from conftest import DLPackOnly


def test_version_and_info():
    assert hepex.__version__ == hepex.info()["version"]
    assert hepex.version_line().startswith("hepex " + hepex.__version__)
    assert issubclass(hepex.InvalidInputError, ValueError)
    assert issubclass(hepex.NegativeAnswer, ArithmeticError)
    assert issubclass(hepex.RuntimeFailure, RuntimeError)


def test_gil_is_released_during_rref():
    a = np.random.default_rng(5).integers(0, 2**31 - 1, (700, 700), dtype=np.uint32)
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.01)
    start = time.perf_counter()
    hepex.rref(a, 2**31 - 1, backend="host")
    end = time.perf_counter()
    done.set()
    counter.join()
    during = [t for t in ticks if start < t < end]
    # With the GIL held the counter could not tick while rref ran.
    assert end - start > 0.02 and len(during) >= 5, (end - start, len(during))


def test_host_dlpack_arrays_are_taken():
    a = np.array([[2, 4], [1, 3]], dtype=np.int64)
    assert hepex.rref(DLPackOnly(a), 7).matrix.tolist() == [[1, 0], [0, 1]]
    assert hepex.modgemm(DLPackOnly(a), DLPackOnly(a), 7).tolist() == (a.dot(a) % 7).tolist()
