#!/usr/bin/env python3
"""Laporta IBP-system generator: integration-by-parts identities of a family
of Feynman integrals, seeded over a range of indices, written as the input of
`hepex reduce` (and of the anchors: FiniteFlow through to_finiteflow_input.py,
Ratracer through Kira's equation format).

References: K. G. Chetyrkin, F. V. Tkachov, Nucl. Phys. B192 (1981) 159
(integration by parts); S. Laporta, Int. J. Mod. Phys. A15 (2000) 5087,
hep-ph/0102033 (seeding the identities over integer indices and solving the
system in a fixed order of integrals); the zero-sector criterion of
R. N. Lee's LiteRed (arXiv:1212.2685), in the form with G = U + F of
R. N. Lee, A. A. Pomeransky, arXiv:1308.6676 ("zero_sectors": "auto").

Usage
  /usr/bin/python3 perf/reduce/laporta_generator.py FAMILY.json
      [--r R] [--s S] [--sectors top|subsectors]
      [--target-r R] [--target-s S] [--target-sectors top|seeded]
      [--symmetries]
      [--mathematica SYSTEM.m] [--kira SYSTEM.kira] [--order ORDER.txt]
      [--targets TARGETS.txt] [--quiet]
  prints a JSON summary (equations, integrals, targets, seconds) on stdout.

The family (JSON; examples in perf/reduce/families/)
  name             the integrals' head, "G" -> G[n1,...,nN]
  loop_momenta     ["k1", "k2"]
  external_momenta the independent ones, ["p1", "p2", "p4"]
  propagators      N entries, a momentum "k1+p1" (meaning (k1+p1)^2) or
                   {"momentum": "k1+p1", "mass2": "m2"} ((k1+p1)^2 - m2).
                   They must form a basis of the loop-dependent scalar
                   products (k_i.k_j, k_i.p_e) and constants: add
                   irreducible numerators as needed.
  kinematics       {"p1.p2": "s/2", ...}: every p_e.p_f, e <= f, a
                   polynomial in the parameters ("p1*p2" also accepted)
  parameters       ["d", "s", "t"]; "dimension" names d (default "d")
  top_sector       [1,1,1,1,1,1,1,0,0]: the propagators of the top sector
  seeds            {"r": R, "s": S, "sectors": "subsectors"} (defaults of
                   --r, --s, --sectors)
  targets          {"r": R, "s": S} (defaults of --target-r, --target-s)
  zero_sectors     "auto" (default: Lee's criterion below), "trivial" (only
                   a loop momentum in no propagator), or a list of sectors
                   [[0,1,...], ...] (with "auto" added by listing "auto")
  symmetries       optional momentum maps [{"k1": "-k2", ..., "p1": "-p4"}]
                   (loop momenta -> +-loop momenta + externals, externals ->
                   combinations preserving the kinematics), used with
                   --symmetries: for every integral of a sector whose
                   propagators a map sends to propagators (q_a -> +-q_b, same
                   mass) the relation G[n] = (image) is added.

The mathematics
  With D_a = q_a^2 - m_a^2, q_a = sum_i c_ai k_i + (externals), and
  G[n] = int prod_i d^d k_i / prod_a D_a^n_a, for each seed n, each loop
  momentum k_i and each v in {loop momenta, external momenta}:
    0 = int d/dk_i^mu ( v^mu / prod_a D_a^n_a )
      = d [v == k_i] G[n] + sum_a (-n_a) 2 c_ai (q_a . v) G[n + e_a],
  since dD_a/dk_i^mu = 2 c_ai q_a^mu. The scalar products are linear in the
  propagators (the map solved once with sympy): q_a . v = sum_b alpha_ab D_b
  + beta_a(invariants, masses), and D_b in the numerator lowers n_b by one:
    0 = d [v == k_i] G[n]
        - 2 sum_a n_a c_ai ( sum_b alpha_ab G[n + e_a - e_b] + beta_a G[n + e_a] ).
  The coefficients are polynomials in d and the invariants (the indices are
  numbers); each identity is scaled to integer coefficients with content 1.
  Integrals of zero sectors are dropped. A sector S (its propagators with
  n_a > 0) is zero when a loop momentum appears in none of its propagators,
  and, with "auto", by Lee's criterion: with the Symanzik polynomials U, F of
  the sector (sum_{a in S} x_a D_a = k^T A k + 2 B.k + C, U = det A,
  F = U C - B^T adj(A) B), S is zero iff some vector w solves
  sum_a w_a x_a dG/dx_a = G for G = U + F, i.e. sum_a w_a e_a(m) = 1 for
  the exponents e(m) of every monomial m of G (a linear system).

Seeds
  Every non-zero sector S of --sectors (subsectors: all subsets of the top
  sector; top: the top sector only); in S: n_a >= 1 for a in S with
  dots = sum_{a in S} (n_a - 1) <= r, n_b <= 0 for b not in S (including the
  irreducible numerators) with rank = sum |n_b| <= s.

Order (--order): every integral of the system, most complex first, by the
  default order of `hepex reduce` (hepex::reduce::more_complex,
  include/hepex/reduce/system.hpp): more positive indices (lines) first, then
  a larger sum of positive indices, then a larger numerator rank
  (sum |n_b|, n_b < 0), then the indices lexicographically, larger first.

Targets (--targets): the integrals of the top sector (with --target-sectors
  seeded: of every sector of the system) with dots <= target-r and
  rank <= target-s that occur in the system; masters among them (e.g. the
  top sector's corner integral) stay: `hepex reduce` writes them as
  themselves with a warning. Default target-r = r and target-s = s - 1 (or s
  when s = 0, r - 1 dots then): the seeds' edge minus one numerator. The IBPs
  of the outermost seeds produce integrals with one dot more or one numerator
  less than any seed, which no identity eliminates; one step inside the edge
  the system closes: checked with `hepex reduce`, whose masters are the
  expected ones (double box r=1,s=2: 12 without symmetries, the 8 of NeatIBP
  up to the choice of representatives with --symmetries at r=1,s=1; massless
  pentagon r=4,s=2: 11 = pentagon, 5 boxes, 5 bubbles).

Benchmark systems (make_laporta_systems.sh): pure IBPs, no symmetry
  relations: dbox r=1 s=2 (39790 equations), pentagon r=4 s=2 (20130).

Output
  --mathematica: {eq1, eq2, ...}, each equation a sum of
  (coefficient)*G[i1,...,iN] (NeatIBP's IBP_all.txt style), coefficients
  expanded with integer coefficients, '*' and '^' explicit.
  --kira: Kira's equation files: one term a line G[i1,...]*(coefficient),
  equations separated by a blank line.
Only Python's standard library and sympy (setup only: the linear map between
scalar products and propagators, the zero-sector test).
"""
import argparse
import itertools
import json
import math
import sys
import time
from fractions import Fraction

