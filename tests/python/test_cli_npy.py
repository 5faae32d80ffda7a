"""The command line and numpy exchange .npy files: hepex writes what
numpy.load reads, and reads what numpy.save writes (results against sympy)."""
import subprocess

import numpy as np
import pytest

from conftest import SEED, rng_for
from test_linalg import oracle_rref_mod, random_low_rank


@pytest.mark.parametrize("p,dtype", [(65521, np.uint32), (2**31 - 1, np.int64),
                                     (2**61 - 1, np.uint64)])
@pytest.mark.parametrize("fortran", [False, True])
def test_rref_npy_in_and_out(cli, tmp_path, p, dtype, fortran):
    rng = rng_for("cli npy", p, fortran)
    a = random_low_rank(rng, 11, 8, 5, p)
    np.save(tmp_path / "A.npy", np.asfortranarray(a.astype(dtype)) if fortran else a.astype(dtype))
    subprocess.run([cli, "rref", "--prime", str(p), str(tmp_path / "A.npy"), "--out",
                    str(tmp_path / "R.npy")], check=True)
    r = np.load(tmp_path / "R.npy")
    assert r.dtype == (np.uint32 if p < 2**31 else np.uint64)
    assert r.tolist() == oracle_rref_mod(a, p)[0], f"seed {SEED}"


def test_truncated_npy_is_refused(cli, tmp_path):
    np.save(tmp_path / "A.npy", np.eye(4, dtype=np.uint32))
    data = (tmp_path / "A.npy").read_bytes()
    (tmp_path / "B.npy").write_bytes(data[:-5])
    run = subprocess.run([cli, "rank", "--prime", "101", str(tmp_path / "B.npy")],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "B.npy" in run.stderr, run.stderr
