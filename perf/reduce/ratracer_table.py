#!/usr/bin/env python3
"""Ratracer's reduction table (`reconstruct --to=FILE` after
`choose-equation-outputs`: entries `CO[I0,Ii] =\\n  COEF;`, the equation
-I0 + sum_i Ii*C_i = 0, so I0 = sum_i C_i*Ii) -> hepex's table format, one
target a line: `TARGET -> (c1)*MASTER1 + (c2)*MASTER2 + ...` (`TARGET -> 0`
for a target without terms; a target listed in --masters: `(1)*TARGET`).
Integral names lose the per-integral family rank of to_kira_equations.py
(`G_r123[...]` -> `G[...]`); coefficients are FireFly's rational functions as
printed (`^` powers, rationals like 1/2), wrapped in parentheses.

  python3 ratracer_table.py RAW TABLE --targets targetIntegrals.txt
      [--masters MI_all.txt] [--compare HEPEX_TABLE --vars d,s,t [--points 3]]

--compare: a quick check of the two tables (no hepex code): the same
masters per target, and every coefficient equal at random rational points
(Python Fractions, exact). Prints one JSON line (targets, masters, and with
--compare `agree`); exit 1 when the tables differ. Python standard library
only."""
import argparse
import json
import random
import re
import sys
from fractions import Fraction

INTEGRAL = re.compile(r"([A-Za-z]\w*?)(?:_r\d+)?\[([^\[\]]*)\]")
ENTRY = re.compile(r"CO\[(.*?\]),(.*?\])\]\s*=\s*(.*?);", re.S)


def name(family, indices):
    return f"{family}[{','.join(str(int(i)) for i in indices.split(','))}]"


def canonical(text):
    m = INTEGRAL.fullmatch(text.strip())
    if not m:
        sys.exit(f"cannot read the integral {text!r}")
    return name(m.group(1), m.group(2))


def split_top(text, separator):
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0 and text.startswith(separator, i):
            out.append(text[start:i])
            start = i + len(separator)
    out.append(text[start:])
    return out


def read_hepex(path):
    """hepex's table -> {target: {master: coefficient text}}."""
    table = {}
    for line in open(path):
        if not line.strip():
            continue
        target, rhs = line.rstrip("\n").split(" -> ")
        row = table.setdefault(target.strip(), {})
        if rhs.strip() == "0":
            continue
        for term in split_top(rhs, " + "):
            coefficient, master = term.strip().rsplit(")*", 1)
            row[master.strip()] = coefficient.strip()[1:]
    return table


def evaluate(text, point):
    code = re.sub(r"(?<![A-Za-z_\d])(\d+)", r"F(\1)", text.replace("^", "**"))
    code = code.replace("**F(", "**(")
    return eval(code, {"F": Fraction, "__builtins__": {}}, point)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("raw")
    ap.add_argument("table")
    ap.add_argument("--targets", required=True)
    ap.add_argument("--masters")
    ap.add_argument("--compare")
    ap.add_argument("--vars", default="d,s,t")
    ap.add_argument("--points", type=int, default=3)
    a = ap.parse_args()
    targets = [name(f, i) for f, i in INTEGRAL.findall(open(a.targets).read())]
    given = set()
    if a.masters:
        given = {name(f, i) for f, i in INTEGRAL.findall(open(a.masters).read())}
    ours = {t: {} for t in targets}
    for target, master, coef in ENTRY.findall(open(a.raw).read()):
        target, master = canonical(target), canonical(master)
        if target not in ours:
            sys.exit(f"{a.raw}: {target} is not a target")
        ours[target][master] = re.sub(r"\s+", "", coef)
    with open(a.table, "w") as f:
        for t in targets:
            row = ours[t] or ({t: "1"} if t in given else {})
            rhs = " + ".join(f"({c})*{m}" for m, c in row.items()) or "0"
            f.write(f"{t} -> {rhs}\n")
    masters = sorted({m for row in ours.values() for m in row})
    out = {"targets": len(targets), "masters": masters}
    if a.masters:
        out["same_masters"] = set(masters) <= given
    if a.compare:
        theirs = read_hepex(a.compare)
        rng = random.Random(1)
        names = a.vars.split(",")
        agree, why = True, ""
        for t in targets:
            if set(ours[t]) != set(theirs.get(t, {})):
                agree, why = False, f"{t}: masters {sorted(ours[t])} vs {sorted(theirs.get(t, {}))}"
                break
        for _ in range(a.points if agree else 0):
            point = {n: Fraction(rng.randrange(1, 10**6), rng.randrange(1, 10**6)) for n in names}
            for t in targets:
                for m, c in ours[t].items():
                    x, y = evaluate(c, point), evaluate(theirs[t][m], point)
                    if x != y:
                        agree, why = False, f"{t} {m}: {x} vs {y} at {point}"
                        break
                if not agree:
                    break
        out.update(agree=agree, compared_points=a.points if agree else 0)
        if why:
            out["difference"] = why
    print(json.dumps(out))
    if a.compare and not out["agree"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
