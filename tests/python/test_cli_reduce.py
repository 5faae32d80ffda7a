"""`hepex reduce` on a real IBP system, the massless one-loop bubble
(perf/reduce/bubble_system.py; examples/data/ibp_bubble.m): the table must
agree with sympy's exact solve of the same equations at random rational
parameter points (an oracle that shares nothing with hepex), in both input
formats; bad input is exit 1 naming file, line and column, with nothing
written."""
import json
import random
import re
import subprocess
from fractions import Fraction

import pytest
import sympy

from conftest import SEED

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
SYSTEM = ROOT / "examples" / "data" / "ibp_bubble.m"
TARGETS = ROOT / "examples" / "data" / "ibp_bubble_targets.txt"
INTEGRAL = re.compile(r"B\[\s*(\d+),\s*(\d+)\]")


def equations(text):
    """The system as lists of (coefficient text, (a1, a2))."""
    body = text.strip()[1:-1]
    out = []
    for eq in body.split(",\n"):
        terms = []
        for piece in eq.split(" + "):
            coefficient, integral = piece.rsplit("*B", 1)
            a1, a2 = INTEGRAL.match("B" + integral).groups()
            terms.append((coefficient, (int(a1), int(a2))))
        out.append(terms)
    return out


def sympy_table(eqs, d, s, targets):
    """Each target in terms of B[1,1] at the point (d, s), by sympy."""
    integrals = sorted({k for eq in eqs for _, k in eq})
    symbols = {k: sympy.Symbol(f"B_{k[0]}_{k[1]}") for k in integrals}
    rows = [sum(sympy.sympify(c, locals={"d": d, "s": s}) * symbols[k] for c, k in eq) for eq in eqs]
    unknowns = [symbols[k] for k in integrals if k != (1, 1)]
    solution = sympy.solve(rows, unknowns, dict=True)[0]
    master = symbols[(1, 1)]
    return {k: sympy.nsimplify(solution.get(symbols[k], symbols[k]) / master) for k in targets}


def table_of(stdout):
    out = {}
    for line in stdout.strip().splitlines():
        target, rhs = line.split(" -> ")
        out[tuple(int(x) for x in INTEGRAL.match(target).groups())] = rhs
    return out


