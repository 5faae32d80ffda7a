"""hepex.rref / rank / nullspace / solve / build_matrix against sympy's exact
Gaussian elimination (DomainMatrix over GF(p) and QQ) on random matrices."""
import fractions

import numpy as np
import pytest
from sympy import GF, QQ
from sympy.polys.matrices import DomainMatrix

import hepex
from conftest import PRIMES, SEED, rng_for


def oracle_rref_mod(a, p):
    """(RREF as Python ints, pivots) by sympy over GF(p)."""
    dm = DomainMatrix([[GF(p)(int(x)) for x in row] for row in a], a.shape, GF(p))
    r, pivots = dm.rref()
    return [[int(x) % p for x in row] for row in r.to_Matrix().tolist()], list(pivots)


def random_low_rank(rng, rows, cols, rank, p, dtype=np.int64):
    """A rows x cols matrix of rank <= `rank` mod p, entries in [0, p)."""
    left = [[int(x) for x in rng.integers(0, p, rank, dtype=np.uint64)] for _ in range(rows)]
    right = [[int(x) for x in rng.integers(0, p, cols, dtype=np.uint64)] for _ in range(rank)]
    m = [[sum(left[i][k] * right[k][j] for k in range(rank)) % p for j in range(cols)]
         for i in range(rows)]
    return np.array(m, dtype=object)


CASES = [(p, shape, case) for p in PRIMES for shape in [(1, 1), (5, 8), (9, 4), (12, 12)]
         for case in range(3)]


@pytest.mark.parametrize("p,shape,case", CASES)
def test_rref_mod_p_matches_sympy(p, shape, case):
    rng = rng_for("rref", p, shape, case)
    rank = int(rng.integers(0, min(shape) + 1))
    a = random_low_rank(rng, *shape, rank, p)
    expected, pivots = oracle_rref_mod(a, p)
    for dtype in (np.uint64, np.int64, object) if p < 2**63 else (object,):
        arg = a.astype(dtype) if dtype is not object else a
        if dtype is np.int64:
            arg = (a - p).astype(object).astype(np.int64)  # negative representatives
        r = hepex.rref(arg, p, backend="host")
        assert r.matrix.dtype == (np.uint32 if p < 2**31 else np.uint64)
        assert r.matrix.tolist() == expected, f"seed {SEED} p {p} {shape} case {case} {dtype}"
        assert r.pivots == pivots and r.rank == len(pivots)
        assert hepex.rank(arg, p) == len(pivots)


@pytest.mark.parametrize("p", [101, 2**31 - 1, 9223372036854775783])
def test_big_python_ints_are_reduced_exactly(p):
    rng = rng_for("bigint", p)
    a = np.array([[int(x) * 10**40 - 7**50 for x in rng.integers(-9, 9, 6)] for _ in range(5)],
                 dtype=object)
    expected, pivots = oracle_rref_mod(np.array([[x % p for x in row] for row in a]), p)
    r = hepex.rref(a, p)
    assert r.matrix.tolist() == expected and r.pivots == pivots


def test_uint32_at_or_above_p_is_reduced():
    p = 65521
    a = np.array([[p, p + 1, 2**32 - 1], [2 * p + 3, 0, 1]], dtype=np.uint32)
    expected, _ = oracle_rref_mod(a.astype(object) % p, p)
    assert hepex.rref(a, p).matrix.tolist() == expected


