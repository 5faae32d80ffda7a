"""Issue 36 on the command line: primes (W2, W3, W5) against sympy, the
primes and the work in --json, outputs that fail (--json /dev/full), --out
onto a symbolic link, Ctrl-C (no temporary left), progress (-v and the
30-second line), documented defaults given explicitly, numbers beyond a
double."""
import json
import os
import signal
import subprocess
import time

import pytest
import sympy

from conftest import SEED

P1, P2 = 9223372036854775783, 9223372036854775643  # the primes hepex once fixed


def run(cli, *args, **kwargs):
    return subprocess.run([cli, *map(str, args)], capture_output=True, text=True, timeout=600,
                          **kwargs)


@pytest.mark.parametrize("function,variables", [
    (f"x + {P1}/{P2}", "x"),              # W2: "(x)/(1)", exit 0
    (f"({P1}*{P2}*x + 1)/(y+2)", "x,y"),  # W3: "(1)/(y + 2)", exit 0
    (f"x/{P1}", "x"),                     # W5: exit 3, "undefined at all 64 points"
])
@pytest.mark.parametrize("seed", [None, 1, SEED])
def test_inputs_that_defeated_the_fixed_primes(cli, tmp_path, function, variables, seed):
    args = ["reconstruct", "--vars", variables, "--function", function, "--json", tmp_path / "r.json"]
    if seed is not None:
        args += ["--seed", seed]
    r = run(cli, *args)
    assert r.returncode == 0, r.stderr
    names = sympy.symbols(variables.replace(",", " "))
    got, want = sympy.sympify(r.stdout), sympy.sympify(function.replace("^", "**"))
    assert sympy.cancel(got - want) == 0, (r.stdout, function)
    summary = json.loads((tmp_path / "r.json").read_text())
    if seed is not None:
        assert summary["seed"] == seed
    work = summary["results"][0]
    assert work["seed"] == summary["seed"]
    assert [p["role"] for p in work["prime_list"]][-1] == "check"
    assert all(2**62 < p["prime"] < 2**63 for p in work["prime_list"])
    assert sum(p["probes"] for p in work["prime_list"]) == work["probes"]
    del names


def test_two_seeds_different_primes_same_answer(cli, tmp_path):
    primes, answers = [], []
    for seed in (3, 4):
        r = run(cli, "reconstruct", "--vars", "s,t,d", "--function", "(s^2 - t)/(s*t*(d - 4))",
                "--seed", seed, "--json", tmp_path / f"{seed}.json")
        assert r.returncode == 0, r.stderr
        answers.append(r.stdout)
        primes.append({p["prime"] for p in json.loads((tmp_path / f"{seed}.json").read_text())
                       ["results"][0]["prime_list"]})
    assert answers[0] == answers[1] == "(s^2 - t)/(s*t*d - 4*s*t)\n"
    assert primes[0].isdisjoint(primes[1])


def test_a_failed_reconstruction_reports_its_work(cli, tmp_path):
    """--json of a failed reconstruction said 0 primes and 0 probes."""
    r = run(cli, "reconstruct", "--vars", "x", "--function",
            "x/3 + 1234567890123456789012345678901234567/7", "--primes", 1, "--json",
            tmp_path / "r.json")
    assert r.returncode == 3
    assert "1 prime did not determine the function" in r.stderr and "raise --primes" in r.stderr
    work = json.loads((tmp_path / "r.json").read_text())["results"][0]
    assert work["primes"] == 1 and work["probes"] > 0 and work["prime_list"][0]["role"] == "image"
    assert "error" in work


def test_degree_limit_names_the_option(cli):
    r = run(cli, "reconstruct", "--vars", "x", "--function", "x^30 + 1", "--max-degree", 10)
    assert r.returncode == 3
    assert "exceeds the limit 10 (raise --max-degree)" in r.stderr, r.stderr


@pytest.mark.parametrize("args", [
    ["reconstruct", "--vars", "x,y", "--function", "1/x + 1/y"],
    ["rank", "--prime", 7, "A.mtx"],
    ["rref", "--prime", 7, "A.mtx"],
    ["gemm", "--prime", 7, "A.mtx", "A.mtx"],
    ["me", "--process", "gg_tt", "--events", 8],
])
def test_a_json_that_cannot_be_written_leaves_stdout_empty(cli, tmp_path, args):
    """docs/cli.md: nothing on standard output when a write fails."""
    (tmp_path / "A.mtx").write_text("%%MatrixMarket matrix array integer general\n2 2\n1\n2\n3\n4\n")
    r = run(cli, *args, "--json", "/dev/full", cwd=tmp_path)
    assert r.returncode == 1 and "--json: cannot write '/dev/full'" in r.stderr, r.stderr
    assert r.stdout == ""
    (tmp_path / "previous.txt").write_text("previous\n")
    r = run(cli, *args, "--json", "/dev/full", "--out", "previous.txt", cwd=tmp_path)
    assert r.returncode == 1 and (tmp_path / "previous.txt").read_text() == "previous\n"


