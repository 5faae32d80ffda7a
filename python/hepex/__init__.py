"""hepex from Python: numpy in, numpy out (docs/python.md).

Four families, as in the C++ library and the `hepex` command:

* linear algebra: ``rref``, ``rank``, ``nullspace``, ``solve`` over Z/p
  (integer arrays, reduced mod p) or floating point (float64/complex128 with
  ``tol``), ``build_matrix`` for ansatz fits, ``RowSpace`` and
  ``span_of_functions`` for spans grown by adding samples (hepex.spaces);
* modular products: ``modgemm``, ``krylov_sequences``, ``berlekamp_massey``;
* reconstruction: ``reconstruct`` (rational functions over Q from a Python
  black box or an expression);
* matrix elements: ``MatrixElement("gg_ttgg").evaluate(momenta)``.

Errors are exceptions with the command line's messages: ``InvalidInputError``
(a ValueError; the CLI's exit 1), ``RuntimeFailure`` (exit 2) and
``NegativeAnswer`` (exit 3: an inconsistent system, a reconstruction that did
not converge). The GIL is released while hepex computes.
"""

import numbers
import operator
import os
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
    "rref", "rank", "nullspace", "solve", "build_matrix", "RowSpace", "span_of_functions",
    "FunctionSpan",
    "modgemm", "krylov_sequences", "berlekamp_massey",
    "reconstruct", "reduce", "Reduction", "MatrixElement", "EventResults", "processes",
    "Rref", "Solution", "Reconstruction", "Progress", "DeviceArray",
    "InvalidInputError", "RuntimeFailure", "NegativeAnswer",
    "info", "version_line", "__version__",
]

Rref = namedtuple("Rref", "matrix rank pivots")
Rref.__doc__ = """The reduced row echelon form, its rank and its pivot columns (increasing)."""
Solution = namedtuple("Solution", "x nullspace consistent")
Solution.__doc__ = """A particular solution x of A x = b (free variables 0; None when
inconsistent), a null-space basis of A as columns (x + N y solves too), and
whether a solution exists."""
Reconstruction = namedtuple(
    "Reconstruction", "result seed primes prime_list probes seconds black_box_seconds")
Reconstruction.__doc__ = """What ``reconstruct(..., stats=True)`` returns: ``result`` (what
``reconstruct`` returns without stats), the ``seed`` of the random primes and
points, the number of ``primes`` whose images were combined, ``prime_list``
((prime, role, probes) for every prime tried; role "image", "check",
"undefined", "failed" or "rejected"), the black-box ``probes`` in all, and the
``seconds`` in all and in the black box."""
Reduction = namedtuple("Reduction", "table masters targets stats")
Reduction.__doc__ = """What ``reduce`` returns: ``table`` (a dict: each target -> a dict
master -> coefficient, only the nonzero ones, in the targets' order), the
``masters`` (every master any target needs, in the integral order), the
``targets`` as given, and ``stats`` (a dict: equations, equations_used,
integrals, probes, primes, seed, replay_instructions, replay_registers and
learn/probe/algebra/check seconds)."""
Progress = namedtuple("Progress", "task stage done total unit seconds rate eta")
Progress.__doc__ = """A progress report of a long call, given to its ``progress`` callback
about every two seconds: ``done`` of ``total`` ``unit`` (total 0 when not
known ahead) of ``task`` (its ``stage``), after ``seconds``, at ``rate`` units
per second, ``eta`` seconds still to go (-1 when not known)."""
EventResults = namedtuple("EventResults", "me selhel selcol")
EventResults.__doc__ = """|M|^2 per event and MadGraph's 1-based helicity and colour flow
chosen per event (None where rndhel / rndcol was not given)."""

_P_LIMIT = 1 << 63


