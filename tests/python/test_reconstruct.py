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
