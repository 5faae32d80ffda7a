"""hepex.jobs: the families' job lists from Python (checkpointed, and over
MPI ranks under mpiexec): RREFs equal hepex.rref's (itself tested against
FLINT), answers equal the input expressions (sympy), batch means equal
`hepex me --batches`; a checkpoint gives the same results without running;
two MPI ranks give what one process gives; bad arguments are refused
before any work."""
import io
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import sympy

import hepex
from hepex import jobs
from conftest import SEED, rng_for


def write_matrices(tmp_path, p, count, key):
    rng = rng_for("jobs", key)
    paths, matrices = [], []
    for k in range(count):
        rows, cols = rng.integers(1, 30, size=2)
        rank = rng.integers(0, min(rows, cols) + 1)
        a = (rng.integers(0, p, size=(rows, rank)) @ rng.integers(0, p, size=(rank, cols))) % p
        a = a.astype(np.int64)
        path = tmp_path / f"m{k}.npy"
        np.save(path, a)
        paths.append(str(path))
        matrices.append(a)
    return paths, matrices


@pytest.mark.parametrize("p", [101, 65521, 2**31 - 1])
def test_rref_jobs_equal_hepex_rref_and_the_checkpoint_keeps_them(tmp_path, p):
    paths, matrices = write_matrices(tmp_path, p, 6, p)
    ck = tmp_path / "ck"
    results = jobs.rref(paths, p, checkpoint=ck, schedule="dynamic", chunk=2)
    assert len(results) == len(paths)
    for a, r in zip(matrices, results):
        want, rank, pivots = hepex.rref(a, p)
        got = np.load(io.BytesIO(r["matrix"]))
        assert np.array_equal(got, want), f"seed {SEED}"
        assert (r["rows"], r["cols"], r["rank"], r["pivots"]) == (a.shape[0], a.shape[1], rank, list(pivots))
    assert sorted(os.listdir(ck)) == sorted(["jobs"] + [f"job-{k}" for k in range(len(paths))])
    again = jobs.rref(paths, p, checkpoint=ck)
    assert again == results  # the stored seconds too: nothing ran again
    text = jobs.rref(paths[:1], p, format="array")[0]["matrix"].decode()
    assert text.startswith("%%MatrixMarket matrix array integer general")


def test_reconstruct_jobs_give_the_functions_and_retry_only_failures(tmp_path):
    s, t, d = sympy.symbols("s t d")
    big = "(123456789012345678901234567*s^2 + t)/(d - 4)"
    texts = ["(s+t)^2/(s*t)", "1/(d-4) + s", big]
    ck = tmp_path / "ck"
    first = jobs.reconstruct(texts, "s,t,d", seed=SEED, primes=1, checkpoint=ck)
    assert [r["ok"] for r in first] == [True, True, False]
    assert "primes" in first[2]["error"]
    for text, r in zip(texts[:2], first[:2]):
        assert r["inputs"][1] - r["inputs"][0] == 1
        answer = sympy.sympify(r["functions"][0].replace("^", "**"))
        assert sympy.simplify(answer - sympy.sympify(text.replace("^", "**"))) == 0
    more = jobs.reconstruct(texts, "s,t,d", seed=SEED, primes=20, checkpoint=ck)
    assert more[:2] == first[:2]  # kept from the checkpoint
    assert more[2]["ok"] and more[2]["primes"] >= 2
    answer = sympy.sympify(more[2]["functions"][0].replace("^", "**"))
    assert sympy.simplify(answer - sympy.sympify(big.replace("^", "**"))) == 0
    together = jobs.reconstruct(texts[:2], ["s", "t", "d"], seed=SEED, together=True)
    assert len(together) == 1 and together[0]["inputs"] == (0, 2)
    assert together[0]["functions"] == [r["functions"][0] for r in first[:2]]