import sympy

# ---------------------------------------------------------------------------
# Polynomials in the parameters: dict {exponent tuple: int or Fraction}.


def padd(acc, p, scale=1):
    """acc += scale * p (in place)."""
    for e, c in p.items():
        v = acc.get(e, 0) + scale * c
        if v:
            acc[e] = v
        else:
            acc.pop(e, None)
    return acc


def pmul(p, q):
    out = {}
    for e1, c1 in p.items():
        for e2, c2 in q.items():
            e = tuple(a + b for a, b in zip(e1, e2))
            v = out.get(e, 0) + c1 * c2
            if v:
                out[e] = v
            else:
                out.pop(e, None)
    return out


def pscale(p, c):
    return {e: v * c for e, v in p.items()} if c else {}


def pstr(p, names):
    """Expanded, integer coefficients, '*' and '^' explicit; total degree
    descending, then exponents descending."""
    if not p:
        return "0"
    parts = []
    for e in sorted(p, key=lambda e: (sum(e), e), reverse=True):
        c = p[e]
        factors = []
        for name, k in zip(names, e):
            if k == 1:
                factors.append(name)
            elif k > 1:
                factors.append(f"{name}^{k}")
        mono = "*".join(factors)
        a = abs(c)
        if mono:
            body = mono if a == 1 else f"{a}*{mono}"
        else:
            body = str(a)
        if not parts:
            parts.append(("-" if c < 0 else "") + body)
        else:
            parts.append((" - " if c < 0 else " + ") + body)
    return "".join(parts)


