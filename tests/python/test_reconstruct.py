"""hepex.reconstruct on random sparse rational functions made with sympy,
given as Python black boxes and as expressions; sympy checks the answers."""
import numpy as np
import pytest
import sympy

import hepex
from conftest import SEED, rng_for

X, Y, Z = sympy.symbols("x y z")


def random_polynomial(rng, variables, terms, degree):
    poly = 0
    for _ in range(terms):
        exps = rng.integers(0, degree + 1, len(variables))
        coefficient = int(rng.integers(-10**6, 10**6)) or 1
        term = sympy.Integer(coefficient)
        for v, e in zip(variables, exps):
            term *= v ** int(e)
        poly += term
    return sympy.expand(poly)


def black_box(num, den, variables):
    """f(points, p) by exact integer evaluation of sympy polynomials mod p."""
    pn = sympy.Poly(num, *variables)
    pd = sympy.Poly(den, *variables)

    def evaluate(points, p):
        values, ok = [], []
        for row in points:
            x = [int(v) for v in row]
            n = sum(int(c) * np.prod([pow(xi, int(e), p) for xi, e in zip(x, m)], dtype=object)
                    for m, c in pn.terms()) % p
            d = sum(int(c) * np.prod([pow(xi, int(e), p) for xi, e in zip(x, m)], dtype=object)
                    for m, c in pd.terms()) % p
            ok.append(d != 0)
            values.append(n * pow(d, -1, p) % p if d else 0)
        return np.array(values, dtype=object), np.array(ok)

    return evaluate


@pytest.mark.parametrize("case", range(6))
def test_random_rational_functions_from_a_python_black_box(case):
    rng = rng_for("reconstruct", case)
    variables = [X, Y, Z][: int(rng.integers(1, 4))]
    num = random_polynomial(rng, variables, int(rng.integers(1, 6)), 3)
    den = random_polynomial(rng, variables, int(rng.integers(1, 4)), 2)
    f = num / den  # integer coefficients, evaluated as they are
    got = hepex.reconstruct(black_box(num, den, variables), [str(v) for v in variables],
                            form="sympy")
    assert sympy.cancel(got - f) == 0, f"seed {SEED} case {case}: {got} != {f}"
    # The string form parses to the same function.
    text = hepex.reconstruct(black_box(num, den, variables), [str(v) for v in variables])
    assert isinstance(text, str)
    assert sympy.cancel(sympy.sympify(text) - f) == 0


def test_expressions_and_several_functions():
    got = hepex.reconstruct(["1/x + 1/y", "(x^2 - y^2)/(x - y)"], "x,y", form="sympy")
    assert [sympy.cancel(g) for g in got] == [sympy.cancel(1 / X + 1 / Y), X + Y]

    def two(points, p):
        x = points[:, 0].astype(object)
        return np.stack([(x + 1) % p, (3 * x * x) % p], axis=1)

    a, b = hepex.reconstruct(two, ["x"], form="sympy")
    assert (a, b) == (X + 1, 3 * X**2)


