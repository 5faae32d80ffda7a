#!/usr/bin/env python3
"""Converts an IBP system as NeatIBP writes it (a Mathematica list of
expressions, each linear in integrals F[i1,...,in] with coefficients that are
polynomials in the parameters, e.g. examples/dbox/outputs/dbox/results/
IBP_all.txt) into the plain integer-indexed text read by
perf/reduce/finiteflow_reduce_driver.cpp. Python standard library only: the
expressions are parsed here (+ - * / ^, parentheses, Mathematica's implicit
multiplication by juxtaposition, an optional `lhs == rhs`) and expanded into
sparse polynomials with Fraction coefficients.

  python3 to_finiteflow_input.py SYSTEM ORDER TARGETS VARS OUT
    SYSTEM   the Mathematica list of equations (each expression = 0)
    ORDER    the integrals, most complex first (NeatIBP's OrderedIntegrals.txt);
             unknown k of the FiniteFlow system is the k-th integral here, so
             the most complex are eliminated first and the simplest are left
             as masters, as FiniteFlow's sparse solver wants its unknowns
             ordered. Integrals of SYSTEM missing from ORDER are put first
             (a warning on stderr).
    TARGETS  the integrals to reduce (a Mathematica list)
    VARS     the parameters, comma separated (d,s,t)
    OUT      the output file

Output (whitespace separated; one record a line):
  ffreduce 1
  vars N v1 ... vN
  unknowns U            then U lines: the integral's name (index = line no.)
  targets T             then one line: T unknown indices
  equations E           then E lines, each
      K  col_1 m_1 c e_1..e_N c e_1..e_N ...  col_2 m_2 ...  ...
    K non-zero entries, columns ascending; entry = column (unknown index),
    m terms of its polynomial coefficient, each a rational c ("p" or "p/q")
    and N exponents. Equations that vanish identically are dropped.
A summary goes to stderr."""
import re
import sys
from fractions import Fraction


# ---------------------------------------------------------------- algebra
class Lin:
    """A linear form in integrals with polynomial coefficients: a dict from
    integral index (None for the integral-free part) to a polynomial, a dict
    from exponent tuples to non-zero Fractions."""

    __slots__ = ("terms",)

    def __init__(self, terms=None):
        self.terms = terms or {}

    @staticmethod
    def const(value, nvars):
        value = Fraction(value)
        return Lin({None: {(0,) * nvars: value}} if value else {})

    @staticmethod
    def var(k, nvars):
        exps = [0] * nvars
        exps[k] = 1
        return Lin({None: {tuple(exps): Fraction(1)}})

    @staticmethod
    def integral(index, nvars):
        return Lin({index: {(0,) * nvars: Fraction(1)}})

    def scalar(self):
        """The polynomial if integral-free, else None."""
        if any(k is not None for k in self.terms):
            return None
        return self.terms.get(None, {})

    def __add__(self, other):
        out = {k: dict(p) for k, p in self.terms.items()}
        for k, p in other.terms.items():
            q = out.setdefault(k, {})
            for e, c in p.items():
                c = q.get(e, 0) + c
                if c:
                    q[e] = c
                else:
                    q.pop(e, None)
            if not q:
                del out[k]
        return Lin(out)

    def __neg__(self):
        return Lin({k: {e: -c for e, c in p.items()} for k, p in self.terms.items()})

    def __sub__(self, other):
        return self + (-other)

    def __mul__(self, other):
        a, b = self.scalar(), other.scalar()
        if a is None and b is None:
            raise ValueError("product of two integrals: the system is not linear")
        if a is None:
            a, b, self, other = b, a, other, self
        # a: polynomial of self (integral-free); multiply each of other's.
        out = {}
        for k, p in other.terms.items():
            q = {}
            for e1, c1 in a.items():
                for e2, c2 in p.items():
                    e = tuple(x + y for x, y in zip(e1, e2))
                    c = q.get(e, 0) + c1 * c2
                    if c:
                        q[e] = c
                    else:
                        q.pop(e, None)
            if q:
                out[k] = q
        return Lin(out)

    def __truediv__(self, other):
        b = other.scalar()
        if b is None or len(b) != 1 or any(next(iter(b))):
            raise ValueError("division by a non-constant: coefficients must be polynomials")
        c = next(iter(b.values()))
        return Lin({k: {e: v / c for e, v in p.items()} for k, p in self.terms.items()})

    def __pow__(self, n):
        if self.scalar() is None:
            raise ValueError("power of an integral")
        if n < 0:
            raise ValueError("negative power: coefficients must be polynomials")
        nvars = None
        for e in self.terms.get(None, {}):
            nvars = len(e)
        result = Lin({None: {(0,) * (nvars or 0): Fraction(1)}}) if nvars is not None else None
        if result is None:  # 0^n
            return Lin({}) if n else Lin.const(1, 0)
        for _ in range(n):
            result = result * self
        return result


# ---------------------------------------------------------------- parser
TOKEN = re.compile(r"\s*(?:(?P<int>[A-Za-z]\w*\[[^\]]*\])|(?P<num>\d+)|(?P<id>[A-Za-z]\w*)"
                   r"|(?P<op>==|[-+*/^(){},]))")


def tokenize(text):
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"cannot parse near: {text[pos:pos + 40]!r}")
        pos = m.end()
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
    return out


