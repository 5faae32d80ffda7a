#!/usr/bin/env python3
"""The IBP system of the massless one-loop bubble
B[a1, a2] = int d^dk / ((k^2)^a1 ((k+p)^2)^a2), p^2 = s, as a Mathematica
list (the input of `hepex reduce`), from the two identities
  d/dk . k       : (d - 2 a1 - a2) B[a1,a2] - a2 B[a1-1,a2+1] + a2 s B[a1,a2+1] = 0
  d/dk . (k + p) : (d - a1 - 2 a2) B[a1,a2] - a1 B[a1+1,a2-1] + a1 s B[a1+1,a2] = 0
seeded with 1 <= a1, a2 <= N; integrals with an index <= 0 are scaleless
(zero) and left out. The one master is B[1,1].
  python3 perf/reduce/bubble_system.py N > system.m"""
import sys


def term(coefficient, a1, a2):
    if a1 <= 0 or a2 <= 0:
        return None
    return f"({coefficient})*B[{a1}, {a2}]"


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    equations = []
    for a1 in range(1, n + 1):
        for a2 in range(1, n + 1):
            for terms in (
                [term(f"d - {2 * a1 + a2}", a1, a2), term(f"-{a2}", a1 - 1, a2 + 1),
                 term(f"{a2}*s", a1, a2 + 1)],
                [term(f"d - {a1 + 2 * a2}", a1, a2), term(f"-{a1}", a1 + 1, a2 - 1),
                 term(f"{a1}*s", a1 + 1, a2)],
            ):
                kept = [t for t in terms if t]
                if kept:
                    equations.append(" + ".join(kept))
    print("{" + ",\n ".join(equations) + "}")


if __name__ == "__main__":
    main()
