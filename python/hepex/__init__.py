"""hepex from Python: numpy in, numpy out (docs/python.md).

Four families, as in the C++ library and the `hepex` command:

* linear algebra: ``rref``, ``rank``, ``nullspace``, ``solve`` over Z/p
  (integer arrays, reduced mod p) or floating point (float64/complex128 with
  ``tol``), and ``build_matrix`` for ansatz fits;
* modular products: ``modgemm``, ``krylov_sequences``, ``berlekamp_massey``;
* reconstruction: ``reconstruct`` (rational functions over Q from a Python
  black box or an expression);
* matrix elements: ``MatrixElement("gg_ttgg").evaluate(momenta)``.

Errors are exceptions with the command line's messages: ``InvalidInputError``
(a ValueError; the CLI's exit 1), ``RuntimeFailure`` (exit 2) and
``NegativeAnswer`` (exit 3: an inconsistent system, a reconstruction that did
not converge). The GIL is released while hepex computes.
"""

from collections import namedtuple

import numpy as np

from . import _hepex
from ._hepex import (  # noqa: F401  (the public names)
    DeviceArray,
    InvalidInputError,
    NegativeAnswer,
    RuntimeFailure,
    info,
    version_line,
)

__version__ = _hepex.__version__

__all__ = [
    "rref", "rank", "nullspace", "solve", "build_matrix",
    "modgemm", "krylov_sequences", "berlekamp_massey",
    "reconstruct", "MatrixElement", "EventResults",
    "Rref", "Solution", "DeviceArray",
    "InvalidInputError", "RuntimeFailure", "NegativeAnswer",
    "info", "version_line", "__version__",
]

Rref = namedtuple("Rref", "matrix rank pivots")
Rref.__doc__ = """The reduced row echelon form, its rank and its pivot columns (increasing)."""
Solution = namedtuple("Solution", "x nullspace consistent")
Solution.__doc__ = """A particular solution x of A x = b (free variables 0; None when
inconsistent), a null-space basis of A as columns (x + N y solves too), and
whether a solution exists."""
EventResults = namedtuple("EventResults", "me selhel selcol")
EventResults.__doc__ = """|M|^2 per event and MadGraph's 1-based helicity and colour flow
chosen per event (None where rndhel / rndcol was not given)."""

_P_LIMIT = 1 << 63


def _prime(p):
    """p as the extension takes it: 0 for floating point, else 2 <= p < 2^63."""
    if p is None:
        return 0
    if isinstance(p, (bool, float)) or not isinstance(p, (int, np.integer)):
        raise InvalidInputError(f"p = {p!r} is not an integer")
    p = int(p)
    if p >= _P_LIMIT:
        raise InvalidInputError(f"p = {p} is too large: P must be below 2^63")
    if p < 2:
        raise InvalidInputError(f"p = {p} is not a prime (2 <= P < 2^63)")
    return p


_DLPACK_GPU_DEVICES = (2, 13)  # kDLCUDA, kDLCUDAManaged


def _is_gpu(a):
    """A GPU array: __cuda_array_interface__, or DLPack on a CUDA device."""
    if hasattr(a, "__cuda_array_interface__"):
        return True
    return hasattr(a, "__dlpack_device__") and a.__dlpack_device__()[0] in _DLPACK_GPU_DEVICES


def _matrix(a, p, name="a"):
    """A numpy view (or the GPU object itself) of a matrix argument; Python
    ints of any size (dtype=object) are reduced mod p here, exactly."""
    if _is_gpu(a):
        return a
    if hasattr(a, "__dlpack__") and not isinstance(a, np.ndarray):
        a = np.from_dlpack(a)  # host memory, without a copy
    a = np.asarray(a)
    if a.dtype == object:
        if p is None:
            try:
                return a.astype(np.complex128 if any(isinstance(x, complex) for x in a.flat)
                                else np.float64)
            except (TypeError, ValueError) as e:
                raise InvalidInputError(f"{name}: entries that are not numbers ({e})") from None
        try:
            reduced = [int(x) % p for x in a.flat]
        except (TypeError, ValueError) as e:
            raise InvalidInputError(f"{name}: an object array of non-integers ({e})") from None
        return np.array(reduced, dtype=np.uint64).reshape(a.shape)
    if p is not None and a.dtype.kind not in "iub":
        raise InvalidInputError(
            f"{name}: dtype {a.dtype} with p = {p}: Z/p takes integer arrays "
            "(Python ints of any size as dtype=object)")
    if p is None and a.dtype.kind not in "fciub":
        raise InvalidInputError(f"{name}: dtype {a.dtype} is not a number type")
    return a