def _whole(value, name, low=0, high=(1 << 64) - 1):
    """A Python int from an int or a numpy integer in [low, high]; anything
    else (bool, float, str, ...) is an InvalidInputError naming the argument."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidInputError(f"{name} = {value!r} is not a whole number")
    value = int(value)
    if not low <= value <= high:
        raise InvalidInputError(f"{name} = {value} is not a whole number from {low} to {high}")
    return value


def _prime(p):
    """p as the extension takes it: 0 for floating point, else a prime
    2 <= p < 2^63 (checked here, in Python's terms)."""
    if p is None:
        return 0
    if isinstance(p, (bool, np.bool_, float)) or not isinstance(p, (int, np.integer)):
        raise InvalidInputError(f"p = {p!r} is not an integer")
    p = int(p)
    if p >= _P_LIMIT:
        raise InvalidInputError(f"p = {p} is too large: p must be below 2^63")
    if p < 2:
        raise InvalidInputError(f"p = {p} is not a prime (2 <= p < 2^63)")
    _hepex.check_prime(p)  # "p = 100 is not a prime (divisible by 2); the next prime is 101"
    return p


def _progress(callback):
    """The extension's progress argument for a user's callback (or None)."""
    if callback is None:
        return None
    if not callable(callback):
        raise InvalidInputError(f"progress = {callback!r}: a callable taking a hepex.Progress, or None")
    return lambda *fields: callback(Progress(*fields))


def _text(value, name, choices=None):
    if not isinstance(value, str):
        raise InvalidInputError(f"{name} = {value!r} is not a string")
    if choices is not None and value not in choices:
        raise InvalidInputError(f"{name} = {value!r} is not one of {', '.join(choices)}")
    return value


def _residue(x, p):
    """x mod p for an integer (int, numpy integers, sympy.Integer) or an exact
    fraction (fractions.Fraction, sympy.Rational: a/b as a * b^-1 mod p);
    None when p divides its denominator; TypeError for anything else
    (floats, Decimal, strings: their values mod p are not defined)."""
    if isinstance(x, (bool, np.bool_)):
        return int(x)
    try:
        return operator.index(x) % p
    except TypeError:
        pass
    if isinstance(x, numbers.Rational):
        num, den = operator.index(x.numerator), operator.index(x.denominator)
        if den % p == 0:
            return None
        return num % p * pow(den % p, -1, p) % p
    raise TypeError(type(x).__name__)


def _entry_name(index, shape):
    if len(shape) == 2:
        return f"({index // shape[1]}, {index % shape[1]})"
    return f"({index})" if len(shape) == 1 else str(np.unravel_index(index, shape))


def _object_matrix(a, p, name):
    """A matrix of Python objects as uint64 residues mod p, exactly."""
    flat = a.reshape(-1)
    out = np.empty(flat.shape[0], dtype=np.uint64)
    for k, x in enumerate(flat):
        try:
            r = _residue(x, p)
        except TypeError:
            raise InvalidInputError(
                f"{name}: entry {_entry_name(k, a.shape)} = {x!r} ({type(x).__name__}) is not an "
                "integer or an exact fraction: Z/p takes int, numpy integers and "
                "fractions.Fraction") from None
        if r is None:
            raise InvalidInputError(
                f"{name}: entry {_entry_name(k, a.shape)} = {x} has a denominator divisible by "
                f"p = {p}: it has no value mod p")
        out[k] = r
    return out.reshape(a.shape)


def _object_residues(values, p, name):
    """A black box's object values (count,) or (count, k) mod p, and per
    point whether all of them are defined there (a fraction whose
    denominator p divides is undefined)."""
    values = np.asarray(values, dtype=object)
    rows = values.shape[0] if values.ndim >= 1 else 1
    flat = values.reshape(rows, -1)
    out = np.zeros(flat.shape, dtype=np.uint64)
    defined = np.ones(rows, dtype=bool)
    for i in range(rows):
        for j in range(flat.shape[1]):
            x = flat[i, j]
            try:
                r = _residue(x, p)
            except TypeError:
                raise InvalidInputError(
                    f"{name}: the value {x!r} ({type(x).__name__}) at point {i} is not an integer "
                    "or an exact fraction (int, numpy integers, fractions.Fraction)") from None
            if r is None:
                defined[i] = False
            else:
                out[i, j] = r
    return out.reshape(values.shape), defined


def _exact_float64(a, name):
    """float16/32 and long double arrays as float64 (complex ones as
    complex128), when every value is exactly a double; else refused."""
    target = np.complex128 if a.dtype.kind == "c" else np.float64
    converted = a.astype(target)
    back = converted.astype(a.dtype)
    same = (back == a) | (np.isnan(a) if a.dtype.kind == "f" else False)
    if not np.all(same):
        k = int(np.flatnonzero(~same.reshape(-1))[0])
        raise InvalidInputError(
            f"{name}: entry {_entry_name(k, a.shape)} = {a.reshape(-1)[k]!r} (dtype {a.dtype}) has "
            f"no exact {np.dtype(target).name} value; hepex computes in double precision: "
            f"round it first with {name}.astype(np.{np.dtype(target).name})")
    return converted


_DLPACK_GPU_DEVICES = (2, 13)  # kDLCUDA, kDLCUDAManaged


def _is_gpu(a):
    """A GPU array: __cuda_array_interface__, or DLPack on a CUDA device."""
    if hasattr(a, "__cuda_array_interface__"):
        return True
    return hasattr(a, "__dlpack_device__") and a.__dlpack_device__()[0] in _DLPACK_GPU_DEVICES


def _matrix(a, p, name="a"):
    """A numpy view (or the GPU object itself) of a matrix argument; Python
    ints of any size and exact fractions (dtype=object) are reduced mod p
    here, exactly."""
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
        return _object_matrix(a, p, name)
    if p is not None and a.dtype.kind not in "iub":
        raise InvalidInputError(
            f"{name}: dtype {a.dtype} with p = {p}: Z/p takes integer arrays "
            "(Python ints of any size and fractions.Fraction as dtype=object)")
    if p is None and a.dtype.kind not in "fciub":
        raise InvalidInputError(f"{name}: dtype {a.dtype} is not a number type")
    if p is None and a.dtype.kind in "fc" and a.dtype not in (np.float64, np.complex128):
        a = _exact_float64(a, name)
    return a


def _tol(tol):
    if isinstance(tol, (bool, np.bool_)) or not isinstance(tol, (int, float, np.integer, np.floating)):
        raise InvalidInputError(f"tol = {tol!r} is not a number")
    tol = float(tol)
    if not (0 < tol < float("inf")):
        raise InvalidInputError(f"tol = {tol} must be finite and > 0")
    return tol


def _backend(backend):
    return _text(backend, "backend", ("auto", "host", "device"))


def rref(a, p=None, *, tol=1e-10, backend="auto", progress=None, in_place=False):
    """Reduced row echelon form of a matrix.

    With ``p`` (a prime, 2 <= p < 2^63): over Z/p; ``a`` holds integers of any
    dtype (uint32, uint64, int64, ..., or Python ints and exact fractions such
    as fractions.Fraction as dtype=object; floats are refused), reduced mod p.
    The result is uint32 for p < 2^31, else uint64. Without ``p``: over
    float64 (complex128 for complex input; float32 and long double inputs are
    taken when every value is exactly a double), entries of magnitude below
    ``tol`` (after each row is scaled to unit maximum) being zero.

    ``backend``: "auto" (the GPU when hepex has one), "host" or "device". A GPU
    array (``__cuda_array_interface__`` or DLPack: CuPy, PyTorch, Numba, JAX)
    is read on the GPU and its RREF returned there as a DeviceArray, without
    host copies.

    ``progress``: a callable given a ``hepex.Progress`` about every two
    seconds of a long call (what it raises ends the call). Ctrl-C ends any
    call within a second (KeyboardInterrupt).

    ``in_place=True``: ``a`` itself becomes its RREF and is returned as the
    matrix, so the host holds one copy (a numpy array, C-contiguous and
    writable, already of the result's dtype: uint32 for p < 2^31, uint64
    above, float64 or complex128, with entries reduced below p / finite;
    anything else is refused before any work). The default returns a new
    array and leaves ``a`` as it was.

    Returns ``Rref(matrix, rank, pivots)``.
    """
    p = _prime(p)
    if in_place not in (True, False):
        raise InvalidInputError(f"in_place = {in_place!r} must be True or False")
    if in_place and not isinstance(a, np.ndarray) and not _is_gpu(a):
        raise InvalidInputError("a: in_place takes a numpy array (the RREF is written into it)")
    m, rank_, pivots = _hepex.rref(a if in_place else _matrix(a, p or None), p, _tol(tol),
                                   _backend(backend), _progress(progress), bool(in_place))
    return Rref(m, rank_, pivots)


def rank(a, p=None, *, tol=1e-10, backend="auto", progress=None):
    """The rank of a matrix (over Z/p with ``p``, else floating point)."""
    return rref(a, p, tol=tol, backend=backend, progress=progress).rank


def nullspace(a, p=None, *, tol=1e-10, backend="auto", progress=None):
    """A basis of the right null space of ``a`` as the columns of an
    (n, n - rank) array: the canonical one of the RREF (each free column c
    gives x_c = -1 and x at the pivots from column c of the RREF)."""
    p = _prime(p)
    return _hepex.nullspace(_matrix(a, p or None), p, _tol(tol), _backend(backend),
                            _progress(progress))


def solve(a, b, p=None, *, tol=1e-10, backend="auto", progress=None):
    """Solutions of A X = B: ``Solution(x, nullspace, consistent)``.

    ``b`` is a vector or a matrix with A's rows; ``x`` has the free variables
    0 and is None when no solution exists (``consistent`` False); every
    solution is x + nullspace @ y.
    """
    p = _prime(p)
    x, n, consistent = _hepex.solve(_matrix(a, p or None), _matrix(b, p or None, "b"), p,
                                    _tol(tol), _backend(backend), _progress(progress))
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
    try:
        monomials = [[operator.index(v) for v in m] for m in monomials]
    except TypeError:
        raise InvalidInputError(
            "monomials: a list of lists of variable indices (ints), e.g. [[], [0], [0, 1]]") from None
    pre = None if prefactors is None else _matrix(prefactors, p or None, "prefactors")
    return _hepex.build_matrix(_matrix(samples, p or None, "samples"), monomials, p, _tol(tol),
                               pre, _backend(backend))


def modgemm(a, b, p, *, method="auto", backend="auto", progress=None):
    """C = A B mod p, exact for every 2 <= p < 2^63.

    ``method``: "auto", "fp64", "multiword", "int64" or "int8" (one that is not
    exact for p is refused). Numpy operands already holding reduced uint32
    (p < 2^31) or uint64 values are read in place; two GPU arrays give a
    DeviceArray. A long product runs in blocks of rows, so that ``progress``
    hears of it and Ctrl-C ends it within a second.
    """
    p = _prime(p)
    if p == 0:
        raise InvalidInputError("modgemm works modulo a prime: give p")
    return _hepex.modgemm(_matrix(a, p), _matrix(b, p, "b"), p,
                          _text(method, "method", ("auto", "fp64", "multiword", "int64", "int8")),
                          _backend(backend), _progress(progress))


def krylov_sequences(t, r, e, length, p, *, products="stepwise", backend="auto"):
    """The Krylov sequences s[j, i] = r^T T^i e_j (i < length) of Sparse-FGLM,
    for each column e_j of ``e`` (D x b), as a (b, length) array.
    ``products``: "stepwise" (one product T V per step) or "doubling"
    (Keller-Gehrig: about log2(length) large products)."""
    p = _prime(p)
    if p == 0:
        raise InvalidInputError("krylov_sequences works modulo a prime: give p")
    length = _whole(length, "length")
    return _hepex.krylov_sequences(_matrix(t, p, "t"), _matrix(r, p, "r"), _matrix(e, p, "e"),
                                   length, p, _text(products, "products", ("stepwise", "doubling")),
                                   _backend(backend))


def berlekamp_massey(sequence, p):
    """The monic minimal polynomial of a linearly recurrent sequence mod p,
    coefficients from x^0 up (exact for a sequence of length >= 2L)."""
    p = _prime(p)
    if p == 0:
        raise InvalidInputError("berlekamp_massey works modulo a prime: give p")
    return _hepex.berlekamp_massey(_matrix(sequence, p, "sequence"), p)


def _variables(variables):
    if isinstance(variables, str):
        return _hepex.parse_variable_list(variables)
    try:
        names = [_text(v, "variables") for v in variables]
    except TypeError:
        raise InvalidInputError(
            f"variables = {variables!r}: names as a list or as one string 'x,y,z'") from None
    return _hepex.parse_variable_list(",".join(names))


def _seed(seed):
    """seed, or a random one (each run its own primes) when None."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    return _whole(seed, "seed")


def reconstruct(f, variables, *, primes=40, seed=None, max_degree=1000, form="str", stats=False,
                together=False, factor_scan="auto", progress=None, checkpoint=None,
                factored=False):
    """Rational functions over Q from a black box, by balanced Zippel mod
    random 63-bit primes and rational reconstruction (as ``hepex reconstruct``).

    ``f`` is an expression string (or a list of them, each reconstructed on
    its own) in ``variables``, or a vectorised callable ``f(points, p)``:
    points is a (count, len(variables)) uint64 array of residues mod the prime
    p; it returns the values mod p as a (count,) integer array (one function)
    or (count, k) for k functions, or a pair (values, ok) with ok False where
    f is undefined (a zero denominator). Values may also be Python ints or
    exact fractions (fractions.Fraction) as dtype=object; floats are refused.

    ``variables``: names, as a list or "x,y,z". ``primes``: images combined at
    most; ``max_degree``: the largest degree per variable and in total.
    ``seed``: of the random primes and probe points (None: a random one; the
    answer does not depend on it). Returns a string "NUM" (a polynomial) or
    "(NUM)/(DEN)" that sympy parses, or a list of them (a list of inputs, or
    k > 1 functions); ``form="sympy"`` returns sympy expressions instead.
    With ``stats=True`` each answer comes as a ``Reconstruction`` with the
    seed, the primes used, the probes and the times. ``together=True``
    reconstructs a list of expressions as one black box, every probe serving
    every function (as the coefficients of one IBP system): one
    ``Reconstruction`` whose result is the list. ``factor_scan``: "auto"
    (univariate factors divided out first in the variables whose hyperplane
    x = 0 makes a denominator vanish), "on" (every variable) or "off".

    ``factored=True``: each answer in factored form (a constant times
    irreducible factors with multiplicities, FLINT's factorisation, e.g.
    "-3*(x + y)^3/(2*x^2*(y - 1))") where that is shorter than the expanded
    form.

    ``progress``: a callable given a ``hepex.Progress`` (probes, rate) about
    every two seconds; Ctrl-C ends the call within a second.

    ``checkpoint``: a directory that keeps every probe (``probes-K``, one
    file per reconstruction): a call killed halfway, run again with the same
    arguments, replays the probes it had (with their seed, when ``seed`` is
    None) instead of calling ``f`` again. Up to four stored points are
    evaluated again first: a log whose values ``f`` no longer gives is an
    error. The files stay after success (a rerun replays them); delete the
    directory when done.

    Raises NegativeAnswer when ``primes`` primes do not determine a function
    (its ``reconstruction`` attribute holds the work done).
    """
    names = _variables(variables)
    form = _text(form, "form", ("str", "sympy"))
    primes = _whole(primes, "primes", 1, 10000)
    max_degree = _whole(max_degree, "max_degree", 1, 100000)
    seed_given = seed is not None
    seed = _seed(seed)
    factor_scan = _text(factor_scan, "factor_scan", ("auto", "on", "off"))
    callback = _progress(progress)
    logs = _checkpoint_files(checkpoint)
    if not isinstance(factored, bool):
        raise InvalidInputError(f"factored = {factored!r}: True or False")
    several = not isinstance(f, str) and not callable(f)
    if isinstance(f, str) or several:
        if several:
            try:
                texts = list(f)
            except TypeError:
                raise InvalidInputError(
                    f"f = {f!r}: an expression, a list of them, or a callable f(points, p)") from None
            for i, t in enumerate(texts):
                _text(t, f"f[{i}]")
        else:
            texts = [f]
        _hepex.check_expressions(texts, names)  # every one before any work
        if together and several:
            run = _hepex.reconstruct_expressions(texts, names, primes, seed, max_degree,
                                                 factor_scan, callback, logs(0), seed_given,
                                                 factored)
            results = [_finished(run, form, names, True)]
            several = False
        else:
            runs = [_hepex.reconstruct_expressions([t], names, primes, seed, max_degree,
                                                   factor_scan, callback, logs(i), seed_given,
                                                   factored)
                    for i, t in enumerate(texts)]
            results = [_finished(r, form, names, False) for r in runs]
    else:
        functions = _count_functions(f, len(names))
        run = _hepex.reconstruct_callable(f, names, functions, primes, seed, max_degree,
                                          factor_scan, callback, logs(0), seed_given,
                                          factored)
        results = [_finished(run, form, names, functions > 1)]
        several = False
    if not stats:
        results = [r.result for r in results]
    return results if several else results[0]


def _sympify(names):
    """text -> a sympy expression in the variables `names`."""
    import sympy
    symbols = {n: sympy.Symbol(n) for n in names}
    return lambda text: sympy.sympify(text, locals=symbols)


def _integral_file(value, name):
    """A path (str or os.PathLike) -> (text, path); a list of integral
    strings -> (one a line, "name"). Unreadable files: InvalidInputError."""
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        try:
            with open(path, encoding="utf-8") as f:
                return f.read(), path
        except (OSError, UnicodeDecodeError) as e:
            raise InvalidInputError(f"{name} = {path!r}: cannot read it: {e}") from None
    try:
        items = list(value)
    except TypeError:
        raise InvalidInputError(f"{name} = {value!r}: a file path or a list of integrals") from None
    for i, item in enumerate(items):
        if not isinstance(item, str) or "\n" in item:
            raise InvalidInputError(f"{name}[{i}] = {item!r}: an integral such as 'G[1,1,0]'")
    return "\n".join(items) + "\n", name


def reduce(system, variables, targets, *, order=None, masters=None, primes=40, seed=None,
           max_degree=1000, form="str", factored=False, checkpoint=None, progress=None,
           threads=None):
    """IBP reduction (as ``hepex reduce``): every target integral of a linear
    system as master integrals with rational-function coefficients.

    ``system``: the path of the system, a Mathematica list ``{eq1, ...}``
    (NeatIBP's IBP_all.txt, LiteRed) or Kira's equation format (docs/reduce.md).
    ``variables``: its parameters, a list or "d,s,t". ``targets``: a file of
    integrals (one a line, or a Mathematica list) or a list of strings such as
    ``"G[1,1,1,0]"``. ``order``: the integral order, most complex first (a
    file or a list; every integral of the system must be in it); None: the
    default Laporta order. ``masters``: preferred masters (a file or a
    list), put at the simplest end of the order so that they are masters
    wherever the system allows (a warning names one that is not).
    ``primes``, ``seed``, ``max_degree``: as in ``reconstruct``.
    ``factored=True``: coefficients in factored form where shorter.
    ``form="sympy"``: sympy expressions instead of strings. ``checkpoint``:
    a directory keeping every probe (``probes-reduce``): the same call after
    a kill replays them (with the killed run's seed when ``seed`` is None);
    the file stays after success. ``threads``: host threads for the
    reconstruction's algebra and the replay (None: every core this process
    may run on); the table does not depend on it.

    Returns a ``Reduction``. Bad input raises InvalidInputError naming the
    file, line and column before any work; a target that no equation reduces
    is a master of its own (a warning names it). A table that a fresh
    elimination at random check points contradicts is never returned
    (RuntimeFailure).
    """
    import warnings
    names = _variables(variables)
    form = _text(form, "form", ("str", "sympy"))
    primes = _whole(primes, "primes", 1, 10000)
    max_degree = _whole(max_degree, "max_degree", 1, 100000)
    threads = 0 if threads is None else _whole(threads, "threads", 1, 4096)
    seed_given = seed is not None
    seed = _seed(seed)
    if not isinstance(factored, bool):
        raise InvalidInputError(f"factored = {factored!r}: True or False")
    callback = _progress(progress)
    log = _checkpoint_files(checkpoint)("reduce")
    if not isinstance(system, (str, os.PathLike)):
        raise InvalidInputError(f"system = {system!r}: the path of a system file")
    system_text, system_name = _integral_file(system, "system")
    targets_text, targets_name = _integral_file(targets, "targets")
    order_text, order_name = ("", "") if order is None else _integral_file(order, "order")
    masters_text, masters_name = ("", "") if masters is None else _integral_file(masters, "masters")
    target_names, master_names, table, master_targets, unmet, stats = _hepex.reduce_system(
        system_text, system_name, names, targets_text, targets_name, order_text, order_name,
        masters_text, masters_name, log, seed_given, primes, seed, max_degree, factored, callback,
        threads)
    for m in unmet:
        warnings.warn(f"preferred master {m} is not a master (the system reduces it to the others)",
                      stacklevel=2)
    for t in master_targets:
        warnings.warn(f"target {target_names[t]} is a master integral (no equation reduces it)",
                      stacklevel=2)
    convert = _sympify(names) if form == "sympy" else str
    rows = {}
    for t, row in zip(target_names, table):
        rows[t] = {m: convert(c) for m, c in zip(master_names, row) if c != "0"}
    return Reduction(rows, list(master_names), list(target_names), dict(stats))


def _directory(checkpoint):
    """checkpoint=DIR as a path string (InvalidInputError if it is none)."""
    try:
        directory = os.fspath(checkpoint)
    except TypeError:
        directory = None
    if not isinstance(directory, str) or not directory:
        raise InvalidInputError(f"checkpoint = {checkpoint!r}: a directory path")
    return directory


def _checkpoint_files(checkpoint):
    """checkpoint=DIR -> a function of K giving DIR/probes-K (DIR made if
    absent); None -> one giving "" (no probe log)."""
    if checkpoint is None:
        return lambda k: ""
    directory = _directory(checkpoint)
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise InvalidInputError(f"checkpoint = {directory!r}: exists and is not a directory")
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as e:
        raise InvalidInputError(f"checkpoint = {directory!r}: cannot create it: {e}") from None
    return lambda k: os.path.join(directory, f"probes-{k}")


def _finished(run, form, names, several):
    """A Reconstruction from the extension's tuple; NegativeAnswer (with the
    work as its ``reconstruction``) when it ended without an answer."""
    texts, seed, images, prime_list, probes, seconds, box_seconds, error = run
    if texts is None:
        e = NegativeAnswer(error)
        e.reconstruction = Reconstruction(None, seed, images, prime_list, probes, seconds, box_seconds)
        raise e
    if form == "sympy":
        convert = _sympify(names)
        texts = [convert(t) for t in texts]
    return Reconstruction(texts if several else texts[0], seed, images, prime_list, probes,
                          seconds, box_seconds)


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


def processes():
    """The processes of ``MatrixElement``, one dict each: ``name`` ("gg_ttgg"),
    ``madgraph`` ("g g > t t~ g g"), ``particles``, ``pdg`` (the legs' PDG
    codes, incoming first), ``colour_flows``, ``helicity_combinations``,
    ``averaging`` (MadGraph's helcolDenominator), ``me_units``, ``diagrams``,
    ``configurations`` (MadEvent's channels) and ``madevent`` (whether MadEvent
    may call it through the Fortran bridge: False for the 3-jet subprocesses,
    whose tables, and so channel numbers, are MadGraph 3.1.1's)."""
    return _hepex.processes()


class MatrixElement:
    """LO |M|^2 of a process of ``hepex.processes()`` (``process``: "gg_tt",
    "gg_ttgg", ...), summed over helicities and colours and averaged
    as MadGraph does.

    ``precision``: "double", "float" or "mixed"; ``colour_sum``: "kernel" or
    "blas"; ``simd``: the host kernel's instruction set ("auto", "none",
    "sse", "avx2", "avx512"); ``param_card``: a MadGraph param_card.dat for
    the top mass and width and alpha_s; ``run_card``: a MadGraph
    run_card.dat for the collider's s and tmin_for_channel of the channel
    weights (``evaluate``'s ``channel``).

    One object may be used from several threads (and several objects at
    once): hepex runs their evaluations one after the other.
    """

    def __init__(self, process, *, precision="double", colour_sum="kernel", simd="auto",
                 param_card=None, run_card=None):
        for name, card in (("param_card", param_card), ("run_card", run_card)):
            if card is not None and not isinstance(card, (str, os.PathLike)):
                raise InvalidInputError(f"{name} = {card!r} is not a path")
        self._me = _hepex.MatrixElement(_text(process, "process"), _text(precision, "precision"),
                                        _text(colour_sum, "colour_sum"), _text(simd, "simd"),
                                        "" if param_card is None else os.fspath(param_card),
                                        "" if run_card is None else os.fspath(run_card))

    process = property(lambda self: self._me.process)
    particles = property(lambda self: self._me.particles)
    configurations = property(lambda self: self._me.configurations,
                              doc="MadEvent's igraph runs 1..configurations")
    diagrams = property(lambda self: self._me.diagrams,
                        doc="MadEvent's channel ids run 1..diagrams (those with a configuration)")
    me_units = property(lambda self: self._me.me_units)
    good_helicities = property(lambda self: self._me.good_helicities)

    def evaluate(self, momenta, *, gs=None, rndhel=None, rndcol=None, igraph=None,
                 channel=None, tolerance=None, progress=None):
        """|M|^2 for momenta of shape (events, particles, 4): (E, px, py, pz)
        in GeV, particles in the order g g t tbar g..., checked first
        (conservation, mass shells; ``tolerance`` relaxes both).

        Per event, optionally: ``gs`` (the strong coupling), ``rndhel`` and
        ``rndcol`` (uniform in [0, 1): choose a helicity and a colour flow),
        ``igraph`` (MadEvent's configuration, with rndcol), ``channel``
        (MadEvent's channel id: |M|^2 times the channel's multichannel
        weight, docs/madevent.md; 0: none). Returns the |M|^2
        array, or ``EventResults(me, selhel, selcol)`` when rndhel or rndcol
        is given. ``progress`` as for ``rref``; the events are evaluated in
        batches, so that Ctrl-C ends a long call within a second.
        """
        if tolerance is not None:
            tolerance = _tol(tolerance)
        result = self._me.evaluate(np.asarray(momenta), gs, rndhel, rndcol, igraph, channel,
                                   0.0 if tolerance is None else tolerance, _progress(progress))
        if isinstance(result, tuple):
            return EventResults(*result)
        return result


from . import jobs  # noqa: E402,F401  (hepex.jobs: needs the helpers above)
from .spaces import FunctionSpan, RowSpace, span_of_functions  # noqa: E402,F401
