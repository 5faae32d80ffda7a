"""Issue 36 from Python, row by row: threads (W1), primes (W2, W3, W5), exact
inputs (W4), objects alive at exit (C1), long double (C2), out of memory
(C3), Ctrl-C (H1), progress (H2), and messages in Python's terms. Oracles:
MadGraph's events, sympy, Python integers."""
import fractions
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest
import sympy

import hepex
from conftest import DATA, SEED, rng_for

P1, P2 = 9223372036854775783, 9223372036854775643  # the primes hepex once fixed
BUILD_PYTHON = str(pathlib.Path(hepex.__file__).resolve().parent.parent)


def madgraph_events(process, particles):
    rows = np.array([[float(x) for x in line.split()]
                     for line in open(DATA / "madgraph" / f"{process}_onshell_ref.txt")
                     if line.strip() and not line.startswith("#")])
    return rows[:, 2:2 + 4 * particles].reshape(-1, particles, 4), rows[:, 2 + 4 * particles]


def run_threads(count, work):
    """work(t) on `count` threads at once; the exceptions they raised."""
    errors, barrier = [], threading.Barrier(count)

    def body(t):
        barrier.wait()
        try:
            work(t)
        except BaseException as e:  # noqa: B902 (reported below)
            errors.append(f"thread {t}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=body, args=(t,)) for t in range(count)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)
    assert not any(th.is_alive() for th in threads), "a thread hangs (deadlock?)"
    return errors


# W1: 14-15 of 15 evaluations were wrong from three threads.
@pytest.mark.parametrize("shared", [True, False])
def test_matrix_elements_from_threads(shared):
    momenta, reference = madgraph_events("gg_ttgg", 6)
    momenta, reference = momenta[:64], reference[:64]
    one = hepex.MatrixElement("gg_ttgg") if shared else None
    worst = []

    def work(t):
        me = one if shared else hepex.MatrixElement("gg_ttgg")
        for _ in range(4):
            worst.append(float(np.abs(me.evaluate(momenta) / reference - 1).max()))

    assert run_threads(4, work) == []
    assert len(worst) == 16 and max(worst) < 1e-12, worst


def test_every_family_from_threads():
    """rref, modgemm, solve and reconstruct from 4 threads at once, each
    against sympy or Python integers."""
    p = 2**31 - 1
    x, y = sympy.symbols("x y")
    functions = ["1/x + 1/y", "(x^2 - y^2)/(x - y)", "x^3/(1 + x*y)", "(x + 2*y)^2/(3*x - 5)"]

    def work(t):
        rng = rng_for("threads", t)
        for round_ in range(3):
            a = rng.integers(0, p, (40 + 10 * t, 45), dtype=np.int64)
            a[-1] = (a[0] + a[1]) % p
            r = hepex.rref(a, p)
            # The RREF over Z/p: sympy's DomainMatrix over GF(p).
            from sympy.polys.matrices import DomainMatrix
            from sympy import GF
            dm = DomainMatrix([[GF(p)(int(v)) for v in row] for row in a.tolist()],
                              a.shape, GF(p))
            rref_gf, pivots = dm.rref()
            assert r.rank == len(pivots) and list(r.pivots) == list(pivots)
            assert r.matrix.astype(object).tolist() == [[int(v) % p for v in row]
                                                        for row in rref_gf.to_Matrix().tolist()]
            b = rng.integers(0, 65521, (45, 30), dtype=np.int64)
            c = hepex.modgemm(a % 65521, b, 65521)
            assert c.astype(object).tolist() == ((a % 65521).astype(object) @ b.astype(object)
                                                 % 65521).tolist()
            text = functions[(t + round_) % 4]
            got = hepex.reconstruct(text, "x,y", seed=SEED + t)
            assert sympy.cancel(sympy.sympify(got) - sympy.sympify(text.replace("^", "**"))) == 0

    assert run_threads(4, work) == []


def test_black_box_calling_hepex_while_other_threads_do():
    """A Python black box that itself calls hepex, while other threads call
    hepex too: the Kokkos lock is taken without the GIL, so nothing hangs."""
    def box(points, p):
        assert hepex.rank(np.eye(3, dtype=np.int64), 7) == 3
        x, y = points[:, 0].astype(object), points[:, 1].astype(object)
        return (x * x + y) % p

    def work(t):
        if t == 0:
            assert hepex.reconstruct(box, "x,y", seed=SEED) == "x^2 + y"
        else:
            for _ in range(20):
                assert hepex.rank(np.eye(5, dtype=np.int64), 101) == 5

    assert run_threads(3, work) == []


# W2: the check prime undefined (x + P1/P2): "(x)/(1)", exit 0.
def test_a_box_undefined_at_a_prime_is_never_trusted():
    """A black box that is undefined everywhere mod one prime (as x + P1/P2
    was mod P2, the check prime): that prime is dropped, the answer exact.
    x + 10^15/3 needs two images, so victims 0, 1, 2 are an image, the
    other image and the check."""
    c = 10**15
    expected = sympy.sympify(f"x + {c}/3")
    for victim in range(3):
        order = []  # the primes in the order the reconstruction takes them

        def box(points, p):
            if p != P1 and p not in order:  # P1: hepex's own first call, to count functions
                order.append(p)
            if p != P1 and order.index(p) == victim:
                return np.zeros(len(points), dtype=np.uint64), np.zeros(len(points), dtype=bool)
            return (points[:, 0].astype(object) + c * pow(3, -1, p)) % p

        r = hepex.reconstruct(box, "x", seed=SEED + victim, stats=True)
        assert sympy.cancel(sympy.sympify(r.result) - expected) == 0, r
        roles = [role for _, role, _ in r.prime_list]
        assert roles == ["image", "image", "check"][:victim] + ["undefined"] + \
            ["image", "image", "check"][victim:], r.prime_list
        assert [q for q, _, _ in r.prime_list] == order


def test_p1_over_p2_and_products_of_the_old_primes():
    """W2 and W3 as reported: exact answers for every seed."""
    for seed in (1, 2, SEED):
        assert hepex.reconstruct(f"x + {P1}/{P2}", "x", seed=seed) == f"({P2}*x + {P1})/({P2})"
        assert hepex.reconstruct(f"({P1}*{P2}*x + 1)/(y+2)", "x,y", seed=seed) == \
            f"({P1 * P2}*x + 1)/(y + 2)"
        # W5: undefined mod the first old prime, a plain rational elsewhere.
        assert hepex.reconstruct(f"x/{P1}", "x", seed=seed) == f"(x)/({P1})"


def test_two_seeds_two_sets_of_primes_one_answer():
    a = hepex.reconstruct("(x^3 - 2*y)/(x*y + 7)", "x,y", seed=11, stats=True)
    b = hepex.reconstruct("(x^3 - 2*y)/(x*y + 7)", "x,y", seed=12, stats=True)
    assert a.result == b.result == "(x^3 - 2*y)/(x*y + 7)"
    assert a.seed == 11 and b.seed == 12
    assert {p for p, _, _ in a.prime_list}.isdisjoint({p for p, _, _ in b.prime_list})
    c = hepex.reconstruct("x + 1", "x", stats=True)  # seed None: a random one, reported
    assert c.result == "x + 1" and 0 <= c.seed < 2**64
    assert c.probes == sum(n for _, _, n in c.prime_list) and c.primes >= 1


def test_undefined_everywhere_needs_three_primes_and_keeps_the_work():
    with pytest.raises(hepex.NegativeAnswer, match="mod each of 3 random primes in a row") as e:
        hepex.reconstruct("1/(x - x)", "x", seed=SEED)
    work = e.value.reconstruction
    assert [role for _, role, _ in work.prime_list] == ["undefined"] * 3
    assert work.probes >= 3 * 64


# W4: 1.5 read as 1, Fraction(1, 2) as 0.
def test_z_p_entries_must_be_integers_or_exact_fractions():
    p = 2**31 - 1
    with pytest.raises(hepex.InvalidInputError, match=r"a: entry \(0, 0\) = 1\.5 \(float\) is not an integer"):
        hepex.rref(np.array([[1.5, 1], [3, 2]], dtype=object), p)
    for bad in (np.float64(2.0), "3", complex(1, 0)):
        with pytest.raises(hepex.InvalidInputError, match=r"entry \(1, 1\)"):
            hepex.rank(np.array([[1, 0], [0, bad]], dtype=object), p)
    import decimal
    with pytest.raises(hepex.InvalidInputError, match="Decimal"):
        hepex.rank(np.array([[decimal.Decimal("0.5")]], dtype=object), p)
    # Exact rationals: a/b mod p, against sympy over GF(p).
    rng = rng_for("fractions")
    for _ in range(20):
        entries = [[fractions.Fraction(int(rng.integers(-50, 50)), int(rng.integers(1, 30)))
                    for _ in range(4)] for _ in range(3)]
        got = hepex.rref(np.array(entries, dtype=object), 101)
        as_residues = [[f.numerator * pow(f.denominator, -1, 101) % 101 for f in row] for row in entries]
        from sympy.polys.matrices import DomainMatrix
        from sympy import GF
        want, pivots = DomainMatrix([[GF(101)(v) for v in row] for row in as_residues], (3, 4),
                                    GF(101)).rref()
        assert got.rank == len(pivots)
        assert got.matrix.astype(object).tolist() == [[int(v) % 101 for v in row]
                                                      for row in want.to_Matrix().tolist()]
    assert hepex.rref(np.array([[sympy.Rational(1, 2), sympy.Integer(3)]], dtype=object), 7).matrix.tolist() == [[1, 6]]
    with pytest.raises(hepex.InvalidInputError, match="denominator divisible by p = 7"):
        hepex.rank(np.array([[fractions.Fraction(1, 14)]], dtype=object), 7)


def test_black_box_values_as_fractions_or_floats():
    """A box returning Fractions was "total degree exceeds the limit 200"."""
    def exact(points, p):
        return np.array([fractions.Fraction(int(v), 3) + fractions.Fraction(1, 7)
                         for v in points[:, 0]], dtype=object)

    assert hepex.reconstruct(exact, "x", seed=SEED) == "(7*x + 3)/(21)"

    def floats(points, p):
        return points[:, 0].astype(np.float64)

    with pytest.raises(hepex.InvalidInputError, match="returned float64 values"):
        hepex.reconstruct(floats, "x")

    def inexact(points, p):
        return np.array([float(v) for v in points[:, 0]], dtype=object)

    with pytest.raises(hepex.InvalidInputError, match=r"\(float\) at point 0 is not an integer"):
        hepex.reconstruct(inexact, "x")


# C1: a MatrixElement alive at exit aborted (exit 134).
@pytest.mark.parametrize("code", [
    "me = hepex.MatrixElement('gg_tt')",
    "r = hepex.rref(np.eye(3, dtype=np.int64), 7); me = hepex.MatrixElement('gg_ttg')",
    "import threading\nme = hepex.MatrixElement('gg_tt')\nt = threading.Thread(target=lambda: me.good_helicities)\nt.start(); t.join()",
    "cycle = [hepex.MatrixElement('gg_tt')]; cycle.append(cycle)",
])
def test_objects_alive_at_exit(code):
    run = subprocess.run([sys.executable, "-c", "import numpy as np, hepex\n" + code],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": BUILD_PYTHON},
                         timeout=300)
    assert run.returncode == 0, run.stderr
    assert "finalize" not in run.stderr, run.stderr


# C2: long double segfaulted.
def test_long_double():
    r = hepex.rref(np.eye(2, dtype=np.longdouble))
    assert r.rank == 2 and r.matrix.dtype == np.float64
    assert hepex.rref(np.array([[1, 2], [2, 4]], dtype=np.float32)).rank == 1
    if np.finfo(np.longdouble).nmant > 52:  # x86-64: 80-bit long double
        a = np.array([[1 + np.longdouble(2) ** -60, 1], [0, 1]], dtype=np.longdouble)
        with pytest.raises(hepex.InvalidInputError, match=r"a: entry \(0, 0\) .* has no exact float64 value"):
            hepex.rref(a)
        with pytest.raises(hepex.InvalidInputError, match="no exact complex128 value"):
            hepex.rank(a.astype(np.clongdouble))
    with pytest.raises(hepex.InvalidInputError, match="Z/p takes integer arrays"):
        hepex.rank(np.eye(2, dtype=np.longdouble), 7)


# C3: out of memory segfaulted in Python.
def test_out_of_memory_is_a_runtime_failure():
    """Each call under an address-space limit a little and a lot above what
    the process has: a result or RuntimeFailure("out of memory ..."), never a
    crash; at least one call must not fit."""
    code = textwrap.dedent("""
        import resource, numpy as np, hepex
        a = np.ones((12000, 12000), dtype=np.uint32)  # 0.54 GiB
        size = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmSize"))
        limit = size + int(EXTRA)
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
        for name, call in (("rref", lambda: hepex.rref(a, 2**31 - 1)),
                           ("modgemm", lambda: hepex.modgemm(a, a, 65521)),
                           ("nullspace", lambda: hepex.nullspace(a, 101))):
            try:
                call()
                print(name, "fits")
            except hepex.RuntimeFailure as e:
                assert "out of memory" in str(e), e
                print(name, "RuntimeFailure")
    """)
    failures = 0
    for extra in ("0.3e9", "1.2e9"):
        run = subprocess.run([sys.executable, "-c", code.replace("EXTRA", extra)], capture_output=True,
                             text=True, env={**os.environ, "PYTHONPATH": BUILD_PYTHON}, timeout=600)
        assert run.returncode == 0, (extra, run.returncode, run.stderr[-2000:])
        assert run.stdout.count("\n") == 3, run.stdout
        failures += run.stdout.count("RuntimeFailure")
    assert failures > 0


# H1: KeyboardInterrupt came after 5.7 s (rref) and 41 s (reconstruct).
INTERRUPTED = textwrap.dedent("""
    import sys, time, numpy as np, hepex
    what = sys.argv[1]
    if what == "me":
        m = hepex.MatrixElement("gg_ttggg")
        rows = np.array([[float(x) for x in l.split()] for l in open(sys.argv[2])
                         if l.strip() and not l.startswith("#")])
        momenta = np.repeat(rows[:, 2:30].reshape(-1, 7, 4), 400, axis=0)
    a = np.random.default_rng(1).integers(0, 2**31 - 1, size=(5000, 5000), dtype=np.int64)
    print("start", flush=True)
    t = time.time()
    try:
        # Calls long on one CPU core, repeated for a minute where they are
        # fast (a GPU): the signal comes during one of them.
        while time.time() - t < 60:
            if what == "rref":
                hepex.rref(a, 2**31 - 1, backend="host")
            elif what == "gemm":
                hepex.modgemm(a % 65521, a % 65521, 65521)
            elif what == "reconstruct":
                hepex.reconstruct("(" + "+".join(f"x^{i}*y^{j}*z^{(i*j)%7}" for i in range(40)
                                                 for j in range(40)) + ")/(x+y+z)", "x,y,z",
                                  max_degree=1000)
            elif what == "me":
                m.evaluate(momenta)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", time.time() - t, flush=True)
""")


@pytest.mark.parametrize("what", ["rref", "gemm", "reconstruct", "me"])
def test_ctrl_c_within_a_second(tmp_path, what):
    script = tmp_path / "interrupted.py"
    script.write_text(INTERRUPTED)
    p = subprocess.Popen([sys.executable, str(script), what,
                          str(DATA / "madgraph" / "gg_ttggg_onshell_ref.txt")],
                         stdout=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONPATH": BUILD_PYTHON})
    assert p.stdout.readline().strip() == "start"
    time.sleep(2)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out = p.communicate(timeout=120)[0]
    waited = time.monotonic() - sent
    assert out.startswith("interrupted"), f"{what}: {out!r} (the call ended before the signal?)"
    assert waited < 1.0, f"{what}: KeyboardInterrupt {waited:.2f} s after Ctrl-C"


# H2: silence; progress with rate and ETA through a callback.
def test_progress_callbacks():
    reports = []
    degree = 2000
    while True:  # a reconstruction of more than 2.5 s, so that reports come (every 2 s)
        reports.clear()
        t = time.monotonic()
        assert hepex.reconstruct(f"x^{degree} + 2*x + 1", "x", max_degree=degree, seed=SEED,
                                 progress=reports.append) == f"x^{degree} + 2*x + 1"
        if time.monotonic() - t > 2.5 or degree > 64000:
            break
        degree *= 2
    assert reports, f"no progress in {time.monotonic() - t:.1f} s"
    assert all(r.task == "reconstruct" and r.unit == "probes" and r.rate > 0 for r in reports)
    assert [r.done for r in reports] == sorted(r.done for r in reports)
    assert isinstance(reports[0], hepex.Progress) and reports[0].seconds >= 2

    def stop(report):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        hepex.reconstruct(f"x^{degree} + 2*x + 1", "x", max_degree=degree, progress=stop)
    with pytest.raises(hepex.InvalidInputError, match="progress"):
        hepex.rank(np.eye(2, dtype=np.int64), 7, progress=3)


# The misleading messages of the issue, in Python's terms.
@pytest.mark.parametrize("call,pattern", [
    (lambda: hepex.reconstruct("x/3 + 1234567890123456789012345678901234567/7", "x", primes=1),
     r"^1 prime did not determine the function: .*; raise primes$"),
    (lambda: hepex.reconstruct("x", ""), r"^variables: '' is not a variable name"),
    (lambda: hepex.reconstruct("x", ["x", "x"]), r"^variables: the variable 'x' is listed twice"),
    (lambda: hepex.rank(np.eye(2, dtype=np.int64), 4), r"^p = 4 is not a prime \(divisible by 2\); the next prime is 5$"),
    (lambda: hepex.modgemm(np.eye(2, dtype=np.int64), np.eye(2, dtype=np.int64), 100), r"^p = 100 is not a prime"),
    (lambda: hepex.reconstruct("x", "x", primes="3"), r"^primes = '3' is not a whole number$"),
    (lambda: hepex.reconstruct("x", "x", primes=2.0), r"^primes = 2\.0 is not a whole number$"),
    (lambda: hepex.reconstruct("x", "x", seed=-1), r"^seed = -1 is not a whole number from 0 to"),
    (lambda: hepex.reconstruct("x", "x", seed="s"), r"^seed = 's' is not a whole number$"),
    (lambda: hepex.reconstruct("x", "x", max_degree=None), r"^max_degree = None is not a whole number$"),
    (lambda: hepex.reconstruct(5, "x"), r"^f = 5: an expression, a list of them, or a callable"),
    (lambda: hepex.reconstruct("x", 5), r"^variables = 5: names as a list"),
    (lambda: hepex.rref(np.eye(2), tol="1e-3"), r"^tol = '1e-3' is not a number$"),
    (lambda: hepex.rref(np.eye(2), backend=1), r"^backend = 1 is not a string$"),
    (lambda: hepex.MatrixElement(5), r"^process = 5 is not a string$"),
    (lambda: hepex.MatrixElement("gg_tt", param_card=3), r"^param_card = 3 is not a path$"),
    (lambda: hepex.krylov_sequences(np.eye(2), np.ones(2), np.eye(2), "4", 7), r"^length = '4' is not a whole number$"),
])
def test_messages_in_python_terms(call, pattern):
    with pytest.raises(hepex.InvalidInputError if "did not determine" not in pattern
                       else hepex.NegativeAnswer, match=pattern):
        call()


def test_degree_limit_names_max_degree():
    def scrambled(points, p):  # a function of x, but no rational one
        return np.array([(int(v) ^ 0x5BD1E995) % p for v in points[:, 0]], dtype=object)

    with pytest.raises(hepex.NegativeAnswer, match=r"raise max_degree\), or the black box's values are not"):
        hepex.reconstruct(scrambled, "x", max_degree=20)

    def changing(points, p, calls=[0]):  # values that change from call to call
        calls[0] += 1
        return (points[:, 0].astype(object) + calls[0]) % p

    with pytest.raises(hepex.NegativeAnswer, match=r"^no image of the function mod any of the [0-9]+ primes tried: "):
        hepex.reconstruct(changing, "x", max_degree=20, primes=2)


def test_a_candidate_contradicted_at_the_last_prime():
    """"did not converge with 40 primes (0 of 1 functions undetermined)": a
    candidate that exists but disagrees now says so."""
    first = []

    def box(points, p):  # x mod the first prime, 2 x mod every other one
        if p != P1 and not first:
            first.append(p)
        factor = 1 if p == P1 or p == first[0] else 2
        return points[:, 0].astype(object) * factor % p

    with pytest.raises(hepex.NegativeAnswer,
                       match=r"^1 prime did not determine the function: the rational function from "
                             r"the images disagrees with the black box at a further prime .*; raise primes$") as e:
        hepex.reconstruct(box, "x", primes=1, seed=SEED)
    assert [role for _, role, _ in e.value.reconstruction.prime_list] == ["image", "rejected"]


def test_polynomials_print_without_a_denominator():
    assert hepex.reconstruct(["(x^2 - y^2)/(x - y)", "x - x", "7", "7/3"], "x,y") == \
        ["x + y", "0", "7", "(7)/(3)"]