def _tol(tol):
    tol = float(tol)
    if not (0 < tol < float("inf")):
        raise InvalidInputError(f"tol = {tol} must be finite and > 0")
    return tol


def rref(a, p=None, *, tol=1e-10, backend="auto"):
    """Reduced row echelon form of a matrix.

    With ``p`` (a prime, 2 <= p < 2^63): over Z/p; ``a`` holds integers of any
    dtype (uint32, uint64, int64, ..., or Python ints as dtype=object), reduced
    mod p. The result is uint32 for p < 2^31, else uint64. Without ``p``: over
    float64 (complex128 for complex input), entries of magnitude below ``tol``
    (after each row is scaled to unit maximum) being zero.

    ``backend``: "auto" (the GPU when hepex has one), "host" or "device". A GPU
    array (``__cuda_array_interface__`` or DLPack: CuPy, PyTorch, Numba, JAX)
    is read on the GPU and its RREF returned there as a DeviceArray, without
    host copies.

    Returns ``Rref(matrix, rank, pivots)``.
    """
    p = _prime(p)
    m, rank_, pivots = _hepex.rref(_matrix(a, p or None), p, _tol(tol), backend)
    return Rref(m, rank_, pivots)


def rank(a, p=None, *, tol=1e-10, backend="auto"):
    """The rank of a matrix (over Z/p with ``p``, else floating point)."""
    return rref(a, p, tol=tol, backend=backend).rank


def nullspace(a, p=None, *, tol=1e-10, backend="auto"):
    """A basis of the right null space of ``a`` as the columns of an
    (n, n - rank) array: the canonical one of the RREF (each free column c
    gives x_c = -1 and x at the pivots from column c of the RREF)."""
    p = _prime(p)
    return _hepex.nullspace(_matrix(a, p or None), p, _tol(tol), backend)


def solve(a, b, p=None, *, tol=1e-10, backend="auto"):
    """Solutions of A X = B: ``Solution(x, nullspace, consistent)``.

    ``b`` is a vector or a matrix with A's rows; ``x`` has the free variables
    0 and is None when no solution exists (``consistent`` False); every
    solution is x + nullspace @ y.
    """
    p = _prime(p)
    x, n, consistent = _hepex.solve(_matrix(a, p or None), _matrix(b, p or None, "b"), p,
                                    _tol(tol), backend)
    if x is not None and np.ndim(b) == 1:
        x = x.reshape(-1)
    return Solution(x, n, consistent)


def build_matrix(samples, monomials, p=None, *, prefactors=None, tol=1e-10, backend="auto"):
    """The system matrix of an ansatz fit (Linac section 3.3).

    ``samples`` is (S, V): the values of V variables at S points; each
    monomial is a list of variable indices ([] is 1, [0, 0, 2] is x0^2 x2);
    ``prefactors`` (S values) multiply each row. Entry (s, m) is
    prefactor(s) * prod samples(s, v) over the indices v of monomial m.
    """
    p = _prime(p)
    monomials = [[int(v) for v in m] for m in monomials]
    pre = None if prefactors is None else _matrix(prefactors, p or None, "prefactors")
    return _hepex.build_matrix(_matrix(samples, p or None, "samples"), monomials, p, _tol(tol),
                               pre, backend)


def modgemm(a, b, p, *, method="auto", backend="auto"):
    """C = A B mod p, exact for every 2 <= p < 2^63.

    ``method``: "auto", "fp64", "multiword", "int64" or "int8" (one that is not
    exact for p is refused). Numpy operands already holding reduced uint32
    (p < 2^31) or uint64 values are read in place; two GPU arrays give a
    DeviceArray.
    """
    p = _prime(p)
    return _hepex.modgemm(_matrix(a, p), _matrix(b, p, "b"), p, method, backend)


def krylov_sequences(t, r, e, length, p, *, products="stepwise", backend="auto"):
    """The Krylov sequences s[j, i] = r^T T^i e_j (i < length) of Sparse-FGLM,
    for each column e_j of ``e`` (D x b), as a (b, length) array.
    ``products``: "stepwise" (one product T V per step) or "doubling"
    (Keller-Gehrig: about log2(length) large products)."""
    p = _prime(p)
    if int(length) < 0:
        raise InvalidInputError(f"length = {length} must be >= 0")
    return _hepex.krylov_sequences(_matrix(t, p, "t"), _matrix(r, p, "r"), _matrix(e, p, "e"),
                                   int(length), p, products, backend)


def berlekamp_massey(sequence, p):
    """The monic minimal polynomial of a linearly recurrent sequence mod p,
    coefficients from x^0 up (exact for a sequence of length >= 2L)."""
    p = _prime(p)
    return _hepex.berlekamp_massey(_matrix(sequence, p, "sequence"), p)