def test_reconstruction_errors():
    with pytest.raises(hepex.InvalidInputError, match="expression 0: .*"):
        hepex.reconstruct("1/x + ", "x")
    with pytest.raises(hepex.InvalidInputError, match="must return 1 values, not shape"):
        calls = []

        def wrong(points, p):
            calls.append(1)
            return np.zeros(1 if len(calls) == 1 else 2, dtype=np.uint64)

        hepex.reconstruct(wrong, "x")
    with pytest.raises(ZeroDivisionError):
        hepex.reconstruct(lambda points, p: 1 // 0, "x")
    with pytest.raises(hepex.NegativeAnswer):
        # 1/(x - c) with c a huge random integer: one prime gives no rational image.
        big = 10**60 + 7
        hepex.reconstruct(lambda pts, p: np.array(
            [pow((int(x) - big) % p, -1, p) for x in pts[:, 0]], dtype=object) * (big % p) % p,
            "x", primes=1)


IBP_FACTORS = ["s", "t", "(s + t)", "(d - 4)", "(2*d - 7)", "(s + m)", "(s*t - m**2)"]


@pytest.mark.parametrize("case", range(3))
def test_ibp_shaped_functions_together(case):
    """Denominators without a constant term (products of IBP-like factors
    times a cofactor), some coefficients of 25 digits, as one black box
    (together=True) and each on its own with the factor scan on and off:
    sympy checks every answer; together, every prime after the first costs
    at most 1.05 T + 10 probes for the largest T (terms) of the functions."""
    rng = rng_for("ibp_together", case)
    s, t, d, m = sympy.symbols("s t d m")
    functions, texts = [], []
    for k in range(8):
        num = random_polynomial(rng, (s, t, d, m), int(rng.integers(1, 12)), 3)
        if k % 3 == 0:
            num = sympy.expand(num * (10**25 + 7))
        den = sympy.Integer(1)
        for _ in range(int(rng.integers(1, 4))):
            den *= sympy.sympify(IBP_FACTORS[int(rng.integers(len(IBP_FACTORS)))])
        den = den * (random_polynomial(rng, (s, t, d, m), int(rng.integers(1, 3)), 2) + 1)
        functions.append(num / den)
        texts.append(str(num / den))
    together = hepex.reconstruct(texts, "s,t,d,m", together=True, stats=True, seed=SEED + case)
    assert len(together.result) == len(texts)
    for got, want in zip(together.result, functions):
        assert sympy.simplify(sympy.sympify(got) - want) == 0, (got, want)
    terms = max(len(sympy.Poly(n, s, t, d, m).terms()) + len(sympy.Poly(q, s, t, d, m).terms())
                for n, q in (sympy.fraction(sympy.cancel(sympy.sympify(g))) for g in together.result))
    images = [probes for _, role, probes in together.prime_list if role == "image"]
    assert len(images) >= 2
    assert all(p <= 1.05 * terms + 10 for p in images[1:]), (images, terms)
    for scan in ("on", "off"):
        alone = hepex.reconstruct(texts[:3], "s,t,d,m", factor_scan=scan, seed=SEED)
        for got, want in zip(alone, functions):
            assert sympy.simplify(sympy.sympify(got) - want) == 0, (scan, got, want)


def test_together_and_factor_scan_arguments():
    with pytest.raises(hepex.InvalidInputError, match="factor_scan"):
        hepex.reconstruct("x", "x", factor_scan="maybe")
    # together with one expression is that expression's reconstruction.
    assert hepex.reconstruct(["1/(x*(x+1))"], "x", together=True) == ["(1)/(x^2 + x)"]


def test_factored_answers_equal_the_function_and_show_its_factors():
    """factored=True: IBP-like coefficients (products of s, t, s + t, d - 4,
    2 d - 7 with multiplicities over a random cofactor) come back as
    sympy-equal text that shows each factor; a function whose expanded form
    is shorter comes back expanded."""
    rng = rng_for("factored")
    s, t, d = sympy.symbols("s t d")
    names = {"s": s, "t": t, "d": d}
    factors = [s, t, s + t, d - 4, 2 * d - 7, s - t + 3]
    for trial in range(6):
        num = sympy.Integer(int(rng.integers(1, 30)))
        den = sympy.Integer(int(rng.integers(1, 30)))
        for q in factors:
            k = int(rng.integers(0, 3))
            if rng.integers(0, 2):
                num *= q ** k
            else:
                den *= q ** k
        truth = sympy.cancel(num / den)
        got = hepex.reconstruct(str(truth).replace("**", "^"), "s,t,d", factored=True, seed=SEED)
        assert sympy.simplify(sympy.sympify(got, locals=names) - truth) == 0, (trial, got)
        expanded = hepex.reconstruct(str(truth).replace("**", "^"), "s,t,d", seed=SEED)
        assert len(got) <= len(expanded)
        n, q = sympy.fraction(sympy.factor(truth))
        if len(sympy.Poly(sympy.expand(n * q), s, t, d).terms()) > 4:
            assert len(got) < len(expanded), (got, expanded)
    assert hepex.reconstruct("x^2 - 1", "x", factored=True) == "x^2 - 1"
    assert hepex.reconstruct("(x^2 - 1)^3", "x", factored=True) == "(x + 1)^3*(x - 1)^3"
    with pytest.raises(hepex.InvalidInputError, match="factored"):
        hepex.reconstruct("x", "x", factored="yes")
