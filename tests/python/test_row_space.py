"""hepex.RowSpace and hepex.span_of_functions against sympy's exact
Gaussian elimination over GF(p): rows added in random blocks leave sympy's
RREF of all rows so far; membership, null space and intersection by sympy's
ranks; the antares-style sampling loop finds the pivots of a full
re-elimination; bad arguments refused; threads; a space alive at exit."""
import subprocess
import sys
import threading

import numpy as np
import pytest
from sympy import GF
from sympy.polys.matrices import DomainMatrix

import hepex
from conftest import PRIMES, rng_for


def sympy_rref(rows, p, cols):
    """(the non-zero rows of the RREF as Python ints, rank) over GF(p)."""
    if len(rows) == 0:
        return [], 0
    dm = DomainMatrix([[GF(p)(int(x)) for x in row] for row in rows], (len(rows), cols), GF(p))
    r, pivots = dm.rref()
    full = [[int(x) % p for x in row] for row in r.to_Matrix().tolist()]
    return full[:len(pivots)], len(pivots)


def random_rows(rng, count, cols, p, basis=None):
    """Rows of uniform residues, or combinations of `basis` rows (as Python ints)."""
    if basis is None or len(basis) == 0:
        return [[int(x) for x in rng.integers(0, p, cols, dtype=np.uint64)] for _ in range(count)]
    coeffs = [[int(x) for x in rng.integers(0, p, len(basis), dtype=np.uint64)]
              for _ in range(count)]
    return [[sum(c[k] * basis[k][j] for k in range(len(basis))) % p for j in range(cols)]
            for c in coeffs]


@pytest.mark.parametrize("p", PRIMES)
@pytest.mark.parametrize("backend", ["host", "device"])
@pytest.mark.parametrize("case", range(3))
def test_blocks_leave_sympys_rref_of_all_rows(p, backend, case):
    rng = rng_for("row_space", p, backend, case)
    cols = int(rng.integers(1, 14))
    basis = random_rows(rng, int(rng.integers(0, cols + 1)), cols, p)
    space = hepex.RowSpace(cols, p, backend=backend)
    rows = []
    for block in range(int(rng.integers(1, 6))):
        k = int(rng.integers(0, 6))
        new = random_rows(rng, k, cols, p, None if rng.integers(0, 4) == 0 else basis)
        before = space.rank
        grew = space.add(np.array(new, dtype=object).reshape(k, cols))
        rows += new
        expected, rank = sympy_rref(rows, p, cols)
        assert space.rank == rank, (block, k)
        assert grew == rank - before
        assert space.rref().tolist() == expected
        assert space.pivots == [next(j for j, x in enumerate(r) if x) for r in expected]
        probe = random_rows(rng, 2, cols, p)
        inside = space.contains_each(np.array(probe, dtype=object))
        for v, flag in zip(probe, inside):
            assert flag == (sympy_rref(rows + [v], p, cols)[1] == rank)
            assert (np.array(v, dtype=object) in space) == flag
        if expected:
            assert random_rows(rng, 1, cols, p, expected)[0] in space
        kernel = space.nullspace()
        assert kernel.shape == (cols, cols - rank)
        if rank and kernel.size:
            product = [[sum(int(e[j]) * int(kernel[j, c]) for j in range(cols)) % p
                        for c in range(kernel.shape[1])] for e in expected]
            assert all(x == 0 for row in product for x in row)


