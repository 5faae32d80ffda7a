#!/usr/bin/env python3
"""NeatIBP's IBP_all.txt (a Mathematica list of equations, each a sum of
coefficient*G[i1, ..., in]) -> the Kira equation format that Ratracer's
`load-equations` reads: one term a line, `FAMILY[i1,...,in]*(coefficient)`,
equations separated by blank lines (terms of one integral in an equation
added, Mathematica's implicit multiplication by a space written as `*`).

Integral order. Ratracer eliminates in its own order (ratbox.h,
integral_is_worse): family number first (the order in which `define-family`
or the equation files introduce the families), then the number of positive
indices, then the sum of |indices|, then the indices lexicographically; the
pivot of each equation is its worst integral. It has no option for an
explicit order, so with --order ORDERED (NeatIBP's OrderedIntegrals.txt,
most complex first) every integral gets its own family, `G_r<rank>`, rank 0
the simplest (the last of ORDERED): with the families defined in rank order
(`define-family G_r0 --indices=9 define-family G_r1 ...`, written one name a
line to --families FILE) the family number is the rank and Ratracer
eliminates exactly in NeatIBP's order. Ratracer then prints integrals as
`G_r<rank>[i1,...]`; ratracer_table.py drops the `_r<rank>`. Without
--order the integrals keep their names and Ratracer's own order applies.

--targets FILE (NeatIBP's targetIntegrals.txt) writes, to --keep FILE, the
`keep-outputs` patterns `CO[TARGET,*]` that keep the coefficients of the
targets' rows out of all those `choose-equation-outputs` marks.

  python3 to_kira_equations.py IBP_all.txt OUT.eqns [--vars d,s,t]
      [--order OrderedIntegrals.txt --families families.txt]
      [--targets targetIntegrals.txt --keep keep.txt]
Prints a one-line summary to stderr. Python standard library only."""
import argparse
import re
import sys

INTEGRAL = re.compile(r"([A-Za-z]\w*)\[([^\[\]]*)\]")
IMPLICIT = re.compile(r"(?<=[0-9A-Za-z_)\]])\s+(?=[0-9A-Za-z_(])")


def split_top(text, separators):
    """Pieces of text between separators at depth 0 of (), [], {}."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and c in separators:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


def terms(eq):
    """An equation (no whitespace) -> [(sign, product text)], split at the
    binary + and - of depth 0."""
    out, depth, start, sign = [], 0, 0, 1
    for i, c in enumerate(eq):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0 and c in "+-":
            prev = eq[i - 1] if i else ""
            if prev and (prev.isalnum() or prev in ")]_"):  # binary
                out.append((sign, eq[start:i]))
                sign, start = (1 if c == "+" else -1), i + 1
            elif i == start:  # a sign in front of the product
                sign = sign if c == "+" else -sign
                start = i + 1
    out.append((sign, eq[start:]))
    flat = []
    for s, t in out:  # Mathematica's -(s*G[...]): a wrapped sum, unwrapped
        if t.startswith("(") and t.endswith(")") and closing(t, 0) == len(t) - 1:
            flat += [(s * s2, t2) for s2, t2 in terms(t[1:-1])]
        elif t:
            flat.append((s, t))
    return flat


def closing(text, i):
    """The index of the parenthesis closing the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        if depth == 0:
            return j
    return -1


def integral_name(family, indices):
    return f"{family}[{','.join(str(int(i)) for i in indices.split(','))}]"


def split_term(product, where):
    """coefficient*INTEGRAL (or INTEGRAL*coefficient, INTEGRAL/n ...) ->
    (integral name, coefficient text)."""
    found = [m for m in INTEGRAL.finditer(product)
             if product[:m.start()].count("(") == product[:m.start()].count(")")]
    if len(found) != 1:
        sys.exit(f"{where}: a term with {len(found)} integrals at its top level: {product[:200]}")
    m = found[0]
    left, right = product[:m.start()], product[m.end():]
    if left and not left.endswith("*"):
        sys.exit(f"{where}: cannot read the term {product[:200]}")
    left = left[:-1] if left else "1"
    if right and right[0] not in "*/":
        sys.exit(f"{where}: cannot read the term {product[:200]}")
    coef = left + right
    if INTEGRAL.search(coef):
        sys.exit(f"{where}: a product of integrals: {product[:200]}")
    return integral_name(m.group(1), m.group(2)), coef


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("system")
    ap.add_argument("out")
    ap.add_argument("--vars", default="d,s,t")
    ap.add_argument("--order")
    ap.add_argument("--families")
    ap.add_argument("--targets")
    ap.add_argument("--keep")
    a = ap.parse_args()
    if bool(a.order) != bool(a.families) or bool(a.targets) != bool(a.keep):
        sys.exit("--order goes with --families, --targets with --keep")
    allowed = set(a.vars.split(","))
    text = IMPLICIT.sub("*", open(a.system).read().strip())
    text = re.sub(r"\s+", "", text)
    if not (text.startswith("{") and text.endswith("}")):
        sys.exit(f"{a.system}: not a Mathematica list {{eq1, eq2, ...}}")
    equations = []
    for k, eq in enumerate(split_top(text[1:-1], ",")):
        row = {}
        for sign, product in terms(eq):
            name, coef = split_term(product, f"{a.system}: equation {k + 1}")
            bad = set(re.findall(r"[A-Za-z_]\w*", coef)) - allowed
            if bad or re.search(r"[^0-9A-Za-z_+\-*/^()]", coef):
                sys.exit(f"{a.system}: equation {k + 1}: unexpected {sorted(bad) or coef!r} in a coefficient")
            coef = f"({coef})" if sign > 0 else f"-({coef})"
            row[name] = f"{row[name]}+{coef}" if name in row else coef
        equations.append(row)
    integrals = {n for row in equations for n in row}

    rename = {n: n for n in integrals}
    if a.order:
        ordered = [integral_name(f, i) for f, i in INTEGRAL.findall(open(a.order).read())]
        if len(set(ordered)) != len(ordered):
            sys.exit(f"{a.order}: an integral appears twice")
        missing = integrals - set(ordered)
        if missing:
            sys.exit(f"{a.order}: {len(missing)} integrals of the system are missing, e.g. {sorted(missing)[0]}")
        families = []
        for rank, n in enumerate(reversed(ordered)):  # rank 0: the simplest
            family, rest = n.split("[", 1)
            families.append(f"{family}_r{rank}")
            rename[n] = f"{family}_r{rank}[{rest}"
        with open(a.families, "w") as f:
            f.write("".join(x + "\n" for x in families))
    with open(a.out, "w") as f:
        for row in equations:
            for n, coef in row.items():
                f.write(f"{rename[n]}*{coef}\n")
            f.write("\n")
    if a.targets:
        targets = [integral_name(f, i) for f, i in INTEGRAL.findall(open(a.targets).read())]
        absent = [t for t in targets if t not in integrals]
        if absent:
            sys.exit(f"{a.targets}: targets absent from the system: {absent}")
        with open(a.keep, "w") as f:
            f.write("".join(f"CO[{rename[t]},*]\n" for t in targets))
    print(f"to_kira_equations: {len(equations)} equations, {len(integrals)} integrals, "
          f"{sum(len(r) for r in equations)} terms"
          + (", NeatIBP's order as families G_r0 (simplest) .. " if a.order else ", Ratracer's own order")
          + (f"G_r{len(integrals) - 1}" if a.order else ""), file=sys.stderr)


if __name__ == "__main__":
    main()