def peval(p, point, prime):
    """Value mod prime at point (a tuple of ints, one per parameter)."""
    total = 0
    for e, c in p.items():
        v = c % prime if isinstance(c, int) else c.numerator * pow(c.denominator, -1, prime)
        for x, k in zip(point, e):
            if k:
                v = v * pow(x, k, prime) % prime
        total += v
    return total % prime


def from_sympy(expr, symbols):
    """A sympy polynomial in `symbols` -> dict with Fraction/int coefficients."""
    expr = sympy.expand(expr)
    if expr == 0:
        return {}
    poly = sympy.Poly(expr, *symbols)
    out = {}
    for monom, coeff in poly.terms():
        c = Fraction(int(sympy.numer(coeff)), int(sympy.denom(coeff)))
        out[tuple(monom)] = c.numerator if c.denominator == 1 else c
    return out


# ---------------------------------------------------------------------------


def integral_key(n):
    """hepex's default order (more_complex): larger key = more complex."""
    lines = sum(1 for x in n if x > 0)
    dots = sum(x for x in n if x > 0)
    rank = -sum(x for x in n if x < 0)
    return (lines, dots, rank, n)


def distributions(total, slots):
    """All tuples of `slots` non-negative ints summing to exactly `total`."""
    if slots == 0:
        if total == 0:
            yield ()
        return
    for bars in itertools.combinations(range(total + slots - 1), slots - 1):
        prev = -1
        out = []
        for b in bars:
            out.append(b - prev - 1)
            prev = b
        out.append(total + slots - 2 - prev)
        yield tuple(out)