def integral_name(token):
    family, inside = token.split("[", 1)
    indices = inside.rstrip("]").split(",")
    return f"{family}[{','.join(str(int(i)) for i in indices)}]"


class Parser:
    def __init__(self, tokens, variables, index_of):
        self.t, self.i = tokens, 0
        self.vars = {v: k for k, v in enumerate(variables)}
        self.nvars = len(variables)
        self.index_of = index_of  # integral name -> index (may grow)

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else (None, None)

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise ValueError(f"expected {value!r}, got {tok[1]!r} (token {self.i})")
        self.i += 1
        return tok

    def parse_list(self):
        self.take("{")
        items = []
        if self.peek()[1] != "}":
            items.append(self.equation())
            while self.peek()[1] == ",":
                self.take(",")
                items.append(self.equation())
        self.take("}")
        if self.i != len(self.t):
            raise ValueError("trailing text after the list")
        return items

    def equation(self):
        lhs = self.expr()
        if self.peek()[1] == "==":
            self.take("==")
            return lhs - self.expr()
        return lhs

    def expr(self):
        out = self.term()
        while self.peek()[1] in ("+", "-"):
            op = self.take()[1]
            rhs = self.term()
            out = out + rhs if op == "+" else out - rhs
        return out

    def term(self):
        out = self.unary()
        while True:
            kind, value = self.peek()
            if value in ("*", "/"):
                self.take()
                rhs = self.unary()
                out = out * rhs if value == "*" else out / rhs
            elif kind in ("int", "num", "id") or value == "(":  # juxtaposition
                out = out * self.unary()
            else:
                return out

    def unary(self):
        value = self.peek()[1]
        if value == "-":
            self.take()
            return -self.unary()
        if value == "+":
            self.take()
            return self.unary()
        return self.power()

    def power(self):
        base = self.atom()
        if self.peek()[1] == "^":
            self.take()
            sign = 1
            while self.peek()[1] in ("-", "+"):
                sign *= -1 if self.take()[1] == "-" else 1
            kind, value = self.take()
            if kind != "num":
                raise ValueError("only integer exponents are supported")
            return base ** (sign * int(value))
        return base

    def atom(self):
        kind, value = self.take()
        if kind == "num":
            return Lin.const(int(value), self.nvars)
        if kind == "id":
            if value not in self.vars:
                raise ValueError(f"unknown symbol {value!r} (parameters: {list(self.vars)})")
            return Lin.var(self.vars[value], self.nvars)
        if kind == "int":
            name = integral_name(value)
            if name not in self.index_of:
                self.index_of[name] = len(self.index_of)
            return Lin.integral(self.index_of[name], self.nvars)
        if value == "(":
            out = self.expr()
            self.take(")")
            return out
        raise ValueError(f"unexpected token {value!r}")


def integrals_of(path):
    return [integral_name(m) for m in re.findall(r"[A-Za-z]\w*\[[^\]]*\]", open(path).read())]


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    system, order_path, targets_path, vars_arg, out_path = sys.argv[1:]
    variables = [v.strip() for v in vars_arg.split(",") if v.strip()]
    seen = {}  # integral name -> parse-time id
    eqs = Parser(tokenize(open(system).read()), variables, seen).parse_list()

    order = integrals_of(order_path)
    if len(set(order)) != len(order):
        sys.exit("ORDER lists an integral twice")
    missing = [n for n in seen if n not in set(order)]
    if missing:
        print(f"warning: {len(missing)} integrals of the system are not in ORDER; "
              "they are put first (eliminated first)", file=sys.stderr)
    names = missing + [n for n in order]
    column = {n: k for k, n in enumerate(names)}
    remap = {pid: column[n] for n, pid in seen.items()}
    targets = integrals_of(targets_path)
    for t in targets:
        if t not in column:
            sys.exit(f"target {t} is neither in the system nor in ORDER")

    rows = []
    for eq in eqs:
        if None in eq.terms:
            sys.exit("an equation has a term without an integral (inhomogeneous)")
        row = sorted((remap[k], p) for k, p in eq.terms.items())
        if row:
            rows.append(row)

    def rat(c):
        return str(c.numerator) if c.denominator == 1 else f"{c.numerator}/{c.denominator}"

    with open(out_path, "w") as out:
        out.write("ffreduce 1\n")
        out.write(f"vars {len(variables)} {' '.join(variables)}\n")
        out.write(f"unknowns {len(names)}\n")
        out.writelines(n + "\n" for n in names)
        out.write(f"targets {len(targets)}\n{' '.join(str(column[t]) for t in targets)}\n")
        out.write(f"equations {len(rows)}\n")
        for row in rows:
            parts = [str(len(row))]
            for col, poly in row:
                parts += [str(col), str(len(poly))]
                for e, c in sorted(poly.items()):
                    parts.append(rat(c))
                    parts += [str(x) for x in e]
            out.write(" ".join(parts) + "\n")
    entries = sum(len(r) for r in rows)
    print(f"[to_finiteflow_input] {len(rows)} equations ({len(eqs) - len(rows)} empty dropped), "
          f"{len(names)} unknowns, {entries} non-zero entries, {len(targets)} targets, "
          f"vars {','.join(variables)}", file=sys.stderr)


if __name__ == "__main__":
    main()
