#!/usr/bin/env python3
"""An independent check of a `hepex reduce` table: at random points modulo a
random prime, the system (a Mathematica list, as NeatIBP writes it) is solved
by a plain sparse Gaussian elimination written here (no hepex code), in the
given integral order, each target reduced to the table's masters; the
table's coefficients (evaluated exactly with Python's Fractions) must give
the same values.
  python3 perf/reduce/check_table.py SYSTEM ORDER TABLE VARS [POINTS]
VARS: comma separated (d,s,t). Exit 1 on a mismatch."""
import random
import re
import sys
from fractions import Fraction

INTEGRAL = re.compile(r"([A-Za-z]\w*)\[([^\]]*)\]")


def name(family, indices):
    return f"{family}[{','.join(str(int(i)) for i in indices.split(','))}]"


def split_top(text, separators):
    """Pieces of text at depth 0 (parentheses, brackets, braces)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and c in separators:
            out.append(text[start:i])
            start = i
    out.append(text[start:])
    return out


def evaluator(text):
    """A compiled expression over Fractions: ^ as **, integers as Fractions."""
    code = re.sub(r"(?<![A-Za-z_\d])(\d+)", r"F(\1)", text.strip().replace("^", "**"))
    code = code.replace("**F(", "**(")  # exponents stay integers
    return compile(code, "<coefficient>", "eval")


def equations(text):
    """Each equation as (integral names, compiled equation with the
    integrals as I0, I1, ...): linear in them, so the coefficient of I_k is
    its value with I_k = 1 and the others 0."""
    body = text.strip()
    assert body[0] == "{" and body[-1] == "}"
    eqs = []
    for raw in split_top(body[1:-1], ","):
        raw = raw.lstrip(",")
        names = {}

        def placeholder(m):
            key = name(m.group(1), m.group(2))
            names.setdefault(key, f"I{len(names)}")
            return names[key]

        code = evaluator(INTEGRAL.sub(placeholder, raw))  # fills `names`
        eqs.append((list(names), code))
    return eqs


def residue(q, p):
    return q.numerator * pow(q.denominator, -1, p) % p


def solve_mod(eqs, order, point, p, targets, masters):
    """Targets as masters mod p: sparse elimination, most complex first."""
    column = {n: k for k, n in enumerate(order)}
    pivots = {}  # column -> row {column: value}, leading 1
    for names, code in eqs:
        scope = dict(point, F=Fraction)
        zero = {f"I{k}": Fraction(0) for k in range(len(names))}
        base = eval(code, scope, dict(zero))
        assert base == 0, "an equation with a term without an integral"
        row = {}
        for k, n in enumerate(names):
            value = eval(code, scope, dict(zero, **{f"I{k}": Fraction(1)}))
            row[column[n]] = (row.get(column[n], 0) + residue(value, p)) % p
        row = {k: v for k, v in row.items() if v}
        while row:
            lead = min(row)
            if lead not in pivots:
                inv = pow(row[lead], -1, p)
                pivots[lead] = {k: v * inv % p for k, v in row.items()}
                break
            factor = row[lead]
            for k, v in pivots[lead].items():
                row[k] = (row.get(k, 0) - factor * v) % p
            row = {k: v for k, v in row.items() if v}
    out = {}
    for t in targets:
        c = column[t]
        if c not in pivots:
            out[t] = {t: 1}
            continue
        row = dict(pivots[c])
        while True:
            others = [k for k in row if k != c and k in pivots]
            if not others:
                break
            k = min(others)  # most complex first: only simpler columns come in
            factor = row[k]
            for j, v in pivots[k].items():
                row[j] = (row.get(j, 0) - factor * v) % p
            row = {j: v for j, v in row.items() if v}
        out[t] = {order[k]: (-v) % p for k, v in row.items() if k != c}
        assert set(out[t]) <= set(masters), (t, set(out[t]) - set(masters))
    return out


def main():
    system, order_file, table_file, variables = sys.argv[1:5]
    points = int(sys.argv[5]) if len(sys.argv) > 5 else 2
    names = variables.split(",")
    eqs = equations(open(system).read())
    order = [name(f, i) for f, i in INTEGRAL.findall(open(order_file).read())]
    table, masters = {}, set()
    for line in open(table_file):
        target, rhs = line.rstrip("\n").split(" -> ")
        table[target] = {}
        if rhs == "0":
            continue
        for term in split_top(rhs, "+"):
            term = term.strip().lstrip("+").strip()
            coefficient, master = term.rsplit(")*", 1)
            table[target][master] = evaluator(coefficient[1:])
            masters.add(master)
    rng = random.Random(1)
    p = 2305843009213693951  # 2^61 - 1
    for _ in range(points):
        point = {n: Fraction(rng.randrange(1, 10**6), rng.randrange(1, 10**6)) for n in names}
        want = solve_mod(eqs, order, point, p, list(table), masters)
        for target, row in table.items():
            got = {m: residue(eval(code, dict(point, F=Fraction)), p) for m, code in row.items()}
            got = {m: v for m, v in got.items() if v}
            if got != want[target]:
                sys.exit(f"{target}: the table gives {got}, the elimination {want[target]} at {point} mod {p}")
    print(f"check_table: {len(table)} targets, {len(masters)} masters, {len(eqs)} equations: "
          f"the table agrees at {points} random points mod {p}")


if __name__ == "__main__":
    main()
