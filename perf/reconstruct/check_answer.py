#!/usr/bin/env python3
"""Checks a reconstructed rational function against its input, as the
benchmark scripts need it: both are evaluated at random points modulo a
random prime of 127 bits (different from every prime the tools use), by a
small shunting-yard evaluator (numbers, variables, + - * / ^, parentheses,
unary signs; a trailing ';' and newlines are ignored). Equal values at
several random points and primes: exact with overwhelming probability.

usage: check_answer.py INPUT_FILE ANSWER_FILE VARIABLES   (exit 0: equal)
An input of several ';'-terminated functions is checked against an answer
file of as many lines, in order.
"""
import random
import re
import sys

TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_]\w*)|(.))")


class Parser:
    """Recursive descent over the tokens; sums and products are loops, so
    only parentheses nest the recursion."""

    def __init__(self, text, values, p):
        self.tokens = [t for t in TOKEN.findall(text.replace(";", " ")) if any(t) and (t[0] or t[1] or t[2].strip())]
        self.i, self.values, self.p = 0, values, p

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else ("", "", "")

    def take(self):
        token = self.peek()
        self.i += 1
        return token

    def expr(self):
        value = self.term()
        while self.peek()[2] in ("+", "-"):
            op = self.take()[2]
            rhs = self.term()
            value = (value + rhs if op == "+" else value - rhs) % self.p
        return value

    def term(self):
        value = self.unary()
        while self.peek()[2] in ("*", "/"):
            op = self.take()[2]
            rhs = self.unary()
            if op == "*":
                value = value * rhs % self.p
            else:
                if rhs % self.p == 0:
                    raise ZeroDivisionError
                value = value * pow(rhs, -1, self.p) % self.p
        return value

    def unary(self):
        if self.peek()[2] in ("-", "+"):
            sign = self.take()[2]
            value = self.unary()
            return -value % self.p if sign == "-" else value
        return self.power()

    def power(self):
        base = self.atom()
        if self.peek()[2] != "^":
            return base
        self.take()
        exponent = self.integer()
        if exponent < 0:
            if base % self.p == 0:
                raise ZeroDivisionError
            return pow(pow(base, -1, self.p), -exponent, self.p)
        return pow(base, exponent, self.p)

    def integer(self):
        sign = 1
        while self.peek()[2] in ("-", "+"):
            sign *= -1 if self.take()[2] == "-" else 1
        if self.peek()[2] == "(":
            self.take()
            value = self.integer()
            assert self.take()[2] == ")"
            return sign * value
        number = self.take()[0]
        return sign * int(number)

    def atom(self):
        number, name, other = self.take()
        if number:
            return int(number) % self.p
        if name:
            return self.values[name] % self.p
        if other == "(":
            value = self.expr()
            assert self.take()[2] == ")", "expected ')'"
            return value
        raise ValueError(f"unexpected '{other}'")


def evaluate(text, values, p):
    """The expression mod p at the point `values` (a dict); raises
    ZeroDivisionError where it divides by zero."""
    parser = Parser(text, values, p)
    value = parser.expr()
    assert parser.i == len(parser.tokens), "trailing input"
    return value


def main():
    source, answer, variables = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3].split(",")
    # Several functions: each source expression ends with ';', each answer is a line.
    sources = [t for t in open(source).read().split(";") if t.strip()]
    answers = [l for l in answer.splitlines() if l.strip()] if len(sources) > 1 else [answer]
    if len(answers) != len(sources):
        print(f"{len(answers)} answers for {len(sources)} functions")
        return 1
    rng = random.Random(20261127)
    checked = 0
    for k, (source, answer) in enumerate(zip(sources, answers)):
        points = 0
        for _ in range(3):
            p = (1 << 126) + rng.randrange(1 << 125)
            while not all(pow(a, p - 1, p) == 1 for a in (2, 3, 5, 7, 11, 13)):
                p += 1
            values = {v: rng.randrange(p) for v in variables}
            try:
                want = evaluate(source, values, p)
            except ZeroDivisionError:
                continue
            got = evaluate(answer, values, p)
            if got != want:
                print(f"function {k + 1}: differs mod {p}: {got} != {want}")
                return 1
            points += 1
        if not points:
            print(f"function {k + 1}: undefined at every point tried")
            return 1
        checked += points
    print(f"{len(sources)} function(s) equal at {checked} random points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
