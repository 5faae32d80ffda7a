#!/usr/bin/env python3
"""An IBP-shaped reconstruction job: 200 rational functions of (s, t, d, m)
from one black box, as the coefficients of an IBP reduction come. Their
denominators are products of s, t, s + t, d - 4, 2d - 7, s + m and
s t - m^2 (some squared) times a cofactor, so most have no constant term; a
quarter of the numerators have coefficients of 20-30 digits (three primes).

  ibp_shaped.py write FILE [--seed S] [--count N]   the functions, each ended by ';'
  ibp_shaped.py hepex FILE ANSWERS                  hepex.reconstruct(..., together=True)
                                                    through the Python API; one JSON line
"""
import json
import math
import random
import sys
import time

FACTORS = ["s", "t", "(s + t)", "(d - 4)", "(2*d - 7)", "(s + m)", "(s*t - m^2)"]
VARIABLES = ["s", "t", "d", "m"]


def polynomial(rng, terms, degree, big):
    terms = min(terms, math.comb(degree + 4, 4) // 2)  # well within the monomials there are
    monomials = set()
    while len(monomials) < terms:
        e = [0, 0, 0, 0]
        for _ in range(rng.randrange(degree + 1)):
            e[rng.randrange(4)] += 1
        monomials.add(tuple(e))
    out = []
    for e in sorted(monomials):
        c = rng.randrange(10**20, 10**30) if big else rng.randrange(1, 60)
        c = -c if rng.random() < 0.5 else c
        factors = [f"{v}^{k}" if k > 1 else v for v, k in zip(VARIABLES, e) if k]
        out.append("*".join([str(c)] + factors))
    return " + ".join(out).replace("+ -", "- ")


def write(path, seed=20261127, count=200):
    rng = random.Random(seed)
    with open(path, "w") as f:
        for k in range(count):
            big = k % 4 == 3 and k < 4 * 56
            num = polynomial(rng, rng.randrange(3, 25), rng.randrange(2, 7), big)
            den = [rng.choice(FACTORS) + ("^2" if rng.random() < 0.25 else "")
                   for _ in range(rng.randrange(2, 5))]
            den.append("(" + polynomial(rng, rng.randrange(1, 4), 2, False) + ")")
            f.write(f"({num})/({'*'.join(den)});\n")


def run_hepex(path, answers):
    import hepex
    texts = [t.strip() for t in open(path).read().split(";") if t.strip()]
    start = time.monotonic()
    r = hepex.reconstruct(texts, VARIABLES, together=True, stats=True)
    seconds = time.monotonic() - start
    with open(answers, "w") as out:
        out.write("\n".join(r.result) + "\n")
    print(json.dumps({"function": "ibp200", "tool": "hepex", "seconds": seconds,
                      "probes": r.probes, "primes": r.primes,
                      "prime_probes": [p for _, _, p in r.prime_list]}))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        args = sys.argv[3:]
        seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 20261127
        count = int(args[args.index("--count") + 1]) if "--count" in args else 200
        write(sys.argv[2], seed, count)
    elif sys.argv[1] == "hepex":
        run_hepex(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
