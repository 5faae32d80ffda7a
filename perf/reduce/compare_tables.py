#!/usr/bin/env python3
"""Says whether two reduction tables are the same reduction: the format of
`hepex reduce --out` (and of finiteflow_reduce_driver), one target a line,
    TARGET -> (c1)*MASTER1 + (c2)*MASTER2 + ...      or   TARGET -> 0
with coefficients rational functions of the parameters (^ for powers). Same
targets, same masters (the union over the table), and for every target and
master equal coefficients (a missing term is a zero coefficient); the order
of lines and of terms does not matter, nor how a coefficient is written.

Coefficients are compared exactly with sympy (cancel(a - b) == 0) when
`import sympy` works, else (or with --numeric) by evaluating both sides
exactly with Python's Fractions at POINTS random rational points (points
where a denominator vanishes are skipped): a wrong coefficient agrees at a
random point with probability about degree / 2^31, so a handful of points
already settles it.
  python3 compare_tables.py TABLE_A TABLE_B [--numeric] [--points N] [--seed S]
Prints a summary; exit 0 if the tables are equal, 1 if not (or unreadable)."""
import random
import re
import sys
from fractions import Fraction

NAME = re.compile(r"[A-Za-z_]\w*\[[^\]]*\]")


def norm(name):
    family, inside = name.split("[", 1)
    return f"{family}[{','.join(str(int(i)) for i in inside.rstrip(']').split(','))}]"


def parse_rhs(rhs, where):
    """{master: coefficient string} of `(c1)*M1 + (c2)*M2 ...` or `0`."""
    rhs = rhs.strip()
    out = {}
    if rhs == "0":
        return out
    i, n = 0, len(rhs)
    while i < n:
        while i < n and rhs[i] in " +":
            i += 1
        if i >= n:
            break
        if rhs[i] != "(":
            raise ValueError(f"{where}: expected '(' at column {i}: {rhs[i:i + 30]!r}")
        depth, j = 0, i
        while True:
            if j >= n:
                raise ValueError(f"{where}: unbalanced parentheses")
            depth += {"(": 1, ")": -1}.get(rhs[j], 0)
            if depth == 0:
                break
            j += 1
        coef = rhs[i + 1:j]
        m = re.compile(r"\s*\*\s*(" + NAME.pattern + ")").match(rhs, j + 1)
        if not m:
            raise ValueError(f"{where}: expected '*MASTER' after a coefficient")
        master = norm(m.group(1))
        if master in out:
            out[master] = f"({out[master]}) + ({coef})"
        else:
            out[master] = coef
        i = m.end()
    return out


def read_table(path):
    table = {}
    for k, line in enumerate(open(path), 1):
        if not line.strip():
            continue
        if " -> " not in line:
            raise ValueError(f"{path}:{k}: no ' -> '")
        target, rhs = line.split(" -> ", 1)
        target = norm(target.strip())
        if target in table:
            raise ValueError(f"{path}:{k}: target {target} twice")
        table[target] = parse_rhs(rhs, f"{path}:{k}")
    return table


def symbols_of(texts):
    names = set()
    for t in texts:
        names.update(re.findall(r"[A-Za-z_]\w*", t))
    return sorted(names)


class Numeric:
    """Exact evaluation at random rational points."""

    def __init__(self, variables, points, seed):
        rng = random.Random(seed)
        self.points = [{v: Fraction(rng.randrange(1, 2**31), rng.randrange(1, 2**31))
                        for v in variables} for _ in range(points)]
        self.cache = {}

    def compile(self, text):
        if text not in self.cache:
            code = re.sub(r"(?<![A-Za-z_\d])(\d+)", r"F(\1)", text.replace("^", "**"))
            code = re.sub(r"\*\*F\((\d+)\)", r"**\1", code)  # integer exponents
            self.cache[text] = compile(code, "<coefficient>", "eval")
        return self.cache[text]

    def equal(self, a, b):
        ca, cb = self.compile(a), self.compile(b)
        used = 0
        for p in self.points:
            scope = dict(p, F=Fraction)
            try:
                va, vb = eval(ca, scope), eval(cb, scope)
            except ZeroDivisionError:
                continue
            used += 1
            if va != vb:
                return False
        if used == 0:
            raise ValueError("every point hit a pole")
        return True


class Exact:
    def __init__(self, sympy, variables):
        self.sympy = sympy
        self.locals = {v: sympy.Symbol(v) for v in variables}

    def expr(self, text):
        return self.sympy.sympify(text.replace("^", "**"), locals=self.locals)

    def equal(self, a, b):
        return self.sympy.cancel(self.expr(a) - self.expr(b)) == 0


def main():
    args = sys.argv[1:]
    numeric = "--numeric" in args
    points, seed = 20, 1
    files = []
    i = 0
    while i < len(args):
        if args[i] == "--numeric":
            pass
        elif args[i] == "--points":
            points, i = int(args[i + 1]), i + 1
        elif args[i] == "--seed":
            seed, i = int(args[i + 1]), i + 1
        else:
            files.append(args[i])
        i += 1
    if len(files) != 2:
        sys.exit(__doc__)
    try:
        a, b = read_table(files[0]), read_table(files[1])
    except (OSError, ValueError) as e:
        sys.exit(f"[compare_tables] cannot read the tables: {e}")  # exit 1

    problems = []
    if set(a) != set(b):
        problems.append(f"targets differ: only in A {sorted(set(a) - set(b))}, "
                        f"only in B {sorted(set(b) - set(a))}")
    masters_a = set().union(*a.values()) if a else set()
    masters_b = set().union(*b.values()) if b else set()
    if masters_a != masters_b:
        problems.append(f"masters differ: only in A {sorted(masters_a - masters_b)}, "
                        f"only in B {sorted(masters_b - masters_a)}")
    texts = [c for t in (a, b) for row in t.values() for c in row.values()]
    variables = symbols_of(texts)
    method = None
    if not numeric:
        try:
            import sympy
            checker, method = Exact(sympy, variables), f"exact (sympy {sympy.__version__})"
        except ImportError:
            pass
    if method is None:
        checker = Numeric(variables, points, seed)
        method = f"numeric ({points} random rational points, seed {seed})"
    compared = 0
    for target in sorted(set(a) & set(b)):
        for master in sorted(set(a[target]) | set(b[target])):
            ca, cb = a[target].get(master, "0"), b[target].get(master, "0")
            compared += 1
            if not checker.equal(ca, cb):
                problems.append(f"{target}: coefficient of {master} differs")
    print(f"[compare_tables] {files[0]} vs {files[1]}: {len(a)} / {len(b)} targets, "
          f"{len(masters_a)} / {len(masters_b)} masters, {compared} coefficients compared, "
          f"variables {','.join(variables)}, {method}")
    for p in problems:
        print(f"  MISMATCH {p}")
    print("[compare_tables] " + ("EQUAL" if not problems else f"DIFFERENT ({len(problems)} problems)"))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