@pytest.mark.parametrize("p,case", [(p, c) for p in PRIMES[2:] for c in range(4)])
def test_nullspace_and_solve_mod_p(p, case):
    rng = rng_for("null", p, case)
    rows, cols = int(rng.integers(1, 10)), int(rng.integers(1, 10))
    a = random_low_rank(rng, rows, cols, int(rng.integers(0, min(rows, cols) + 1)), p)
    _, pivots = oracle_rref_mod(a, p)
    n = hepex.nullspace(a, p).astype(object)
    assert n.shape == (cols, cols - len(pivots)), f"seed {SEED}"
    assert all(x % p == 0 for x in (a.dot(n)).flat)
    # b in the column space: consistent and A x = b; a random b usually not.
    x0 = np.array([int(v) for v in rng.integers(0, p, cols, dtype=np.uint64)], dtype=object)
    b = a.dot(x0) % p
    s = hepex.solve(a, b, p)
    assert s.consistent and s.x.shape == (cols,)
    assert [v % p for v in a.dot(s.x.astype(object))] == list(b)
    b2 = np.array([int(v) for v in rng.integers(0, p, rows, dtype=np.uint64)], dtype=object)
    augmented = np.concatenate([a, b2.reshape(-1, 1)], axis=1)
    consistent = len(oracle_rref_mod(augmented, p)[1]) == len(pivots)
    s2 = hepex.solve(a, b2, p)
    assert s2.consistent == consistent
    assert (s2.x is None) == (not consistent)


def exact_rref(a):
    """RREF over QQ of a matrix of small integers, as floats."""
    dm = DomainMatrix([[QQ(int(x)) for x in row] for row in a], a.shape, QQ)
    r, pivots = dm.rref()
    return np.array([[float(fractions.Fraction(int(x.numerator), int(x.denominator)))
                      for x in row] for row in r.to_Matrix().tolist()]), list(pivots)


@pytest.mark.parametrize("case", range(12))
def test_rref_float64_matches_exact(case):
    rng = rng_for("float", case)
    rows, cols = int(rng.integers(1, 9)), int(rng.integers(1, 9))
    rank = int(rng.integers(0, min(rows, cols) + 1))
    a = (rng.integers(-5, 6, (rows, rank)) @ rng.integers(-5, 6, (rank, cols))).astype(np.float64)
    expected, pivots = exact_rref(a)
    r = hepex.rref(a)
    assert r.pivots == pivots, f"seed {SEED} case {case}"
    # Measured: below 1e-14 on these; bound 1e-12.
    assert np.max(np.abs(r.matrix - expected), initial=0) < 1e-12
    assert hepex.rank(a) == np.linalg.matrix_rank(a)


@pytest.mark.parametrize("case", range(6))
def test_complex_rref_and_solve(case):
    rng = rng_for("complex", case)
    n = int(rng.integers(2, 7))
    a = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
    r = hepex.rref(a)
    assert r.rank == n and np.allclose(r.matrix, np.eye(n), atol=1e-12, rtol=0)
    b = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    s = hepex.solve(a, b)
    assert s.consistent
    assert np.max(np.abs(s.x - np.linalg.solve(a, b))) < 1e-9 * np.linalg.cond(a)


def test_build_matrix_against_direct_products():
    p = 2**31 - 1
    rng = rng_for("build")
    samples = rng.integers(0, p, (7, 3), dtype=np.uint64)
    monomials = [[], [0], [1, 1], [0, 1, 2], [2, 2, 2]]
    pre = rng.integers(0, p, 7, dtype=np.uint64)
    got = hepex.build_matrix(samples, monomials, p, prefactors=pre)
    for s in range(7):
        for m, mono in enumerate(monomials):
            v = int(pre[s])
            for var in mono:
                v = v * int(samples[s, var]) % p
            assert int(got[s, m]) == v
    real = hepex.build_matrix(np.array([[2.0, 3.0]]), [[0, 1], [1, 1]])
    assert real.tolist() == [[6.0, 9.0]]


@pytest.mark.parametrize("bad,message", [
    (dict(p=100), "is not a prime (divisible by 2); the next prime is 101"),
    (dict(p=2**63), "p = 9223372036854775808 is too large: p must be below 2^63"),
    (dict(p=1), "is not a prime"),
    (dict(p=7.0), "is not an integer"),
])
def test_bad_primes_are_refused(bad, message):
    with pytest.raises(hepex.InvalidInputError, match=message.replace("(", r"\(").replace(")", r"\)").replace("^", r"\^")):
        hepex.rref(np.eye(2, dtype=np.int64), **bad)


