#!/usr/bin/env python3
"""Deterministic generator of the sparse rational-function reconstruction benchmark family.

Each function is written to <outdir>/<name>.txt:
    vars N
    num C e1 .. eN      (one line per numerator term)
    den C e1 .. eN      (one line per denominator term)
Monomials are distinct and random with exponents 0..16 per variable; coefficients are uniform
nonzero integers with |C| <= 10^6.  The denominator always holds the constant monomial;
polynomials (p*) have denominator 1.  With --expressions each function is written instead to
<outdir>/<name>.expr as one expression for `hepex reconstruct --file F --vars x1,..,xN`:
"(N)/(D)" (just "N" for a polynomial), terms as C*x1^e1*x2^e2 (zero exponents left out).  Term counts are capped at 17^N (all monomials) when
fewer monomials exist (3 variables; the 20000-term sizes are left out there).  The seed of each function depends only on its name and
--seed, so any subset regenerates identically.

usage: reconstruct_family.py OUTDIR [--seed S] [--only NAME ...] [--list] [--expressions]
"""
import argparse
import os
import random
import zlib

MAXEXP = 16
CMAX = 10**6
SIZES = [(100, 25), (1000, 250), (5000, 1250), (20000, 5000)]


def family():
    """(name, nvars, num_terms, den_terms); den_terms == 0 means a polynomial."""
    out = []
    for nv, suffix in ((6, ""), (3, "_n3"), (10, "_n10")):
        for num, den in SIZES:
            if nv == 3 and num > 5000:
                continue  # 17^3 = 4913 monomials: p20000_n3 would equal p5000_n3
            out.append((f"p{num}{suffix}", nv, num, 0))
            out.append((f"r{num}_{den}{suffix}", nv, num, den))
    return out


def coeff(rng):
    c = rng.randint(1, CMAX)
    return c if rng.random() < 0.5 else -c


def exps(index, nv):
    e = []
    for _ in range(nv):
        index, r = divmod(index, MAXEXP + 1)
        e.append(r)
    return e


def generate(name, nv, num, den, seed):
    rng = random.Random(seed * 1000003 + zlib.crc32(name.encode()))
    total = (MAXEXP + 1) ** nv
    num = min(num, total)
    lines = [f"vars {nv}"]
    for idx in rng.sample(range(total), num):
        lines.append(" ".join(map(str, ["num", coeff(rng)] + exps(idx, nv))))
    if den == 0:
        lines.append(" ".join(["den", "1"] + ["0"] * nv))
    else:
        den = min(den, total)
        # constant monomial (index 0) plus den-1 distinct non-constant monomials
        for idx in [0] + [i + 1 for i in rng.sample(range(total - 1), den - 1)]:
            lines.append(" ".join(map(str, ["den", coeff(rng)] + exps(idx, nv))))
    return "\n".join(lines) + "\n"


def as_expression(text):
    """The generate() table as one expression line (see the module docstring)."""
    rows = [line.split() for line in text.splitlines()[1:]]

    def poly(kind):
        terms = []
        for row in rows:
            if row[0] != kind:
                continue
            factors = [row[1]] + [f"x{i + 1}" + (f"^{e}" if e != "1" else "")
                                  for i, e in enumerate(row[2:]) if e != "0"]
            terms.append("*".join(factors))
        return " + ".join(terms).replace("+ -", "- ")

    num, den = poly("num"), poly("den")
    return (num if den == "1" else f"({num})/({den})") + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--only", nargs="*", help="generate only these names")
    ap.add_argument("--list", action="store_true", help="print the family names and exit")
    ap.add_argument("--expressions", action="store_true",
                    help="write NAME.expr (one expression for hepex reconstruct) instead of NAME.txt")
    a = ap.parse_args()
    fam = [f for f in family() if not a.only or f[0] in a.only]
    if a.list:
        for f in fam:
            print(f[0])
        return
    if not a.outdir:
        ap.error("OUTDIR required")
    os.makedirs(a.outdir, exist_ok=True)
    for name, nv, num, den in fam:
        text = generate(name, nv, num, den, a.seed)
        if a.expressions:
            with open(os.path.join(a.outdir, name + ".expr"), "w") as fh:
                fh.write(as_expression(text))
        else:
            with open(os.path.join(a.outdir, name + ".txt"), "w") as fh:
                fh.write(text)


if __name__ == "__main__":
    main()
