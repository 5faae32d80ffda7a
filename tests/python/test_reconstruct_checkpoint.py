"""Probe logs (`hepex reconstruct --checkpoint DIR`, `hepex.reconstruct(...,
checkpoint=DIR)`): a run killed halfway resumes with the probes it had and
gives the answer an uninterrupted run gives; a log of another function is
refused. The CLI run is killed with SIGKILL once its log holds a few
thousand probes."""
import os
import signal
import subprocess
import time

import numpy as np
import pytest
import sympy

import hepex
from conftest import SEED, rng_for

VARS = "x1,x2,x3,x4,x5"
# 33,655 numerator terms: about 70,000 probes, 1-3 s on one core.
LONG = "(x1+2*x2-3*x3+x4-5*x5+7)^18/((x1*x2-x3+x5)^2*x4*x1)"


def test_cli_killed_run_resumes_from_its_probes(cli, tmp_path):
    expr = tmp_path / "long.txt"
    expr.write_text(LONG + "\n")
    plain = subprocess.run([cli, "reconstruct", "--vars", VARS, "--file", str(expr)],
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0, plain.stderr
    ck = tmp_path / "ck"
    log = ck / "probes-0"
    run = subprocess.Popen([cli, "reconstruct", "--vars", VARS, "--file", str(expr),
                            "--checkpoint", str(ck), "--seed", str(SEED)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline and run.poll() is None:
        if log.exists() and log.stat().st_size > 400_000:  # ~5,000 records
            break
        time.sleep(0.005)
    assert run.poll() is None, "the run ended before it could be killed"
    run.send_signal(signal.SIGKILL)
    run.wait()
    kept = log.stat().st_size
    assert kept > 400_000
    assert not (ck / "job-0").exists()

    resumed = subprocess.run([cli, "reconstruct", "--vars", VARS, "--file", str(expr),
                              "--checkpoint", str(ck), "-v"],
                             capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == plain.stdout
    assert f"probes of an earlier run with seed {SEED} (this run's seed now)" in resumed.stderr
    answered = [line for line in resumed.stderr.splitlines() if "answered by" in line]
    assert len(answered) == 1, resumed.stderr
    replayed = int(answered[0].split()[1])
    assert replayed >= 5000
    # The result is the checkpoint's now; the probe log is gone.
    assert (ck / "job-0").exists() and not log.exists()


def test_cli_refuses_a_log_of_another_function(cli, tmp_path):
    expr = tmp_path / "f.txt"
    expr.write_text("(x1+3*x2)^3/(x1*x2+1)\n")
    ck = tmp_path / "ck"
    ck.mkdir()
    (ck / "probes-0").write_text("hepex probe log 1 2 1 0123456789abcdef 5\n")
    r = subprocess.run([cli, "reconstruct", "--vars", "x1,x2", "--file", str(expr),
                        "--checkpoint", str(ck)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert "probes-0: a probe log of another job" in r.stderr
    assert r.stdout == ""


def _black_box(shift):
    """f(points, p) of a rational function of (x, y, z) with a denominator
    that vanishes on x = 0, counting the points it is asked for."""
    calls = [0]

    def f(points, p):
        calls[0] += len(points)
        x, y, z = (points[:, i].astype(object) for i in range(3))
        num = (x + 2 * y + 3) ** 4 * (z + 5) + shift * x * (y - 7) ** 2 * (x * z + y)
        den = x * (y - 7) ** 2 * (x * z + y)
        ok = np.array([int(d) % p != 0 for d in den % p])
        values = [int(n) * pow(int(d), -1, p) % p if o else 0
                  for n, d, o in zip(num % p, den % p, ok)]
        return np.array(values, dtype=object), ok

    return f, calls


def test_python_checkpoint_replays_and_refuses_another_function(tmp_path):
    x, y, z = sympy.symbols("x y z")
    truth = (x + 2 * y + 3) ** 4 * (z + 5) / (x * (y - 7) ** 2 * (x * z + y))
    f, calls = _black_box(0)
    first = hepex.reconstruct(f, "x,y,z", checkpoint=tmp_path, stats=True)
    assert sympy.simplify(sympy.sympify(first.result, locals={"x": x, "y": y, "z": z}) - truth) == 0
    assert calls[0] <= first.probes + 1
    calls[0] = 0
    again = hepex.reconstruct(f, "x,y,z", checkpoint=tmp_path, stats=True)
    assert again.result == first.result and again.seed == first.seed
    assert calls[0] <= 5  # the count of functions, then 4 stored points checked
    # A seed given: other points, the same answer.
    other = hepex.reconstruct(f, "x,y,z", checkpoint=tmp_path, seed=SEED + 1)
    assert other == first.result
    g, _ = _black_box(1)  # f + 1
    with pytest.raises(hepex.InvalidInputError, match="differs from the log's"):
        hepex.reconstruct(g, "x,y,z", checkpoint=tmp_path)


def test_python_checkpoint_expressions_each_get_a_log(tmp_path):
    rng = rng_for("checkpoint expressions")
    texts = [f"(x + {50 * i + int(rng.integers(1, 50))}*y)^3/(x*y + {int(rng.integers(1, 9))})"
             for i in range(3)]
    first = hepex.reconstruct(texts, "x,y", checkpoint=tmp_path)
    assert sorted(os.listdir(tmp_path)) == ["probes-0", "probes-1", "probes-2"]
    assert hepex.reconstruct(texts, "x,y", checkpoint=tmp_path) == first
    with pytest.raises(hepex.InvalidInputError, match="a probe log of another job"):
        hepex.reconstruct(list(reversed(texts)), "x,y", checkpoint=tmp_path)


@pytest.mark.parametrize("bad", [42, "", b"bytes"])
def test_python_checkpoint_argument_is_checked(bad):
    with pytest.raises(hepex.InvalidInputError, match="checkpoint"):
        hepex.reconstruct("x+1", "x", checkpoint=bad)


def test_python_checkpoint_that_is_a_file_is_refused(tmp_path):
    file = tmp_path / "file"
    file.write_text("")
    with pytest.raises(hepex.InvalidInputError, match="not a directory"):
        hepex.reconstruct("x+1", "x", checkpoint=file)
