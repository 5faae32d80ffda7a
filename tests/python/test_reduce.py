"""hepex.reduce, the Python face of `hepex reduce`: on the massless one-loop
bubble (examples/data/ibp_bubble.m) the table must agree with sympy's exact
solve of the same equations at random rational points (the oracle of
test_cli_reduce.py) and with the CLI's table; on random planted systems
(each integral I_j = sum_m c_jm M_m with random rational functions c_jm,
written as random combinations) it must give the planted coefficients
exactly; bad input raises InvalidInputError naming file, line and column;
calls from several threads each get their own right table."""
import random
import subprocess
import threading
import warnings
from fractions import Fraction

import pytest
import sympy

import hepex
from conftest import SEED
from test_cli_reduce import INTEGRAL, SYSTEM, TARGETS, equations, sympy_table, table_of


def test_bubble_agrees_with_sympy_and_the_cli(cli):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = hepex.reduce(SYSTEM, "d,s", TARGETS, seed=SEED)
    assert any("B[1,1] is a master integral" in str(w.message) for w in caught)
    assert r.masters == ["B[1,1]"]
    assert r.stats["probes"] > 0 and r.stats["primes"] >= 1
    assert r.stats["replay_instructions"] > 0
    cli_run = subprocess.run([cli, "reduce", str(SYSTEM), "--vars", "d,s", "--targets", str(TARGETS),
                              "--seed", str(SEED)], capture_output=True, text=True, timeout=300)
    assert cli_run.returncode == 0, cli_run.stderr
    cli_table = table_of(cli_run.stdout)
    eqs = equations(SYSTEM.read_text())
    targets = [tuple(int(x) for x in m) for m in INTEGRAL.findall(TARGETS.read_text())]
    d, s = sympy.symbols("d s")
    rng = random.Random(SEED)
    points = [(sympy.Rational(rng.randint(-99, 99), rng.randint(1, 50)),
               sympy.Rational(rng.randint(1, 99), rng.randint(1, 50))) for _ in range(2)]
    for target in targets:
        name = f"B[{target[0]},{target[1]}]"
        row = r.table[name]
        rhs = " + ".join(f"({c})*{m}" for m, c in row.items()) or "0"
        assert rhs == cli_table[target] or (not row and cli_table[target] == "0")
    for dv, sv in points:
        want = sympy_table(eqs, dv, sv, targets)
        for target in targets:
            coefficient = r.table[f"B[{target[0]},{target[1]}]"].get("B[1,1]", "0")
            got = sympy.sympify(coefficient, locals={"d": d, "s": s}).subs({d: dv, s: sv})
            assert sympy.simplify(got - want[target]) == 0, (target, dv, sv)


def random_rational(rng, names):
    """A small random rational function of the parameters (sympy)."""
    syms = [sympy.Symbol(n) for n in names]
    def poly(degree):
        return sum(rng.randint(-5, 5) * sympy.prod(v ** rng.randint(0, degree) for v in rng.sample(syms, 1))
                   for _ in range(rng.randint(1, 3))) or sympy.Integer(1)
    num, den = poly(2), poly(2) + rng.randint(1, 4) * syms[0]
    return sympy.cancel(num / den)