@pytest.mark.parametrize("kira", [False, True])
def test_bubble_table_agrees_with_sympy(cli, tmp_path, kira):
    eqs = equations(SYSTEM.read_text())
    system = SYSTEM
    if kira:  # the same equations in Kira's format
        system = tmp_path / "bubble.kira"
        system.write_text("\n".join("\n".join(f"B[{k[0]},{k[1]}]*{c}" for c, k in eq) + "\n" for eq in eqs))
    r = subprocess.run([cli, "reduce", str(system), "--vars", "d,s", "--targets", str(TARGETS),
                        "--seed", str(SEED), "--json", str(tmp_path / "r.json")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "warning: target B[1,1] is a master integral" in r.stderr
    table = table_of(r.stdout)
    summary = json.loads((tmp_path / "r.json").read_text())
    assert summary["masters"] == ["B[1,1]"]
    assert 0 < summary["equations_used"] <= summary["equations"] == len(eqs)
    for phase in ("read", "learn", "probe", "algebra", "check"):
        assert summary[f"{phase}_seconds"] >= 0, phase
    targets = [tuple(int(x) for x in m) for m in INTEGRAL.findall(TARGETS.read_text())]
    assert sorted(table) == sorted(targets)
    d, s = sympy.symbols("d s")
    rng = random.Random(SEED)
    for _ in range(3):
        point = {d: Fraction(rng.randint(-99, 99), rng.randint(1, 50)),
                 s: Fraction(rng.randint(1, 99), rng.randint(1, 50))}
        want = sympy_table(eqs, sympy.Rational(point[d]), sympy.Rational(point[s]), targets)
        for k in targets:
            rhs = table[k]
            if rhs == "0":
                got = 0
            else:
                coefficient = re.fullmatch(r"\((.*)\)\*B\[1,1\]", rhs).group(1)
                got = sympy.sympify(coefficient.replace("^", "**"), locals={"d": d, "s": s}).subs(
                    {d: sympy.Rational(point[d]), s: sympy.Rational(point[s])})
            assert sympy.simplify(got - want[k]) == 0, (k, rhs, want[k], point)


def run(cli, *args):
    return subprocess.run([cli, "reduce", *map(str, args)], capture_output=True, text=True, timeout=60)


def test_bad_inputs_name_file_line_column(cli, tmp_path):
    targets = tmp_path / "t.txt"
    targets.write_text("B[2,1]\n")
    bad = {
        "{(d - 3)*B[1, 1] + (1*x)*B[1, 2]}": ":1:18: the coefficient",
        "{(d - 3)*B[1, 1] + s*B[1, 2, 3]}": ":1:22: B[1,2,3] has 3 indices, B had 2",
        "{(d - 3)*(B[1, 1] + s*B[1, 2])}": ":1:11: an integral inside parentheses",
        "{(d - 3)*B[1, 1] + s}": ":1:18: a term without an integral",
        "{(d - 3)*B[1, 1] + s*B[1, 2]": ":1:1: the list opened here is not closed",
    }
    for text, where in bad.items():
        system = tmp_path / "sys.m"
        system.write_text(text + "\n")
        out = tmp_path / "table.txt"
        r = run(cli, system, "--vars", "d,s", "--targets", targets, "--out", out)
        assert r.returncode == 1, (text, r.stderr)
        assert f"sys.m{where}" in r.stderr, (text, r.stderr)
        assert not out.exists()
    # A target absent from the system, with its place in the targets file.
    missing = tmp_path / "missing.txt"
    missing.write_text("B[2,1]\n\nB[7,7]\n")
    r = run(cli, SYSTEM, "--vars", "d,s", "--targets", missing)
    assert r.returncode == 1 and "missing.txt:3:1: target B[7,7] is not in the system" in r.stderr, r.stderr
    # An order without one of the system's integrals.
    order = tmp_path / "order.txt"
    order.write_text("{B[2, 1], B[1, 1]}")
    r = run(cli, SYSTEM, "--vars", "d,s", "--targets", targets, "--order", order)
    assert r.returncode == 1 and "is not in the integral order" in r.stderr, r.stderr
    # A parameter not in --vars.
    r = run(cli, SYSTEM, "--vars", "d", "--targets", targets)
    assert r.returncode == 1 and "ibp_bubble.m:" in r.stderr and "unknown" in r.stderr.lower(), r.stderr
    # A system that is not a file one can read, or no file at all.
    r = run(cli, tmp_path, "--vars", "d,s", "--targets", targets)
    assert r.returncode == 1 and f"{tmp_path}: cannot read the file" in r.stderr, r.stderr
    r = run(cli, tmp_path / "absent.m", "--vars", "d,s", "--targets", targets)
    assert r.returncode == 1 and "absent.m: cannot open the file" in r.stderr, r.stderr


def test_factored_table_parses_back(cli, tmp_path):
    r = run(cli, SYSTEM, "--vars", "d,s", "--targets", TARGETS, "--factored", "--seed", SEED)
    assert r.returncode == 0, r.stderr
    plain = run(cli, SYSTEM, "--vars", "d,s", "--targets", TARGETS, "--seed", SEED)
    d, s = sympy.symbols("d s")
    for a, b in zip(r.stdout.splitlines(), plain.stdout.splitlines()):
        ca, cb = a.split(" -> ")[1], b.split(" -> ")[1]
        if ca == "0":
            assert cb == "0"
            continue
        fa = sympy.sympify(ca.replace("*B[1,1]", "").replace("^", "**"), locals={"d": d, "s": s})
        fb = sympy.sympify(cb.replace("*B[1,1]", "").replace("^", "**"), locals={"d": d, "s": s})
        assert sympy.simplify(fa - fb) == 0
        assert len(ca) <= len(cb)


def coefficient_of(rhs, master, d, s):
    """The coefficient of `master` in a table line's right-hand side (sympy)."""
    m = re.fullmatch(r"\((.*)\)\*" + re.escape(master), rhs)
    assert m, (rhs, master)
    return sympy.sympify(m.group(1).replace("^", "**"), locals={"d": d, "s": s})


def test_preferred_master_changes_the_basis(cli, tmp_path):
    """With B[2,1] preferred, every target is a multiple of B[2,1]: target =
    c_t B[1,1] and B[2,1] = c_21 B[1,1] (the default table, checked against
    sympy above) give target = (c_t / c_21) B[2,1]."""
    masters = tmp_path / "masters.txt"
    masters.write_text("B[2,1]\n")
    targets = tmp_path / "t.txt"
    targets.write_text("B[1,1]\nB[2,2]\nB[3,1]\n")
    r = run(cli, SYSTEM, "--vars", "d,s", "--targets", targets, "--masters", masters, "--seed", SEED,
            "--json", tmp_path / "r.json")
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "r.json").read_text())["masters"] == ["B[2,1]"]
    plain = run(cli, SYSTEM, "--vars", "d,s", "--targets", TARGETS, "--seed", SEED)
    default = {line.split(" -> ")[0]: line.split(" -> ")[1] for line in plain.stdout.splitlines()}
    d, s = sympy.symbols("d s")
    c21 = coefficient_of(default["B[2,1]"], "B[1,1]", d, s)
    for line in r.stdout.splitlines():
        target, rhs = line.split(" -> ")
        want = (sympy.Integer(1) if target == "B[1,1]" else coefficient_of(default[target], "B[1,1]", d, s)) / c21
        assert sympy.simplify(coefficient_of(rhs, "B[2,1]", d, s) - want) == 0, (target, rhs)
    # A preferred master the system reduces to the others: a warning.
    masters.write_text("B[2,1]\nB[1,2]\n")
    r = run(cli, SYSTEM, "--vars", "d,s", "--targets", targets, "--masters", masters, "--seed", SEED)
    assert r.returncode == 0 and "warning: preferred master" in r.stderr, r.stderr
    # One absent from the system: exit 1 with its place, nothing written.
    masters.write_text("B[2,1]\nB[9,9]\n")
    out = tmp_path / "table.txt"
    r = run(cli, SYSTEM, "--vars", "d,s", "--targets", targets, "--masters", masters, "--out", out)
    assert r.returncode == 1 and "masters.txt:2:1: preferred master B[9,9] is not in the system" in r.stderr, r.stderr
    assert not out.exists()