def test_bad_arrays_are_refused():
    with pytest.raises(hepex.InvalidInputError, match="dtype float64 with p = 7"):
        hepex.rref(np.eye(2), 7)
    with pytest.raises(hepex.InvalidInputError, match=r"a: entry \(1, 0\) = nan is not finite"):
        hepex.rref(np.array([[1.0, 2.0], [np.nan, 1.0]]))
    with pytest.raises(hepex.InvalidInputError, match="1 or 2 dimensions, not 3"):
        hepex.rref(np.zeros((2, 2, 2), dtype=np.int64), 7)
    with pytest.raises(hepex.InvalidInputError, match="a has 2 rows but b has 3"):
        hepex.solve(np.eye(2, dtype=np.int64), np.ones(3, dtype=np.int64), 7)
    with pytest.raises(hepex.InvalidInputError, match="tol = -1.0 must be finite and > 0"):
        hepex.rref(np.eye(2), tol=-1)
    with pytest.raises(hepex.InvalidInputError, match="backend = .gpu. is not one of auto, host, device"):
        hepex.rref(np.eye(2), backend="gpu")


@pytest.mark.parametrize("p,dtype", [(65521, np.uint32), (2**31 - 1, np.uint32),
                                     (2**61 - 1, np.uint64), (None, np.float64)])
@pytest.mark.parametrize("backend", ["host", "device"])
@pytest.mark.parametrize("case", range(3))
def test_rref_in_place_writes_the_copying_result_into_a(p, dtype, backend, case):
    rng = rng_for("in_place", p, dtype, backend, case)
    rows, cols = (int(x) for x in rng.integers(1, 30, 2))
    if p is None:
        a = rng.standard_normal((rows, cols))
        if rows > 2:
            a[2] = a[0] + 3 * a[1]
    else:
        rank = int(rng.integers(0, min(rows, cols) + 1))
        a = np.array(random_low_rank(rng, rows, cols, rank, p).tolist(), dtype=dtype)
    copying = hepex.rref(a.copy(), p, backend=backend)
    address = a.__array_interface__["data"][0]
    r = hepex.rref(a, p, backend=backend, in_place=True)
    assert r.matrix is a and a.__array_interface__["data"][0] == address
    assert (r.rank, r.pivots) == (copying.rank, copying.pivots)
    if p is None:
        assert np.array_equal(a, copying.matrix)  # the same algorithm and order
    else:
        assert np.array_equal(a, copying.matrix) and a.dtype == copying.matrix.dtype


@pytest.mark.parametrize("make,message", [
    (lambda: np.ones((3, 3), dtype=np.int64), "C-contiguous <u4"),       # not the result's dtype
    (lambda: np.ones((3, 3), dtype=np.uint32)[:, ::2], "C-contiguous <u4"),
    (lambda: np.full((2, 2), 2**31 - 1, dtype=np.uint32), "reduced below p"),
    (lambda: np.ones(3, dtype=np.uint32), "2-D"),
    (lambda: [[1, 2], [3, 4]], "numpy array"),
])
def test_rref_in_place_refuses_what_it_cannot_overwrite(make, message):
    a = make()
    before = np.array(a, copy=True)
    with pytest.raises(hepex.InvalidInputError, match=message):
        hepex.rref(a, 2**31 - 1, in_place=True)
    assert np.array_equal(np.asarray(a), before)


def test_rref_in_place_refuses_read_only_arrays_and_bad_flags():
    a = np.eye(3, dtype=np.uint32)
    a.setflags(write=False)
    with pytest.raises(hepex.InvalidInputError, match="read-only"):
        hepex.rref(a, 101, in_place=True)
    with pytest.raises(hepex.InvalidInputError, match="in_place"):
        hepex.rref(np.eye(2, dtype=np.uint32), 101, in_place="yes")