class Family:
    def __init__(self, spec):
        self.spec = spec
        self.name = spec["name"]
        self.loops = list(spec["loop_momenta"])
        self.exts = list(spec["external_momenta"])
        self.params = list(spec["parameters"])
        self.dim = spec.get("dimension", "d")
        if self.dim not in self.params:
            raise SystemExit(f"the dimension {self.dim} is not among the parameters")
        self.L, self.E = len(self.loops), len(self.exts)
        self.psym = [sympy.Symbol(p) for p in self.params]
        self.msym = {m: sympy.Symbol(m) for m in self.loops + self.exts}
        locals_ = {**{p: s for p, s in zip(self.params, self.psym)}, **self.msym}
        self.locals = locals_

        # propagators
        self.props = []  # (momentum dict name->int, mass2 sympy expr)
        for entry in spec["propagators"]:
            if isinstance(entry, str):
                mom, m2 = entry, "0"
            elif isinstance(entry, dict):
                mom, m2 = entry["momentum"], entry.get("mass2", "0")
            else:
                mom, m2 = entry[0], entry[1]
            self.props.append((self.momentum(mom), sympy.sympify(m2, locals=locals_)))
        self.N = len(self.props)
        top = spec.get("top_sector", [1] * self.N)
        self.top = sum(1 << a for a in range(self.N) if top[a])

        # kinematics: p_e.p_f
        self.kin = {}
        for key, val in spec["kinematics"].items():
            sep = "." if "." in key else "*"
            a, b = [x.strip() for x in key.split(sep)]
            ia, ib = self.exts.index(a), self.exts.index(b)
            self.kin[(min(ia, ib), max(ia, ib))] = sympy.sympify(val, locals=locals_)
        for e in range(self.E):
            for f in range(e, self.E):
                if (e, f) not in self.kin:
                    raise SystemExit(f"kinematics: {self.exts[e]}.{self.exts[f]} missing")

        # loop-dependent scalar products: k_i.k_j (i <= j), k_i.p_e
        self.sps = [("kk", i, j) for i in range(self.L) for j in range(i, self.L)]
        self.sps += [("kp", i, e) for i in range(self.L) for e in range(self.E)]
        self.spsym = [sympy.Symbol(f"SP{n}") for n in range(len(self.sps))]
        if len(self.sps) != self.N:
            raise SystemExit(f"{self.N} propagators for {len(self.sps)} loop-dependent scalar "
                             "products: the propagators must form a basis (add numerators)")
        # D_b = M[b] . SP + c_b
        self.Dsym = [sympy.Symbol(f"D{b}") for b in range(self.N)]
        Mrows, consts = [], []
        for q, m2 in self.props:
            expr = sympy.expand(self.dot(q, q) - m2)
            Mrows.append([sympy.diff(expr, s) for s in self.spsym])
            consts.append(expr.subs({s: 0 for s in self.spsym}))
        M = sympy.Matrix(Mrows)
        if M.det() == 0:
            raise SystemExit("the propagators do not form a basis of the scalar products")
        Minv = M.inv()
        # SP_j = sum_b Minv[j,b] (D_b - c_b)
        self.sp_in_D = {self.spsym[j]: sum(Minv[j, b] * (self.Dsym[b] - consts[b])
                                           for b in range(self.N)) for j in range(self.N)}
        self.M, self.consts = M, consts
        self._zero = {}
        self.zero_mode = spec.get("zero_sectors", "auto")
        self.zero_listed = set()
        if isinstance(self.zero_mode, list):
            auto = "auto" in self.zero_mode
            for s in self.zero_mode:
                if s != "auto":
                    self.zero_listed.add(sum(1 << a for a in range(self.N) if s[a]))
            self.zero_mode = "auto" if auto else "trivial"
        self.build_templates()

    # momenta -----------------------------------------------------------------
    def momentum(self, text):
        expr = sympy.expand(sympy.sympify(text, locals=self.locals))
        out = {}
        for name, sym in self.msym.items():
            c = expr.coeff(sym)
            if c != 0:
                if not c.is_integer:
                    raise SystemExit(f"momentum {text}: non-integer coefficient of {name}")
                out[name] = int(c)
        rest = sympy.expand(expr - sum(c * self.msym[n] for n, c in out.items()))
        if rest != 0:
            raise SystemExit(f"momentum {text}: not a combination of the momenta")
        return out

    def dot(self, u, v):
        """u.v as a sympy expression in the SP symbols and the parameters."""
        total = 0
        for a, ca in u.items():
            for b, cb in v.items():
                total += ca * cb * self.pair(a, b)
        return total

    def pair(self, a, b):
        la, lb = a in self.loops, b in self.loops
        if la and lb:
            i, j = sorted((self.loops.index(a), self.loops.index(b)))
            return self.spsym[self.sps.index(("kk", i, j))]
        if la or lb:
            k, p = (a, b) if la else (b, a)
            return self.spsym[self.sps.index(("kp", self.loops.index(k), self.exts.index(p)))]
        e, f = sorted((self.exts.index(a), self.exts.index(b)))
        return self.kin[(e, f)]

    def linear_in_D(self, expr):
        """A sympy expression in SPs/params -> ({b: Fraction}, const poly)."""
        expr = sympy.expand(expr.subs(self.sp_in_D, simultaneous=True))
        lin = {}
        for b, D in enumerate(self.Dsym):
            c = expr.coeff(D)
            if c != 0:
                if c.free_symbols:
                    raise SystemExit("internal: a propagator coefficient depends on parameters")
                lin[b] = Fraction(int(sympy.numer(c)), int(sympy.denom(c)))
        const = sympy.expand(expr - sum(c * self.Dsym[b] for b, c in lin.items()))
        return lin, from_sympy(const, self.psym)

    # IBP templates -----------------------------------------------------------
    def build_templates(self):
        """For each (k_i, v): entries (a, b or None, integer poly) meaning
        n_a * poly * G[n + e_a - e_b], and the d-term; scaled to integers."""
        P = len(self.params)
        dpoly = {tuple(1 if p == self.dim else 0 for p in self.params): 1}
        self.templates = []
        vectors = self.loops + self.exts
        for i, k in enumerate(self.loops):
            for v in vectors:
                entries = []  # (a, b, poly with Fraction)
                for a, (q, _) in enumerate(self.props):
                    cai = q.get(k, 0)
                    if not cai:
                        continue
                    lin, const = self.linear_in_D(-2 * cai * self.dot(q, {v: 1}))
                    for b, c in lin.items():
                        entries.append((a, b, {tuple([0] * P): c}))
                    if const:
                        entries.append((a, None, const))
                dterm = dict(dpoly) if v == k else {}
                denoms = [1]
                for _, _, p in entries:
                    denoms += [c.denominator for c in p.values() if isinstance(c, Fraction)]
                lcm = 1
                for x in denoms:
                    lcm = lcm * x // math.gcd(lcm, x)
                ints = []
                for a, b, p in entries:
                    q = {}
                    for e, c in p.items():
                        c = Fraction(c) * lcm
                        assert c.denominator == 1
                        q[e] = int(c)
                    ints.append((a, b, q))
                self.templates.append((f"d/d{k}.{v}", pscale(dterm, lcm), ints))

    # zero sectors --------------------------------------------------------------
    def is_zero(self, mask):
        z = self._zero.get(mask)
        if z is None:
            z = self._zero[mask] = self.compute_zero(mask)
        return z

    def compute_zero(self, mask):
        if mask in self.zero_listed:
            return True
        members = [a for a in range(self.N) if mask >> a & 1]
        for k in self.loops:
            if not any(self.props[a][0].get(k, 0) for a in members):
                return True
        if self.zero_mode == "trivial":
            return False
        x = [sympy.Symbol(f"x{a}") for a in members]
        total = sympy.expand(sum(xa * (self.M[a, :].dot(sympy.Matrix(self.spsym)) + self.consts[a])
                                 for xa, a in zip(x, members)))
        A = sympy.zeros(self.L, self.L)
        B = [[0] * self.E for _ in range(self.L)]
        for n, (kind, i, j) in enumerate(self.sps):
            c = sympy.diff(total, self.spsym[n])
            if kind == "kk":
                if i == j:
                    A[i, i] = c
                else:
                    A[i, j] = A[j, i] = c / 2
            else:
                B[i][j] = c / 2
        C = total.subs({s: 0 for s in self.spsym})
        U = sympy.expand(A.det())
        if U == 0:
            return True
        adj = A.adjugate()
        BB = 0
        for i in range(self.L):
            for j in range(self.L):
                if adj[i, j] == 0:
                    continue
                bij = 0
                for e in range(self.E):
                    for f in range(self.E):
                        if B[i][e] != 0 and B[j][f] != 0:
                            bij += B[i][e] * B[j][f] * self.kin[(min(e, f), max(e, f))]
                BB += adj[i, j] * bij
        F = sympy.expand(U * C - BB)
        G = sympy.Poly(U + F, *x)
        rows = [list(m) + [1] for m, c in G.terms() if sympy.expand(c) != 0]
        # solvable iff rank(E) == rank(E|1)
        Em = sympy.Matrix([r[:-1] for r in rows])
        Ea = sympy.Matrix(rows)
        return Em.rank() == Ea.rank()

    def sector(self, n):
        return sum(1 << a for a, x in enumerate(n) if x > 0)

    # symmetries ---------------------------------------------------------------
    def build_symmetries(self):
        """Momentum maps -> per map: images of the propagator momenta."""
        self.maps = []
        for m in self.spec.get("symmetries", []):
            sub = {name: self.momentum(m.get(name, name)) for name in self.loops + self.exts}
            # kinematics preserved?
            for (e, f), val in self.kin.items():
                img = sympy.expand(self.dot(sub[self.exts[e]], sub[self.exts[f]]))
                if img.free_symbols & set(self.spsym) or sympy.expand(img - val) != 0:
                    raise SystemExit(f"symmetry {m}: does not preserve {self.exts[e]}.{self.exts[f]}")
            # loop momenta -> unimodular combination of loop momenta (+ externals),
            # externals -> externals only: the measure is unchanged
            J = sympy.Matrix([[sub[k].get(l, 0) for l in self.loops] for k in self.loops])
            if abs(J.det()) != 1:
                raise SystemExit(f"symmetry {m}: the loop momenta's map is not unimodular")
            for p in self.exts:
                if any(nm in self.loops for nm in sub[p]):
                    raise SystemExit(f"symmetry {m}: {p} maps to a loop momentum")
            images = []
            for q, m2 in self.props:
                img = {}
                for name, c in q.items():
                    for n2, c2 in sub[name].items():
                        img[n2] = img.get(n2, 0) + c * c2
                img = {a: c for a, c in img.items() if c}
                target = None
                for b, (qb, mb) in enumerate(self.props):
                    if (img == qb or img == {a: -c for a, c in qb.items()}) and sympy.expand(mb - m2) == 0:
                        target = b
                        break
                lin, const = self.linear_in_D(self.dot(img, img) - m2)
                images.append((target, lin, const))
            self.maps.append(images)

    def symmetry_relations(self, n):
        """Relations G[n] - image = 0 for every map that sends n's sector's
        propagators to propagators (one per map; trivial ones skipped)."""
        out = []
        members = [a for a in range(self.N) if n[a] > 0]
        P = len(self.params)
        one = tuple([0] * P)
        for images in self.maps:
            if any(images[a][0] is None for a in members):
                continue
            # numerator polynomial over D-exponent tuples
            poly = {tuple([0] * self.N): {one: 1}}
            for b in range(self.N):
                for _ in range(-n[b] if n[b] < 0 else 0):
                    _, lin, const = images[b]
                    new = {}
                    for ex, c in poly.items():
                        for c2, t in list(lin.items()):
                            ex2 = list(ex)
                            ex2[c2] += 1
                            ex2 = tuple(ex2)
                            padd(new.setdefault(ex2, {}), c, t)
                        if const:
                            padd(new.setdefault(ex, {}), pmul(c, const))
                    poly = {k: v for k, v in new.items() if v}
            eq = {n: {one: 1}}
            for ex, c in poly.items():
                idx = [-x for x in ex]
                for a in members:
                    idx[images[a][0]] += n[a]
                idx = tuple(idx)
                if self.is_zero(self.sector(idx)):
                    continue
                padd(eq.setdefault(idx, {}), c, -1)
            eq = {k: v for k, v in eq.items() if v}
            if eq:
                out.append(eq)
        return out