def test_checkpoint_replays_a_kept_log(cli, tmp_path):
    """A log left by a run (Python keeps it; the CLI deletes its own once the
    table is written) is replayed by the next run with the same inputs: every
    probe answered from it, the same table, the log's seed taken; a log of
    other targets is refused."""
    import hepex
    first = hepex.reduce(SYSTEM, "d,s", TARGETS, seed=SEED + 5, checkpoint=tmp_path / "ck")
    log = tmp_path / "ck" / "probes-reduce"
    assert log.exists() and first.stats["replayed_probes"] == 0
    again = hepex.reduce(SYSTEM, "d,s", TARGETS, checkpoint=tmp_path / "ck")  # seed from the log
    assert again.stats["seed"] == SEED + 5
    assert again.stats["replayed_probes"] == again.stats["probes"] == first.stats["probes"]
    assert again.table == first.table
    r = run(cli, SYSTEM, "--vars", "d,s", "--targets", TARGETS, "--checkpoint", tmp_path / "ck",
            "--json", tmp_path / "r.json")
    assert r.returncode == 0, r.stderr
    summary = json.loads((tmp_path / "r.json").read_text())
    assert summary["seed"] == SEED + 5 and summary["replayed_probes"] == summary["probes"]
    assert not log.exists()  # the CLI's table is written: its log is gone
    hepex.reduce(SYSTEM, "d,s", TARGETS, seed=SEED, checkpoint=tmp_path / "ck")
    with pytest.raises(hepex.InvalidInputError, match="probe log of another job"):
        hepex.reduce(SYSTEM, "d,s", ["B[2,1]"], seed=SEED, checkpoint=tmp_path / "ck")


def test_host_threads_change_nothing_but_bad_counts_are_refused(cli, tmp_path):
    tables = {}
    for threads in ("1", "3"):
        out = tmp_path / f"table{threads}.txt"
        r = run(cli, SYSTEM, "--vars", "d,s", "--targets", TARGETS, "--seed", SEED, "--host-threads", threads,
                "--out", out, "--json", tmp_path / f"r{threads}.json")
        assert r.returncode == 0, r.stderr
        assert json.loads((tmp_path / f"r{threads}.json").read_text())["threads"] == int(threads)
        tables[threads] = out.read_text()
    assert tables["1"] == tables["3"]
    for bad in ("0", "-2", "x", "5000"):
        out = tmp_path / "never.txt"
        r = run(cli, SYSTEM, "--vars", "d,s", "--targets", TARGETS, "--host-threads", bad, "--out", out)
        assert r.returncode == 1 and "--host-threads" in r.stderr, (bad, r.stderr)
        assert not out.exists()
