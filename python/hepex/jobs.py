"""Many independent jobs at once, as the ``hepex`` commands run them
(docs/distributed.md): a job per matrix file (``rref``, as ``hepex rref A
B ...``), per expression (``reconstruct``, as ``hepex reconstruct --file``)
or per RAMBO batch (``me``, as ``hepex me --batches``).

Every function takes:

* ``checkpoint``: a directory where each finished job is stored at once; a
  call killed halfway and made again with the same arguments takes the
  finished jobs from it (a directory made for other jobs is refused).
* ``schedule`` ("static": contiguous blocks per rank; "dynamic": the next
  ``chunk`` jobs on demand) and ``chunk`` (jobs run together on a rank).
* ``mpi``: False runs every job in this process; True spreads them over
  ``MPI_COMM_WORLD`` (MPI is initialised here unless the program did it,
  e.g. through mpi4py, and finalised at exit), e.g. ``mpiexec -n 4 python3
  script.py``. Each rank must make the same call; rank 0 gets every job's
  result in job order, the other ranks an empty list. The results never
  depend on the number of ranks.
"""

import os

from . import _hepex
from . import (InvalidInputError, _backend, _directory, _prime, _text, _tol, _variables,
               _whole)

__all__ = ["rref", "reconstruct", "me"]


def _run(checkpoint, schedule, chunk, mpi):
    directory = "" if checkpoint is None else _directory(checkpoint)
    schedule = _text(schedule, "schedule", ("static", "dynamic"))
    chunk = _whole(chunk, "chunk", 1, 1 << 20)
    if not isinstance(mpi, bool):
        raise InvalidInputError(f"mpi = {mpi!r}: True or False")
    return directory, schedule, chunk, mpi


def rref(paths, p=None, *, tol=1e-10, field="real", backend="auto", format="npy",
         checkpoint=None, schedule="static", chunk=1, mpi=False):
    """The RREF of each matrix file (Matrix Market, or .npy by its name) over
    Z/p (``p`` a prime below 2^63) or, with ``p=None``, floating point
    (``field`` "real" or "complex", ``tol`` as for ``hepex.rref``).

    Returns a list with a dict per file: ``rows``, ``cols``, ``rank``,
    ``pivots``, ``seconds`` and ``matrix``, the RREF as the bytes of a .npy
    file (``format="npy"``; ``numpy.load(io.BytesIO(r["matrix"]))``) or of
    Matrix Market text (``"array"``, ``"coordinate"``).
    """
    if isinstance(paths, (str, os.PathLike)):
        raise InvalidInputError(f"paths = {paths!r}: a list of matrix files")
    try:
        files = [os.fspath(x) for x in paths]
    except TypeError:
        raise InvalidInputError(f"paths = {paths!r}: a list of matrix files") from None
    p = _prime(p)
    field = _text(field, "field", ("real", "complex"))
    format = _text(format, "format", ("npy", "array", "coordinate"))
    run = _run(checkpoint, schedule, chunk, mpi)
    return _hepex.rref_jobs(files, p, _tol(tol), "" if p else field, _backend(backend), format,
                            *run)


def reconstruct(expressions, variables, *, primes=40, seed=None, max_degree=1000, threads=0,
                together=False, factored=False, checkpoint=None, schedule="static", chunk=16,
                mpi=False):
    """Each expression's rational function (as ``hepex.reconstruct``), a job
    each, or all of them as one job sharing their probes (``together``).

    Returns a list with a dict per job: ``ok``; ``functions``, the answers
    as strings (one per expression of the job); ``inputs``, the job's
    expressions as a range (first, last); ``error`` (why not, when not
    ok: more primes needed, undefined everywhere); ``seed``, ``primes``,
    ``prime_uses``, ``probes``, ``seconds``, ``black_box_seconds``. A job
    that needs more than ``primes`` primes is a result (ok False); with a
    checkpoint, a call with more primes runs only those again. ``seed`` as
    for ``hepex.reconstruct`` (None: a random one; under MPI give one, so
    that every rank has the same). ``threads``: host threads for the
    algebra (0: every core this process may run on).
    """
    if isinstance(expressions, str):
        raise InvalidInputError(f"expressions = {expressions!r}: a list of expressions")
    texts = [_text(t, f"expressions[{i}]") for i, t in enumerate(expressions)]
    if not texts:
        raise InvalidInputError("expressions = []: no expressions")
    names = _variables(variables)
    primes = _whole(primes, "primes", 1, 10000)
    max_degree = _whole(max_degree, "max_degree", 1, 100000)
    threads = _whole(threads, "threads", 0, 4096)
    for name, flag in (("together", together), ("factored", factored)):
        if not isinstance(flag, bool):
            raise InvalidInputError(f"{name} = {flag!r}: True or False")
    seed_given = seed is not None
    seed = _whole(seed, "seed") if seed_given else int.from_bytes(os.urandom(8), "little")
    _hepex.check_expressions(texts, names)  # every one before any work
    run = _run(checkpoint, schedule, chunk, mpi)
    if mpi and not seed_given:
        raise InvalidInputError("mpi=True needs a seed: every rank must draw the same primes")
    return _hepex.reconstruct_jobs(texts, names, primes, seed, seed_given, max_degree, threads,
                                   together, factored, *run)


def me(process, *, events=16384, batches=1, seed=20261122, sqrt_s=1500.0, precision="double",
       checkpoint=None, schedule="static", chunk=1, mpi=False):
    """Matrix elements of ``batches`` RAMBO batches of ``events`` events at
    ``sqrt_s`` GeV (as ``hepex me --batches``): batch b holds events
    b*events .. (b+1)*events - 1 of one RAMBO stream ``seed``.

    Returns a list with a dict per batch: ``sum`` (its MEs added in event
    order), ``mean`` and ``seconds`` (the evaluation alone).
    """
    process = _text(process, "process")
    events = _whole(events, "events", 1, 1 << 40)
    batches = _whole(batches, "batches", 1, 1 << 32)
    seed = _whole(seed, "seed")
    if isinstance(sqrt_s, bool) or not isinstance(sqrt_s, (int, float)) or not sqrt_s > 0 \
            or sqrt_s == float("inf"):
        raise InvalidInputError(f"sqrt_s = {sqrt_s!r}: a finite energy in GeV above 0")
    precision = _text(precision, "precision", ("double", "float", "mixed"))
    return _hepex.me_batches(process, events, batches, seed, float(sqrt_s), precision,
                             *_run(checkpoint, schedule, chunk, mpi))