# ---------------------------------------------------------------------------


def normalize(eq):
    """Integer coefficients with content 1; the most complex integral's
    leading coefficient positive. Returns (eq, hashable key) or None."""
    eq = {k: v for k, v in eq.items() if v}
    if not eq:
        return None
    den = 1
    for p in eq.values():
        for c in p.values():
            if isinstance(c, Fraction):
                den = den * c.denominator // math.gcd(den, c.denominator)
    g = 0
    for p in eq.values():
        for c in p.values():
            g = math.gcd(g, int(c * den))
    lead = max(eq, key=integral_key)
    lp = eq[lead]
    sign = 1 if lp[max(lp, key=lambda e: (sum(e), e))] > 0 else -1
    out = {k: {e: int(c * den) // g * sign for e, c in p.items()} for k, p in eq.items()}
    key = tuple(sorted((k, tuple(sorted(p.items()))) for k, p in out.items()))
    return out, key


def generate(family, r, s, sectors="subsectors", symmetries=False, log=None):
    """Returns (equations, seeds): equations a list of {integral: poly}."""
    N = family.N
    if sectors == "top":
        masks = [family.top]
    else:
        masks = [m for m in range(1 << N) if m & ~family.top == 0]
    masks = [m for m in masks if m and not family.is_zero(m)]
    seeds = []
    for mask in masks:
        inside = [a for a in range(N) if mask >> a & 1]
        outside = [a for a in range(N) if not mask >> a & 1]
        for dots in range(r + 1):
            for dd in distributions(dots, len(inside)):
                for rank in range(s + 1):
                    for nn in distributions(rank, len(outside)):
                        n = [0] * N
                        for a, x in zip(inside, dd):
                            n[a] = 1 + x
                        for b, x in zip(outside, nn):
                            n[b] = -x
                        seeds.append(tuple(n))
    if log:
        log(f"{len(masks)} non-zero seeded sectors, {len(seeds)} seeds")
    zero = family.is_zero
    sector = family.sector
    equations, seen = [], set()
    zcache = {}

    def add(eq):
        res = normalize(eq)
        if res is None:
            return
        out, key = res
        if key in seen:
            return
        seen.add(key)
        equations.append(out)

    for n in seeds:
        for _, dterm, entries in family.templates:
            eq = {}
            if dterm:
                eq[n] = dict(dterm)
            for a, b, poly in entries:
                na = n[a]
                if not na:
                    continue
                m = list(n)
                m[a] += 1
                if b is not None:
                    m[b] -= 1
                m = tuple(m)
                z = zcache.get(m)
                if z is None:
                    z = zcache[m] = zero(sector(m))
                if z:
                    continue
                padd(eq.setdefault(m, {}), poly, na)
            add(eq)
    if symmetries:
        family.build_symmetries()
        integrals = set()
        for eq in equations:
            integrals.update(eq)
        for n in sorted(integrals, key=integral_key, reverse=True):
            for eq in family.symmetry_relations(n):
                add(eq)
    return equations, seeds


def write_outputs(family, equations, args, summary):
    names = family.params
    fam = family.name

    def itext(n):
        return f"{fam}[{','.join(map(str, n))}]"

    integrals = set()
    for eq in equations:
        integrals.update(eq)
    ordered = sorted(integrals, key=integral_key, reverse=True)
    if args.mathematica:
        with open(args.mathematica, "w") as f:
            f.write("{")
            first = True
            for eq in equations:
                terms = [f"({pstr(eq[n], names)})*{itext(n)}"
                         for n in sorted(eq, key=integral_key, reverse=True)]
                f.write(("" if first else ",\n") + " + ".join(terms))
                first = False
            f.write("}\n")
    if args.kira:
        with open(args.kira, "w") as f:
            for eq in equations:
                for n in sorted(eq, key=integral_key, reverse=True):
                    f.write(f"{itext(n)}*({pstr(eq[n], names)})\n")
                f.write("\n")
    if args.order:
        with open(args.order, "w") as f:
            for n in ordered:
                f.write(itext(n) + "\n")
    targets = select_targets(family, integrals, args)
    if args.targets:
        with open(args.targets, "w") as f:
            for n in targets:
                f.write(itext(n) + "\n")
    summary.update(equations=len(equations), integrals=len(integrals), targets=len(targets))
    return ordered, targets


def select_targets(family, integrals, args):
    tr, ts = args.target_r, args.target_s
    out = []
    for n in integrals:
        mask = family.sector(n)
        if args.target_sectors == "top" and mask != family.top:
            continue
        dots = sum(x - 1 for x in n if x > 0)
        rank = -sum(x for x in n if x < 0)
        if dots <= tr and rank <= ts:
            out.append(n)
    return sorted(out, key=integral_key, reverse=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("family")
    ap.add_argument("--r", type=int, help="maximal dots of the seeds")
    ap.add_argument("--s", type=int, help="maximal numerator rank of the seeds")
    ap.add_argument("--sectors", choices=["top", "subsectors"])
    ap.add_argument("--target-r", type=int)
    ap.add_argument("--target-s", type=int)
    ap.add_argument("--target-sectors", choices=["top", "seeded"], default="top")
    ap.add_argument("--symmetries", action="store_true")
    ap.add_argument("--mathematica")
    ap.add_argument("--kira")
    ap.add_argument("--order")
    ap.add_argument("--targets")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    start = time.time()
    with open(args.family) as f:
        spec = json.load(f)
    seeds = spec.get("seeds", {})
    args.r = args.r if args.r is not None else seeds.get("r", 1)
    args.s = args.s if args.s is not None else seeds.get("s", 1)
    args.sectors = args.sectors or seeds.get("sectors", "subsectors")
    tspec = spec.get("targets", {})
    if args.target_r is None:
        args.target_r = tspec.get("r", args.r if args.s > 0 else max(args.r - 1, 0))
    if args.target_s is None:
        args.target_s = tspec.get("s", max(args.s - 1, 0))
    log = None if args.quiet else (lambda m: print(f"[laporta] {m}", file=sys.stderr, flush=True))
    family = Family(spec)
    t_setup = time.time() - start
    equations, seeds = generate(family, args.r, args.s, args.sectors, args.symmetries, log)
    t_gen = time.time() - start - t_setup
    summary = {"family": family.name, "r": args.r, "s": args.s, "sectors": args.sectors,
               "symmetries": args.symmetries, "seeds": len(seeds),
               "target_r": args.target_r, "target_s": args.target_s,
               "zero_sectors_met": sum(1 for z in family._zero.values() if z)}
    write_outputs(family, equations, args, summary)
    summary.update(setup_seconds=round(t_setup, 2), generate_seconds=round(t_gen, 2),
                   total_seconds=round(time.time() - start, 2))
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