def test_me_batches_equal_the_cli(cli, tmp_path):
    out = subprocess.run([cli, "me", "--process", "gg_ttg", "--events", "50", "--batches", "3",
                          "--seed", str(SEED % 1000), "--backend", "host"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    means = [float(line.split()[4]) for line in out.stdout.splitlines() if line.startswith("batch ")]
    results = jobs.me("gg_ttg", events=50, batches=3, seed=SEED % 1000, checkpoint=tmp_path / "ck")
    assert len(results) == len(means) == 3
    for r, m in zip(results, means):
        assert r["mean"] == pytest.approx(m, rel=1e-9)
    assert jobs.me("gg_ttg", events=50, batches=3, seed=SEED % 1000,
                   checkpoint=tmp_path / "ck") == results


SCRIPT = """
import json, sys
from hepex import jobs
paths = json.loads(sys.argv[1])
r = jobs.rref(paths, 65521, mpi=True, schedule=sys.argv[2])
f = jobs.reconstruct(["(s+t)/(s-t)", "s^3", "1/(s*t)"], "s,t", seed=7, mpi=True, chunk=1)
m = jobs.me("gg_tt", events=20, batches=5, seed=3, mpi=True)
if r or f or m:  # rank 0
    print(json.dumps([[x["matrix"].hex() for x in r], [x["functions"] for x in f],
                      [x["sum"] for x in m]]))
"""


@pytest.mark.skipif(not hepex.info()["mpi"] or shutil.which("mpiexec") is None,
                    reason="no MPI in this build, or no mpiexec")
@pytest.mark.parametrize("schedule", ["static", "dynamic"])
def test_two_mpi_ranks_give_what_one_process_gives(tmp_path, schedule):
    paths, _ = write_matrices(tmp_path, 65521, 5, "mpi")
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    run = subprocess.run(["mpiexec", "-n", "2", sys.executable, str(script), json.dumps(paths),
                          schedule], capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    lines = [line for line in run.stdout.splitlines() if line.startswith("[")]
    assert len(lines) == 1  # rank 0's; rank 1 got empty lists
    got = json.loads(lines[0])
    r = jobs.rref(paths, 65521)
    f = jobs.reconstruct(["(s+t)/(s-t)", "s^3", "1/(s*t)"], "s,t", seed=7)
    m = jobs.me("gg_tt", events=20, batches=5, seed=3)
    assert got == [[x["matrix"].hex() for x in r], [x["functions"] for x in f], [x["sum"] for x in m]]


def test_bad_arguments_are_refused_before_any_work(tmp_path):
    paths, _ = write_matrices(tmp_path, 101, 2, "bad")
    bad = [
        (lambda: jobs.rref(paths[0], 101), "a list of matrix files"),
        (lambda: jobs.rref(paths, 100), "not a prime"),
        (lambda: jobs.rref(paths, 101, format="csv"), "format"),
        (lambda: jobs.rref(paths, 101, chunk=0), "chunk"),
        (lambda: jobs.rref(paths, 101, schedule="round-robin"), "schedule"),
        (lambda: jobs.rref(paths, 101, mpi="yes"), "mpi"),
        (lambda: jobs.rref(paths, 101, checkpoint=""), "checkpoint"),
        (lambda: jobs.rref(paths + [str(tmp_path / "absent.npy")], 101), "absent.npy"),
        (lambda: jobs.reconstruct("s", "s"), "a list of expressions"),
        (lambda: jobs.reconstruct([], "s"), "no expressions"),
        (lambda: jobs.reconstruct(["s + u"], "s"), "unknown variable 'u'"),
        (lambda: jobs.reconstruct(["s"], "s", primes=0), "primes"),
        (lambda: jobs.reconstruct(["s"], "s", mpi=True), "seed"),
        (lambda: jobs.me("gg_qq"), "gg_qq"),
        (lambda: jobs.me("gg_tt", events=0), "events"),
        (lambda: jobs.me("gg_tt", sqrt_s=float("nan")), "sqrt_s"),
        (lambda: jobs.me("gg_tt", events=1 << 40), "GiB"),
    ]
    for call, words in bad:
        with pytest.raises(hepex.InvalidInputError, match=words.replace("(", r"\(")):
            call()