def _variables(variables):
    if isinstance(variables, str):
        return _hepex.parse_variable_list(variables)
    return _hepex.parse_variable_list(",".join(variables))


def reconstruct(f, variables, *, primes=40, seed=20261122, max_degree=200, form="str"):
    """Rational functions over Q from a black box, by balanced Zippel mod
    63-bit primes and rational reconstruction (as ``hepex reconstruct``).

    ``f`` is an expression string (or a list of them, each reconstructed on
    its own) in ``variables``, or a vectorised callable ``f(points, p)``:
    points is a (count, len(variables)) uint64 array of residues mod the prime
    p; it returns the values mod p as a (count,) integer array (one function)
    or (count, k) for k functions, or a pair (values, ok) with ok False where
    f is undefined (a zero denominator).

    ``variables``: names, as a list or "x,y,z". Returns a string
    "(NUM)/(DEN)" that sympy parses, or a list of them (a list of inputs, or
    k > 1 functions); ``form="sympy"`` returns sympy expressions instead.
    Raises NegativeAnswer when ``primes`` primes do not determine a function.
    """
    names = _variables(variables)
    if form not in ("str", "sympy"):
        raise InvalidInputError(f"form '{form}' is not str or sympy")
    several = not isinstance(f, str) and not callable(f)
    if isinstance(f, str) or several:
        texts = [f] if isinstance(f, str) else list(f)
        results = _hepex.reconstruct_expressions(texts, names, int(primes), int(seed),
                                                 int(max_degree))
    else:
        functions = _count_functions(f, len(names))
        results = _hepex.reconstruct_callable(f, names, functions, int(primes), int(seed),
                                              int(max_degree))
        several = functions > 1
    if form == "sympy":
        import sympy
        symbols = {n: sympy.Symbol(n) for n in names}
        results = [sympy.sympify(r, locals=symbols) for r in results]
    return results if several else results[0]


def _count_functions(f, variables):
    """How many functions a black box returns: its value at one point."""
    probe_prime = 9223372036854775783  # the largest prime below 2^63
    point = np.arange(2, 2 + variables, dtype=np.uint64).reshape(1, variables) * 1000003 + 17
    values = f(point, probe_prime)
    if isinstance(values, tuple):
        values = values[0]
    values = np.asarray(values)
    if values.ndim == 1 and values.shape[0] == 1:
        return 1
    if values.ndim == 2 and values.shape[0] == 1 and values.shape[1] >= 1:
        return int(values.shape[1])
    raise InvalidInputError(
        f"f(points, p) for 1 point returned shape {values.shape}: (1,) or (1, k) expected")


class MatrixElement:
    """LO |M|^2 of g g -> t tbar + n gluons (``process``: "gg_tt", "gg_ttg",
    "gg_ttgg", "gg_ttggg"), summed over helicities and colours and averaged
    as MadGraph does.

    ``precision``: "double", "float" or "mixed"; ``colour_sum``: "kernel" or
    "blas"; ``simd``: the host kernel's instruction set ("auto", "none",
    "sse", "avx2", "avx512"); ``param_card``: a MadGraph param_card.dat for
    the top mass and width and alpha_s.
    """

    def __init__(self, process, *, precision="double", colour_sum="kernel", simd="auto",
                 param_card=None):
        self._me = _hepex.MatrixElement(process, precision, colour_sum, simd,
                                        "" if param_card is None else str(param_card))

    process = property(lambda self: self._me.process)
    particles = property(lambda self: self._me.particles)
    configurations = property(lambda self: self._me.configurations,
                              doc="MadEvent's igraph runs 1..configurations")
    me_units = property(lambda self: self._me.me_units)
    good_helicities = property(lambda self: self._me.good_helicities)

    def evaluate(self, momenta, *, gs=None, rndhel=None, rndcol=None, igraph=None,
                 tolerance=None):
        """|M|^2 for momenta of shape (events, particles, 4): (E, px, py, pz)
        in GeV, particles in the order g g t tbar g..., checked first
        (conservation, mass shells; ``tolerance`` relaxes both).

        Per event, optionally: ``gs`` (the strong coupling), ``rndhel`` and
        ``rndcol`` (uniform in [0, 1): choose a helicity and a colour flow),
        ``igraph`` (MadEvent's configuration, with rndcol). Returns the |M|^2
        array, or ``EventResults(me, selhel, selcol)`` when rndhel or rndcol
        is given.
        """
        result = self._me.evaluate(np.asarray(momenta), gs, rndhel, rndcol, igraph,
                                   0.0 if tolerance is None else float(tolerance))
        if isinstance(result, tuple):
            return EventResults(*result)
        return result