def test_out_onto_a_symbolic_link_writes_its_target(cli, tmp_path):
    (tmp_path / "A.mtx").write_text("%%MatrixMarket matrix array integer general\n2 2\n1\n2\n3\n4\n")
    (tmp_path / "target.txt").write_text("old\n")
    os.symlink("target.txt", tmp_path / "link.txt")
    os.symlink("later.txt", tmp_path / "dangling.txt")
    assert run(cli, "rank", "--prime", 7, "A.mtx", "--out", "link.txt", cwd=tmp_path).returncode == 0
    assert os.path.islink(tmp_path / "link.txt")
    assert (tmp_path / "target.txt").read_text() == "2\n"
    assert run(cli, "rank", "--prime", 7, "A.mtx", "--out", "dangling.txt", cwd=tmp_path).returncode == 0
    assert os.path.islink(tmp_path / "dangling.txt") and (tmp_path / "later.txt").read_text() == "2\n"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_run_leaves_no_temporary(cli, tmp_path, sig):
    p = subprocess.Popen([cli, "reconstruct", "--vars", "x", "--function", "(x+1)^100000",
                          "--max-degree", "100000", "--out", "OUT.txt", "--json", "r.json"],
                         cwd=tmp_path, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob("OUT.txt.tmp-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(tmp_path.glob("OUT.txt.tmp-*")), "the temporary was never made"
    time.sleep(0.5)
    sent = time.monotonic()
    p.send_signal(sig)
    p.wait(timeout=30)
    assert time.monotonic() - sent < 1
    assert p.returncode == -sig  # ended by the signal, as before
    assert sorted(x.name for x in tmp_path.iterdir()) == []


def test_progress_lines(cli, tmp_path):
    """H2: 10+ minutes of silence. Every long run prints a line every 30 s
    (HEPEX_PROGRESS_SECONDS here), -v every 2 s, with the rate."""
    p = subprocess.Popen([cli, "reconstruct", "--vars", "x", "--function", "(x+1)^100000",
                          "--max-degree", "100000"], stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "HEPEX_PROGRESS_SECONDS": "1"})
    line = p.stderr.readline()
    p.kill()
    p.wait()
    assert line.startswith("hepex: reconstruct (prime 1): ") and " probes/s, elapsed " in line, line
    assert line.rstrip().endswith("(-v: every 2 s)"), line
    p = subprocess.Popen([cli, "reconstruct", "--vars", "x", "--function", "(x+1)^100000",
                          "--max-degree", "100000", "-v"], stderr=subprocess.PIPE, text=True)
    lines = [p.stderr.readline() for _ in range(3)]
    p.kill()
    p.wait()
    assert lines[0].startswith("reconstruct: seed "), lines
    assert any(" probes/s, elapsed " in line for line in lines), lines


def test_rref_verbose_reports_rate_and_eta(cli, tmp_path):
    import numpy as np
    a = np.random.default_rng(SEED).integers(0, 65521, (1200, 1200), dtype=np.int64)
    np.save(tmp_path / "A.npy", a)
    r = run(cli, "rref", "--prime", 65521, tmp_path / "A.npy", "--out", tmp_path / "R.npy", "-v",
            env={**os.environ, "HEPEX_PROGRESS_SECONDS": "1"})
    assert r.returncode == 0, r.stderr
    # Each report: columns done of 1200, the share of the work, rate and ETA
    # (the run may be too fast for one: then nothing is required).
    for line in r.stderr.splitlines():
        assert line.startswith("hepex: rref: ") and " of 1200 columns (" in line and ", ETA " in line, line


@pytest.mark.parametrize("args", [
    ["me", "--process", "gg_tt", "--events", 8, "--batches", 0],
    ["me", "--process", "gg_tt", "--events", 8, "--momentum-tolerance", 0],
])
def test_documented_defaults_given_explicitly(cli, args):
    r = run(cli, *args)
    assert r.returncode == 0, r.stderr
    assert "mean ME" in r.stdout


@pytest.mark.parametrize("args,message", [
    (["rank", "--field", "real", "--tol", "1e-400", "A.mtx"], "'1e-400' is below the smallest double"),
    (["rank", "--field", "real", "--tol", "1e400", "A.mtx"], "'1e400' is beyond the largest double"),
    (["rank", "--field", "real", "R.mtx"], "R.mtx:3: entry '1e-400' is below the smallest double"),
    (["me", "--process", "gg_tt", "--sqrts", "1e-400"], "'1e-400' is below the smallest double"),
])
def test_numbers_beyond_a_double_are_named(cli, tmp_path, args, message):
    (tmp_path / "A.mtx").write_text("%%MatrixMarket matrix array integer general\n1 1\n1\n")
    (tmp_path / "R.mtx").write_text("%%MatrixMarket matrix array real general\n1 1\n1e-400\n")
    r = run(cli, *args, cwd=tmp_path)
    assert r.returncode == 1 and message in r.stderr, r.stderr
    assert "not finite" not in r.stderr


@pytest.mark.parametrize("option", ["--threads", "--numa", "--device", "--ndevices"])
def test_kokkos_3_options_outside_kokkos_namespace_are_usage_errors(cli, option):
    """Kokkos gets only the --kokkos-* options: Kokkos 3's own --threads 3 once
    failed inside Kokkos::initialize (exit 2, "expecting an '=INT'"), where it
    is simply not an option of hepex (exit 1, CLI11 naming it)."""
    r = run(cli, "reconstruct", "--vars", "x", "--function", "x + 1", option, 3)
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert option in r.stderr and "Kokkos::initialize" not in r.stderr, r.stderr
    # The --kokkos-* ones still reach Kokkos.
    r = run(cli, "--kokkos-disable-warnings", "reconstruct", "--vars", "x", "--function", "x + 1")
    assert r.returncode == 0 and r.stdout.strip() == "x + 1", r.stderr