def planted(rng, tmp_path, case):
    """A system whose table is known: masters M_m = F[0,..], the others
    I_j = sum_m c_jm M_m, given as random combinations of those relations."""
    names = ["d", "s", "t"][: rng.randint(1, 3)]
    M = rng.randint(1, 2)
    J = rng.randint(2, 5)
    masters = [f"F[0,{m}]" for m in range(M)]
    others = [f"F[1,{j}]" for j in range(J)]
    c = [[random_rational(rng, names) for _ in range(M)] for _ in range(J)]
    relations = []  # den * I_j - sum num*M: polynomial coefficients
    for j in range(J):
        den = sympy.lcm([sympy.fraction(x)[1] for x in c[j]])
        terms = {others[j]: den}
        for m in range(M):
            terms[masters[m]] = -sympy.expand(c[j][m] * den)
        relations.append(terms)
    equations_ = []
    for j in range(J):  # R_j + k R_{j+1}, then a dependent R_j
        eq = dict(relations[j])
        if J > 1 and rng.random() < 0.5:
            k = rng.randint(1, 3)
            for key, v in relations[(j + 1) % J].items():
                eq[key] = sympy.expand(eq.get(key, 0) + k * v)
        equations_.append(eq)
    equations_.append(dict(relations[0]))
    text = "{" + ",\n".join(" + ".join(f"({sympy.expand(v)})*{k}" for k, v in eq.items() if v != 0)
                            for eq in equations_) + "}\n"
    path = tmp_path / f"planted{case}.m"
    path.write_text(text.replace("**", "^"))
    order = others + masters
    return path, names, others, masters, c, order


def test_planted_systems_come_back_exactly(tmp_path):
    rng = random.Random(SEED)
    for case in range(6):
        path, names, others, masters, c, order = planted(rng, tmp_path, case)
        threads = None if case % 2 == 0 else 1 + case % 3
        r = hepex.reduce(path, names, others, order=order, seed=SEED + case, form="sympy", threads=threads)
        assert r.masters == masters, (case, r.masters)
        assert r.stats["threads"] >= 1 and (threads is None or r.stats["threads"] == threads)
        for j, target in enumerate(others):
            for m, master in enumerate(masters):
                got = r.table[target].get(master, sympy.Integer(0))
                assert sympy.cancel(got - c[j][m]) == 0, (case, target, master, got, c[j][m])


def test_bad_input_names_file_line_and_column(tmp_path):
    system = tmp_path / "s.m"
    system.write_text("{d*F[1,1] + F[0,1],\n s*F[1,0] + F[0,1]}\n")
    with pytest.raises(hepex.InvalidInputError, match=r"s\.m:2:2: .*'s'"):
        hepex.reduce(system, "d", ["F[1,1]"])
    with pytest.raises(hepex.InvalidInputError, match=r"targets:2:1: target F\[2,2\] is not in the system"):
        hepex.reduce(system, "d,s", ["F[1,1]", "F[2,2]"])
    with pytest.raises(hepex.InvalidInputError, match=r"s\.m:2:4: F\[1,0\] is not in the integral order"):
        hepex.reduce(system, "d,s", ["F[1,1]"], order=["F[1,1]", "F[0,1]"])
    with pytest.raises(hepex.InvalidInputError, match="cannot read it"):
        hepex.reduce(tmp_path / "missing.m", "d,s", ["F[1,1]"])
    with pytest.raises(hepex.InvalidInputError, match="an integral"):
        hepex.reduce(system, "d,s", [3])
    with pytest.raises(hepex.InvalidInputError, match="primes"):
        hepex.reduce(system, "d,s", ["F[1,1]"], primes=0)
    for threads in (0, -1, 2.5, "4"):
        with pytest.raises(hepex.InvalidInputError, match="threads"):
            hepex.reduce(system, "d,s", ["F[1,1]"], threads=threads)
    bad = tmp_path / "bad.m"
    bad.write_text("{d*F[1,1] + F[0,1,2]}\n")
    with pytest.raises(hepex.InvalidInputError, match=r"bad\.m:1:13: .*indices"):
        hepex.reduce(bad, "d", ["F[1,1]"])


def test_threads_each_get_their_own_table(tmp_path):
    rng = random.Random(SEED + 7)
    cases = [planted(rng, tmp_path, case) for case in range(4)]
    results, errors = [None] * len(cases), []

    def work(k):
        path, names, others, masters, c, order = cases[k]
        try:
            results[k] = hepex.reduce(path, names, others, order=order, seed=SEED, form="sympy")
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(cases))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for (path, names, others, masters, c, order), r in zip(cases, results):
        for j, target in enumerate(others):
            for m, master in enumerate(masters):
                assert sympy.cancel(r.table[target].get(master, 0) - c[j][m]) == 0
