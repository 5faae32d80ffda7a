"""hepex.modgemm, krylov_sequences and berlekamp_massey against exact Python
integer arithmetic (numpy object arrays)."""
import numpy as np
import pytest

import hepex
from conftest import PRIMES, SEED, rng_for

METHODS = ["auto", "fp64", "multiword", "int64", "int8"]


def exact_product(a, b, p):
    return a.astype(object).dot(b.astype(object)) % p


@pytest.mark.parametrize("p", PRIMES[2:])
@pytest.mark.parametrize("method", METHODS)
def test_modgemm_exact(p, method):
    rng = rng_for("gemm", p, method)
    for case in range(4):
        m, k, n = (int(x) for x in rng.integers(1, 40, 3))
        a = rng.integers(0, p, (m, k), dtype=np.uint64)
        b = rng.integers(0, p, (k, n), dtype=np.uint64)
        if p < 2**31:
            a, b = a.astype(np.uint32), b.astype(np.uint32)
        try:
            c = hepex.modgemm(a, b, p, method=method, backend="host")
        except hepex.InvalidInputError as e:
            assert "not exact" in str(e) or "exact" in str(e), str(e)
            return
        assert c.tolist() == exact_product(a, b, p).tolist(), f"seed {SEED} {m}x{k}x{n} case {case}"


def test_modgemm_reduces_signed_inputs_and_checks_shapes():
    p = 101
    a = np.array([[-1, 205], [3, -400]], dtype=np.int64)
    assert hepex.modgemm(a, a, p).tolist() == exact_product(a % p, a % p, p).tolist()
    with pytest.raises(hepex.InvalidInputError, match="a has 2 columns but b has 3 rows"):
        hepex.modgemm(a, np.ones((3, 2), dtype=np.int64), p)
    with pytest.raises(hepex.InvalidInputError, match="'fast' .*|fast"):
        hepex.modgemm(a, a, p, method="fast")


@pytest.mark.parametrize("products", ["stepwise", "doubling"])
def test_krylov_sequences_and_minimal_polynomial(products):
    p = 65521
    rng = rng_for("krylov", products)
    d, blocks, length = 9, 3, 18
    t = rng.integers(0, p, (d, d), dtype=np.uint64)
    r = rng.integers(0, p, d, dtype=np.uint64)
    e = rng.integers(0, p, (d, blocks), dtype=np.uint64)
    s = hepex.krylov_sequences(t, r, e, length, p, products=products)
    assert s.shape == (blocks, length)
    v = e.astype(object)
    for i in range(length):
        assert s[:, i].tolist() == list(r.astype(object).dot(v) % p), f"seed {SEED} step {i}"
        v = t.astype(object).dot(v) % p
    # The minimal polynomial of the first sequence annihilates it.
    m = hepex.berlekamp_massey(s[0], p).astype(object)
    assert m[-1] == 1
    L = len(m) - 1
    for i in range(length - L):
        assert sum(m[j] * int(s[0, i + j]) for j in range(L + 1)) % p == 0


@pytest.mark.parametrize("case", range(10))
def test_berlekamp_massey_recovers_a_recurrence(case):
    p = 2**61 - 1
    rng = rng_for("bm", case)
    order = int(rng.integers(1, 8))
    c = [int(x) for x in rng.integers(0, 2**62, order, dtype=np.uint64) % p]
    seq = [int(x) for x in rng.integers(0, 2**62, order, dtype=np.uint64) % p]
    while len(seq) < 2 * order + 4:
        seq.append(sum(c[j] * seq[-order + j] for j in range(order)) % p)
    got = hepex.berlekamp_massey(np.array(seq, dtype=object), p).astype(object).tolist()
    expected = [(-x) % p for x in c] + [1]  # x^L - sum c_j x^j
    # The minimal polynomial divides x^L - sum c_j x^j; for random c and
    # initial values it is that polynomial.
    assert got == expected, f"seed {SEED} case {case}"