@pytest.mark.parametrize("case", range(6))
def test_intersection_dimension_is_sympys(case):
    rng = rng_for("row_space_intersection", case)
    p = 2**31 - 1
    cols = int(rng.integers(1, 12))
    shared = random_rows(rng, int(rng.integers(0, cols // 2 + 1)), cols, p)
    u_rows = shared + random_rows(rng, int(rng.integers(0, 5)), cols, p)
    w_rows = random_rows(rng, int(rng.integers(0, 5)), cols, p) + shared
    u, w = hepex.RowSpace(cols, p), hepex.RowSpace(cols, p)
    if u_rows:
        u.add(np.array(u_rows, dtype=np.int64))
    if w_rows:
        w.add(np.array(w_rows, dtype=np.int64))
    both = u.intersection(w)
    assert both.rank == u.rank + w.rank - sympy_rref(u_rows + w_rows, p, cols)[1]
    basis = both.rref()
    if both.rank:
        assert basis in u and basis in w


def test_span_of_functions_ports_the_antares_loop():
    """The loop of VectorSpaceOfFunctions (start, step, stop when a sample row
    falls in the span) on a growing form gives the pivots of the same samples
    reduced afresh each step, as antares does."""
    p = 2**31 - 1
    rng = rng_for("span_of_functions")
    points = rng.integers(1, p, size=(400, 3), dtype=np.int64)

    def evaluate(pt):
        x, y, z = (int(v) for v in pt)
        # 12 functions spanning 8 dimensions: four are combinations of others.
        f = [x, y, z, x * y, y * z, x * z, x * x, x * y * z]
        f += [(f[0] + 2 * f[1]) % p, (3 * f[3] - f[5]) % p, (f[6] + f[7]) % p, (5 * f[2]) % p]
        return np.array([v % p for v in f], dtype=np.int64)

    def sample(i):
        return points[i]

    found = hepex.span_of_functions(evaluate, sample, p, start=3, step=2, max_steps=50)
    assert found.rank == 8
    assert found.pivots == [0, 1, 2, 3, 4, 5, 6, 7]
    assert found.samples > found.rank
    # antares: re-reduce every sample so far after each step, stop at a zero last row.
    taken, rows = 3, [evaluate(sample(i)) for i in range(3)]
    while True:
        r = hepex.rref(np.array(rows), p)
        if r.rank < len(rows):
            break
        rows += [evaluate(sample(taken + i)) for i in range(2)]
        taken += 2
    assert (found.samples, found.pivots) == (taken, r.pivots)
    # The relations among the functions: the null space of the samples' rows.
    relations = found.space.nullspace()
    assert relations.shape == (12, 4)


def test_sixty_three_bit_prime():
    p = 9223372036854775783
    space = hepex.RowSpace(3, p)
    assert space.add(np.array([[p - 1, 1, 0], [1, p - 1, 0]], dtype=object)) == 1
    assert space.rref().tolist() == [[1, p - 1, 0]]
    assert [0, 0, 1] not in space


@pytest.mark.parametrize("make,message", [
    (lambda: hepex.RowSpace(3, 100), "not a prime"),
    (lambda: hepex.RowSpace(3, None), "Z/p"),
    (lambda: hepex.RowSpace(-1, 101), "columns"),
    (lambda: hepex.RowSpace(2.5, 101), "columns"),
    (lambda: hepex.RowSpace(3, 101, backend="gpu"), "backend"),
    (lambda: hepex.RowSpace(3, 101).add([[1, 2]]), "2 entries"),
    (lambda: hepex.RowSpace(3, 101).add(np.zeros((1, 1, 3), dtype=np.int64)), "3-D"),
    (lambda: hepex.RowSpace(3, 101).add([[1.5, 2, 3]]), "dtype"),
    (lambda: [1, 2] in hepex.RowSpace(3, 101), "2 entries"),
    (lambda: hepex.RowSpace(3, 101).intersection(hepex.RowSpace(3, 103)), "p = 101"),
    (lambda: hepex.RowSpace(3, 101).intersection(hepex.RowSpace(4, 101)), "3 and 4"),
    (lambda: hepex.RowSpace(3, 101).intersection("space"), "RowSpace"),
    (lambda: hepex.span_of_functions(lambda x: [1, 2], lambda i: i, 101, start=0), "start"),
    (lambda: hepex.span_of_functions(lambda x: [[1]], lambda i: i, 101), "shape"),
    (lambda: hepex.span_of_functions(lambda x: [1] * (1 + x % 2), lambda i: i, 101), "shape"),
    (lambda: hepex.span_of_functions(1, lambda i: i, 101), "callable"),
])
def test_bad_arguments_are_refused(make, message):
    with pytest.raises(hepex.InvalidInputError, match=message):
        make()


def test_a_rank_that_keeps_growing_is_a_negative_answer():
    rng = rng_for("growing")
    with pytest.raises(hepex.NegativeAnswer, match="still grew"):
        hepex.span_of_functions(lambda pt: rng.integers(0, 101, 50), lambda i: i, 101,
                                start=5, step=5, max_steps=3)


def test_threads_adding_to_one_space_get_the_span_of_all_rows():
    p = 65521
    rng = rng_for("threads")
    cols = 30
    basis = random_rows(rng, 20, cols, p)
    blocks = [random_rows(rng, 2, cols, p, basis) for _ in range(24)]
    space = hepex.RowSpace(cols, p)
    grown = [0] * 4

    def work(t):
        for b in blocks[6 * t:6 * t + 6]:
            grown[t] += space.add(np.array(b, dtype=np.int64))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    expected, rank = sympy_rref([r for b in blocks for r in b], p, cols)
    assert space.rank == rank == sum(grown)
    assert space.rref().tolist() == expected


def test_a_space_alive_at_exit_ends_cleanly():
    code = ("import hepex, numpy as np\n"
            "s = hepex.RowSpace(4, 101)\n"
            "s.add(np.eye(4, dtype=np.int64)[:2])\n"
            "t = s.intersection(s)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
