"""Shared fixtures of the Python tests: the seed (HEPEX_TEST_SEED, printed
in every failure through the test ids), the data directory and the CLI."""
import os
import zlib
import pathlib

import numpy as np
import pytest

SEED = int(os.environ.get("HEPEX_TEST_SEED", "20261126"))
DATA = pathlib.Path(os.environ.get("HEPEX_TEST_DATA_DIR",
                                   pathlib.Path(__file__).resolve().parent.parent / "data"))
PRIMES = [2, 3, 101, 65521, 2**31 - 1, 4294967291, 2**61 - 1, 9223372036854775783]


def rng_for(*keys):
    """A generator seeded from the suite's seed and the case's keys."""
    return np.random.default_rng([SEED, *[zlib.crc32(str(k).encode()) for k in keys]])


class DLPackOnly:
    """An array seen through DLPack alone (as JAX arrays are): on the host or a GPU."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def pytest_report_header(config):
    return f"hepex tests: HEPEX_TEST_SEED={SEED}"


@pytest.fixture
def cli():
    path = os.environ.get("HEPEX_CLI")
    if not path:
        pytest.skip("HEPEX_CLI (the hepex executable) is not set")
    return path
