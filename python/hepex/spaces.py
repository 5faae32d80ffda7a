"""Row spaces that grow (docs/linalg.md, "Growing row spaces"): ``RowSpace``
(add sample rows, test membership, read the RREF, its pivots and null space,
intersect) and ``span_of_functions``, the sampling loop of Linac's and
antares' ``VectorSpaceOfFunctions`` on top of it. Over Z/p.

Adding k rows to a form of rank r over n columns costs two products of
k x r x (n - r) and r x (growth) x (n - r) and an elimination of k rows, not a
new elimination of everything (C++: ``hepex::linalg::RowSpace``,
``RowEchelon``)."""

from collections import namedtuple

import numpy as np

from . import _hepex
from . import _backend, _is_gpu, _matrix, _prime, _whole, InvalidInputError

FunctionSpan = namedtuple("FunctionSpan", "pivots rank samples space")
FunctionSpan.__doc__ = """What ``span_of_functions`` returns: the ``pivots`` (indices of
functions forming a basis of the span, increasing), the ``rank`` (its
dimension), the number of ``samples`` evaluated and the ``RowSpace`` of the
samples' rows (its ``nullspace()`` holds the linear relations among the
functions, one per column)."""


class RowSpace:
    """The span of rows of ``columns`` entries over Z/p, grown by ``add``.

    ``RowSpace(columns, p, backend="auto")``; ``backend`` "auto" (the GPU
    when hepex has one), "host" or "device". Rows are integer arrays of any
    dtype (or Python ints and fractions.Fraction as dtype=object), reduced
    mod p; a 1-D array is one row. Methods and properties:

    * ``add(rows)``: adds the rows, returns how much the rank grew;
    * ``v in space``: whether the row ``v`` (or every row of a 2-D ``v``) lies
      in the span; ``contains_each(rows)``: a bool array, one per row;
    * ``rank``, ``pivots`` (pivot columns, increasing), ``columns``, ``p``;
    * ``rref()``: the reduced row echelon form (rank x columns);
    * ``nullspace()``: a basis of the vectors x with E x = 0, as columns
      (columns x (columns - rank); Linac eq. 9);
    * ``intersection(other)``: the span of the vectors in both.

    Safe from several threads: calls on one space run one after the other.
    """

    def __init__(self, columns, p, *, backend="auto"):
        self.columns = _whole(columns, "columns", 0, (1 << 31) - 1)
        self.p = _prime(p)
        if self.p == 0:
            raise InvalidInputError("p: RowSpace works over Z/p; give a prime")
        kind = _hepex._RowSpace32 if self.p < (1 << 31) else _hepex._RowSpace64
        self._space = kind(self.columns, self.p, _backend(backend))

    @classmethod
    def _wrap(cls, space, p):
        self = cls.__new__(cls)
        self._space, self.p, self.columns = space, p, space.columns
        return self

    def _rows(self, rows, name="rows"):
        if _is_gpu(rows):
            raise InvalidInputError(f"{name}: RowSpace takes host arrays (numpy); "
                                    "copy a GPU array to the host first")
        a = _matrix(rows, self.p, name)
        if a.ndim == 1:
            a = a.reshape(1, -1)
        if a.ndim != 2:
            raise InvalidInputError(f"{name}: a row (1-D) or rows (2-D), not {a.ndim}-D")
        if a.shape[1] != self.columns:
            raise InvalidInputError(f"{name}: rows of {a.shape[1]} entries for a space of "
                                    f"vectors with {self.columns}")
        return a

    def add(self, rows):
        """Adds the rows (2-D, or one row 1-D); returns how much the rank grew."""
        return self._space.add_rows(self._rows(rows))

    def contains_each(self, rows):
        """A bool array: whether each row lies in the span."""
        return np.array(self._space.contains_each(self._rows(rows)), dtype=bool)

    def __contains__(self, v):
        return bool(self.contains_each(v).all())

    @property
    def rank(self):
        return self._space.rank

    @property
    def pivots(self):
        return self._space.pivots

    @property
    def backend(self):
        return self._space.backend

    def rref(self):
        """The reduced row echelon form, rank x columns."""
        return self._space.rref()

    def nullspace(self):
        """A basis of {x : E x = 0} as columns: columns x (columns - rank)."""
        return self._space.nullspace()

    def intersection(self, other):
        """The span of the vectors in both spaces (same p and columns)."""
        if not isinstance(other, RowSpace):
            raise InvalidInputError("intersection: other must be a RowSpace")
        if other.p != self.p:
            raise InvalidInputError(f"intersection: spaces over p = {self.p} and p = {other.p}")
        return RowSpace._wrap(self._space.intersection(other._space), self.p)

    def __repr__(self):
        return (f"RowSpace(rank {self.rank} of {self.columns} columns, p = {self.p}, "
                f"{self.backend})")


def span_of_functions(evaluate, sample, p, *, start=20, step=20, max_steps=50, backend="auto"):
    """Which of k functions span their span, from their values at samples:
    Linac's / antares' ``VectorSpaceOfFunctions`` loop on a growing form.

    ``evaluate(point)`` returns the k function values at a point (integers,
    reduced mod p); ``sample(i)`` returns the i-th sample point. ``start``
    samples are taken, then ``step`` more at a time, until a sample row falls
    in the span of the earlier ones (more samples than the rank: what antares
    tests as "the RREF's last row is zero"), at most ``max_steps`` steps
    (else NegativeAnswer). Each step adds its rows to the form instead of
    reducing all samples again.

    Returns ``FunctionSpan(pivots, rank, samples, space)``.
    """
    start = _whole(start, "start", 1, 1 << 31)
    step = _whole(step, "step", 1, 1 << 31)
    max_steps = _whole(max_steps, "max_steps", 0, 1 << 31)
    if not callable(evaluate) or not callable(sample):
        raise InvalidInputError("evaluate and sample must be callables")
    space = None
    taken = 0
    for batch in range(max_steps + 1):
        count = start if batch == 0 else step
        rows = [np.asarray(evaluate(sample(taken + i))) for i in range(count)]
        for i, row in enumerate(rows):
            if row.ndim != 1 or (space is not None and row.shape[0] != space.columns) or (
                    row.shape[0] != rows[0].shape[0]):
                raise InvalidInputError(
                    f"evaluate(sample({taken + i})) returned shape {row.shape}; expected one "
                    "value per function (1-D, the same length every time)")
        if space is None:
            space = RowSpace(rows[0].shape[0], p, backend=backend)
        space.add(np.stack(rows))
        taken += count
        if taken > space.rank:
            return FunctionSpan(space.pivots, space.rank, taken, space)
    raise _hepex.NegativeAnswer(
        f"span_of_functions: the rank still grew after {taken} samples "
        f"(start {start}, step {step}, max_steps {max_steps})")
