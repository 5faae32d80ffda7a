"""The colour-flow family's recursion plans, for make_process_tables.py.

A process of quarks and gluons (any number of quark lines, massive top or
massless light quarks) is computed by a Berends-Giele recursion over subsets
of its particles, once per colour flow of MadGraph's basis (jamp), with the
colour fixed by that flow (F. A. Berends, W. T. Giele, Nucl. Phys. B 306
(1988) 759; colour-dressed recursion in the colour-flow basis: C. Duhr,
S. Hoeche, F. Maltoni, JHEP 08 (2006) 062, hep-ph/0607057; the flow basis
and its 1/N terms: F. Maltoni, K. Paul, T. Stelzer, S. Willenbrock, Phys.
Rev. D 67 (2003) 014026, hep-ph/0209271). This module turns MadGraph's
colour basis into that recursion's plan: a list of currents ("nodes") in the
order they are computed and, per node, the vertices ("terms") that feed it.
The C++ side (detail/colour_flow_recursion.hpp) only executes the plan.

All particles are taken outgoing. Each is a gluon (G), a "column" fermion
(C: an incoming quark or outgoing antiquark, HELAS ixxxxx, the second index
j of MadGraph's strings T(...,i,j)) or a "row" fermion (R: an outgoing quark
or incoming antiquark, oxxxxx, the first index i). A basis element is a
product of strings (T^a1 ... T^ak)_{i j}; written as a colour flow, string by
string, every row fermion and gluon x has a successor succ(x): the next gluon
on its string, or the string's column fermion. The jamp of a basis element is
the coefficient of that product in the amplitude. Its recursion keeps, per
subset S of particles, the one colour state S can have inside that flow:
  - a gluon current with one "in end" (the element of S whose predecessor is
    outside S) and one "out end" (whose successor is outside): as a colour
    matrix |in><out|, i.e. M = sum_a T^a J^a;
  - a colour singlet (no open end), made only by a quark line through the
    U(1) part of the gluon propagator;
  - a column fermion current (one unpaired column fermion, one in end), or
    a row fermion current (one unpaired row fermion, one out end).
Other subsets have no current in that flow. The vertices, in MadGraph's
normalisation (Tr T^a T^b = delta^ab / 2; the rules of colour_ordered.hpp):
  vvv   M(A u B) gets -i [M_A, M_B]: ordered A then B when succ(out_A) =
        in_B, i.e. the term  GC_10 VVV1(J_A, J_B) / P^2;
  vvvv  three open pieces X, Y, Z chained out_X -> in_Y, out_Y -> in_Z:
        GC_12 coefficient of T^X T^Y T^Z (add_vvvv_numerator) / P^2;
  pair  a quark line closing into a gluon: sum_a T^a_xy T^a_kl =
        (delta_xl delta_ky - delta_xy delta_kl / N) / 2, so a row current and
        a column current of the same line, splitting S, make the gluon current
        with factor 1/2 (S's out end is the row current's, its in end the
        column current's) or the singlet with -1/(2N) (the row current's out
        end is followed by the column current's in end); FFV1P0_3 =
        G (F2 gamma F1) / P^2. The gluon leaves the line between the two, so
        both sides carry their own gluons;
  attach  a column current times a gluon current (succ(out) = the column
        current's in end) or a singlet, then the fermion propagator (FFV1_2);
        a row current times a gluon current (the row current's out end is
        followed by the gluon current's in end) or a singlet, then the
        propagator on the right (FFV1_1);
  close the amplitude: the top's row spinor times a gluon current or
        singlet times the column current of the rest (FFV1_0).
The 1/N terms come only from singlets: a U(1) gluon couples to quarks only
(f^{0bc} = 0), so singlets never enter vvv or vvvv.

Identical quark flavours (u u > t t~ u u) have several ways to pair column
with row fermions into lines; each pairing is its own recursion (the lines
fixed), and the jamps add them with the sign of the permutation of the
fermions (Fermi statistics: the order r1 c1 r2 c2 ... of the pairing's lines
against the particles' order).
"""
import itertools
import re
from fractions import Fraction

GLUON, COLUMN, ROW = 0, 1, 2

# Node kinds and term kinds, as detail/colour_flow_recursion.hpp reads them.
(NODE_EXTERNAL_GLUON, NODE_EXTERNAL_COLUMN, NODE_GLUON, NODE_SINGLET, NODE_COLUMN,
 NODE_EXTERNAL_ROW, NODE_ROW) = range(7)
TERM_VVV, TERM_VVVV, TERM_PAIR, TERM_SINGLET_PAIR, TERM_ATTACH, TERM_ATTACH_ROW = range(6)


def particle_kinds(pdg):
    """Per particle (MadGraph's order, two incoming first): GLUON, COLUMN or ROW."""
    kinds = []
    for i, code in enumerate(pdg):
        incoming = i < 2
        if code == 21:
            kinds.append(GLUON)
        elif (code > 0) == incoming:  # incoming quark or outgoing antiquark
            kinds.append(COLUMN)
        else:
            kinds.append(ROW)
    return kinds


def parse_basis(element, n, kinds):
    """succ[x] for a basis element "T(2,1) T(5,3,4)" (particles 1-based there)."""
    succ = [None] * n
    for string in re.findall(r"T\(([0-9,]+)\)", element):
        labels = [int(x) - 1 for x in string.split(",")]
        *gluons, i, j = labels
        assert kinds[i] == ROW and kinds[j] == COLUMN, (element, i, j)
        assert all(kinds[g] == GLUON for g in gluons), element
        chain = [i] + gluons + [j]
        for a, b in zip(chain, chain[1:]):
            assert succ[a] is None, element
            succ[a] = b
    assert all(succ[x] is not None for x in range(n) if kinds[x] != COLUMN), element
    return succ


def pairings(pdg, kinds):
    """Every way to join column with row fermions of the same flavour into
    lines, each as (lines [(column, row)], sign)."""
    columns = [x for x in range(len(pdg)) if kinds[x] == COLUMN]
    rows = [x for x in range(len(pdg)) if kinds[x] == ROW]
    found = []
    for chosen in itertools.permutations(rows):
        if all(abs(pdg[c]) == abs(pdg[r]) for c, r in zip(columns, chosen)):
            order = [y for c, r in zip(columns, chosen) for y in (r, c)]
            inversions = sum(1 for a in range(len(order)) for b in range(a + 1, len(order))
                             if order[a] > order[b])
            found.append((list(zip(columns, chosen)), -1 if inversions % 2 else 1))
    assert found, pdg
    return found


class Plan:
    """The recursion plan of one process: nodes (kind, mask, particle or the
    line's mass flag, first term, term count), terms (kind, a, b, c, with
    node ids; (SINGLET_)PAIR: row current a, column current b), and the closing terms (jamp,
    sign, gluon-or-singlet node, column node) with the closing particle."""

    def __init__(self, pdg, basis):
        n = len(pdg)
        self.n = n
        self.pdg = pdg
        self.kinds = particle_kinds(pdg)
        flows = [parse_basis(b, n, self.kinds) for b in basis]
        # Close on the outgoing top (a row fermion; one in every process here).
        tops = [x for x in range(n) if pdg[x] == 6 and x >= 2]
        assert len(tops) == 1, pdg
        self.closing = tops[0]
        self.nodes = []  # [kind, mask, particle_or_mass, terms]
        self.index = {}
        self.closing_terms = []
        for lines, sign in pairings(pdg, self.kinds):
            partner = {}
            for c, r in lines:
                partner[c], partner[r] = r, c
            for jamp, succ in enumerate(flows):
                pred = {b: a for a, b in enumerate(succ) if b is not None}
                self._close(jamp, sign, succ, pred, partner)
        self.nodes_in_order()

    # The colour state of subset `mask` in the flow: (kind, in_end, out_end) or None.
    def state(self, mask, succ, pred, partner):
        members = [x for x in range(self.n) if (mask >> x) & 1]
        inside = lambda y: y is not None and (mask >> y) & 1
        ins = [x for x in members if self.kinds[x] != ROW and not inside(pred.get(x))]
        outs = [x for x in members if self.kinds[x] != COLUMN and not inside(succ[x])]
        unpaired = [x for x in members if self.kinds[x] != GLUON and not inside(partner[x])]
        fermions = any(self.kinds[x] != GLUON for x in members)
        if not unpaired:
            if len(ins) == 1 and len(outs) == 1:
                return (NODE_GLUON, ins[0], outs[0])
            if not ins and not outs and fermions:
                return (NODE_SINGLET, None, None)
            return None
        if len(unpaired) == 1 and self.kinds[unpaired[0]] == COLUMN and len(ins) == 1 and not outs:
            return (NODE_COLUMN, ins[0], None)
        if len(unpaired) == 1 and self.kinds[unpaired[0]] == ROW and len(outs) == 1 and not ins:
            return (NODE_ROW, None, outs[0])
        return None

    def node(self, mask, succ, pred, partner):
        """The node of `mask` in this flow and pairing (built on first use),
        with its state; None where the subset has no current."""
        st = self.state(mask, succ, pred, partner)
        if st is None:
            return None
        members = [x for x in range(self.n) if (mask >> x) & 1]
        # What the node depends on: its subset, state, the flow's links and
        # the lines inside it.
        links = tuple((x, succ[x]) for x in members
                      if succ[x] is not None and (mask >> succ[x]) & 1)
        lines = tuple((x, partner[x]) for x in members
                      if self.kinds[x] == COLUMN and (mask >> partner[x]) & 1)
        unpaired_mass = None
        if st[0] in (NODE_COLUMN, NODE_ROW):
            c = [x for x in members if self.kinds[x] != GLUON and not (mask >> partner[x]) & 1][0]
            unpaired_mass = 1 if abs(self.pdg[c]) == 6 else 0
        key = (mask, st, links, lines, unpaired_mass)
        if key in self.index:
            return self.index[key], st
        terms = self._terms(mask, st, members, succ, pred, partner)
        if len(members) > 1 and not terms:
            self.index[key] = None
            return None
        if len(members) == 1:
            x = members[0]
            kind = {GLUON: NODE_EXTERNAL_GLUON, COLUMN: NODE_EXTERNAL_COLUMN,
                    ROW: NODE_EXTERNAL_ROW}[self.kinds[x]]
            entry = [kind, mask, x, []]
        else:
            entry = [st[0], mask, unpaired_mass if unpaired_mass is not None else 0, terms]
        self.nodes.append(entry)
        self.index[key] = len(self.nodes) - 1
        return self.index[key], st

    def _sub(self, mask, succ, pred, partner):
        found = self.node(mask, succ, pred, partner)
        return (None, None) if found is None or found[0] is None else found

    def _terms(self, mask, st, members, succ, pred, partner):
        if len(members) == 1:
            return []
        kind = st[0]
        terms = []
        sub = lambda m: self._sub(m, succ, pred, partner)
        if kind == NODE_GLUON:
            low = mask & -mask
            for a in submasks(mask):
                b = mask ^ a
                if not (a & low) or b == 0:
                    continue
                (na, sa), (nb, sb) = sub(a), sub(b)
                if na is None or nb is None or sa[0] != NODE_GLUON or sb[0] != NODE_GLUON:
                    continue
                if succ[sa[2]] == sb[1]:
                    terms.append((TERM_VVV, na, nb, -1))
                elif succ[sb[2]] == sa[1]:
                    terms.append((TERM_VVV, nb, na, -1))
            for a in submasks(mask):
                if not (a & low):
                    continue
                rest = mask ^ a
                low_rest = rest & -rest
                for b in submasks(rest):
                    c = rest ^ b
                    if not (b & low_rest) or c == 0:
                        continue
                    pieces = [sub(a), sub(b), sub(c)]
                    if any(p[0] is None or p[1][0] != NODE_GLUON for p in pieces):
                        continue
                    for x, y, z in itertools.permutations(pieces):
                        if succ[x[1][2]] == y[1][1] and succ[y[1][2]] == z[1][1]:
                            terms.append((TERM_VVVV, x[0], y[0], z[0]))
        if kind in (NODE_GLUON, NODE_SINGLET):
            for rows in submasks(mask):
                columns = mask ^ rows
                if columns == 0:
                    continue
                (n1, s1), (n2, s2) = sub(rows), sub(columns)
                if n1 is None or n2 is None or s1[0] != NODE_ROW or s2[0] != NODE_COLUMN:
                    continue
                r = [x for x in range(self.n) if (rows >> x) & 1 and self.kinds[x] == ROW
                     and not (rows >> partner[x]) & 1][0]
                if not (columns >> partner[r]) & 1:
                    continue  # not one line: the unpaired ends are of different lines
                if kind == NODE_GLUON and st[2] == s1[2] and st[1] == s2[1]:
                    terms.append((TERM_PAIR, n1, n2, -1))
                elif kind == NODE_SINGLET and succ[s1[2]] == s2[1]:
                    terms.append((TERM_SINGLET_PAIR, n1, n2, -1))
        if kind == NODE_COLUMN:
            terms += self._attachments(mask, st[1], members, succ, pred, partner, None)
        if kind == NODE_ROW:
            terms += self._row_attachments(mask, members, succ, pred, partner)
        return terms

    def _row_attachments(self, mask, members, succ, pred, partner):
        """Row current times gluon-or-singlet splits of a row node's `mask`."""
        r = [x for x in members if self.kinds[x] == ROW and not (mask >> partner[x]) & 1][0]
        found = []
        for row in submasks(mask):
            gluon = mask ^ row
            if not (row >> r) & 1 or gluon == 0:
                continue
            (n1, s1), (n2, s2) = self._sub(gluon, succ, pred, partner), \
                self._sub(row, succ, pred, partner)
            if n1 is None or n2 is None or s2[0] != NODE_ROW:
                continue
            if (s1[0] == NODE_GLUON and succ[s2[2]] == s1[1]) or s1[0] == NODE_SINGLET:
                found.append((TERM_ATTACH_ROW, n1, n2, -1))
        return found

    def _attachments(self, mask, in_end, members, succ, pred, partner, closing):
        """Gluon-or-singlet times column current splits of `mask`: for a
        column node (closing None) or the amplitude (closing: the top)."""
        unpaired = [x for x in members if self.kinds[x] == COLUMN and not (mask >> partner[x]) & 1]
        c = partner[closing] if closing is not None else unpaired[0]
        found = []
        for column in submasks(mask):
            gluon = mask ^ column
            if not (column >> c) & 1 or gluon == 0:
                continue
            (n1, s1), (n2, s2) = self._sub(gluon, succ, pred, partner), \
                self._sub(column, succ, pred, partner)
            if n1 is None or n2 is None or s2[0] != NODE_COLUMN:
                continue
            if s1[0] == NODE_GLUON:
                fits = succ[s1[2]] == s2[1] and (closing is None or succ[closing] == s1[1])
            elif s1[0] == NODE_SINGLET:
                fits = closing is None or succ[closing] == s2[1]
            else:
                fits = False
            if fits:
                found.append((TERM_ATTACH, n1, n2, -1))
        return found

    def _close(self, jamp, sign, succ, pred, partner):
        rest = ((1 << self.n) - 1) ^ (1 << self.closing)
        members = [x for x in range(self.n) if (rest >> x) & 1]
        for _, n1, n2, _ in self._attachments(rest, None, members, succ, pred, partner,
                                               self.closing):
            self.closing_terms.append((jamp, sign, n1, n2))

    def nodes_in_order(self):
        """Nodes are appended after their pieces, so the list is already in an
        order where every node follows the nodes it reads."""
        for i, (_, _, _, terms) in enumerate(self.nodes):
            for kind, a, b, c in terms:
                reads = [a, b] + ([c] if c >= 0 else [])
                assert all(0 <= r < i for r in reads), (i, kind, a, b, c)

    def flat(self):
        """The plan as the C++ tables read it, after share_multiples: node
        rows (kind, mask, particle or mass flag, first term, term count),
        term rows (kind, a, b, c) and their factors, closing rows (jamp,
        gluon-or-singlet node, column node) and their factors."""
        nodes, closes = share_multiples(self.nodes, self.closing_terms)
        node_rows, term_rows, term_factors = [], [], []
        for kind, mask, extra, terms in nodes:
            node_rows.append((kind, mask, extra, len(term_rows), len(terms)))
            term_rows += [t[:4] for t in terms]
            term_factors += [t[4] for t in terms]
        close_rows = [c[:3] for c in closes]
        close_factors = [c[3] for c in closes]
        return node_rows, term_rows, term_factors, close_rows, close_factors


# The coefficient each term kind carries in the recursion (the colour factor
# of a quark line closing into a gluon, 1/2, or into the singlet, -1/(2N)).
TERM_COEFFICIENT = {TERM_PAIR: Fraction(1, 2), TERM_SINGLET_PAIR: Fraction(-1, 6)}


def share_multiples(nodes, closing_terms):
    """Computes each current once: the recursion of each colour flow (and of
    each pairing of identical quarks) builds its own currents, and many of
    them are the same current, or a rational multiple of one (u u > t t~ u u:
    the singlet made by a quark line is -1/3 of the gluon current the same
    line makes, and the two pairings repeat each other's lines). Every vertex
    is linear in each current it reads and a node's propagator depends only
    on its kind and particles, so a node is c times another when both have
    the same propagator and their terms, with the nodes they read replaced
    by their representatives times factors, are the same up to c.

    Returns the representatives in order (kind, mask, particle or mass flag,
    terms (kind, a, b, c, factor) with node ids renumbered, the pair kinds'
    colour factors in the factor and TERM_SINGLET_PAIR written as TERM_PAIR),
    and the closing terms as (jamp, gluon, column, factor) with the sign in
    the factor, ordered so that closings of one amplitude (the same gluon and
    column node) are adjacent: the executor forms each amplitude once. Nodes
    that no closing reads are dropped. u u > t t~ u u: 49 nodes, 68 terms, 28
    closings before; 31, 44 and 14 amplitudes after (its 14 diagrams), and
    26 terms after close_on_terms."""
    rep = {}  # node -> (representative node, factor), or None for a zero current
    found = {}
    kept = []  # representatives: (id, kind, mask, extra, {(term kind, reads): factor})
    for i, (kind, mask, extra, terms) in enumerate(nodes):
        if not terms:
            key = ("external", kind, extra)
            if key not in found:
                found[key] = (i, Fraction(1))
                kept.append((i, kind, mask, extra, {}))
            rep[i] = found[key]
            continue
        sums = {}
        for term_kind, a, b, c, *_ in terms:
            reads = [a, b] + ([c] if c >= 0 else [])
            if any(rep[r] is None for r in reads):
                continue
            factor = TERM_COEFFICIENT.get(term_kind, Fraction(1))
            for r in reads:
                factor *= rep[r][1]
            term_kind = TERM_PAIR if term_kind == TERM_SINGLET_PAIR else term_kind
            monomial, sign = canonical_term(term_kind, [rep[r][0] for r in reads])
            sums[monomial] = sums.get(monomial, Fraction(0)) + sign * factor
        sums = {m: f for m, f in sums.items() if f != 0}
        if not sums:
            rep[i] = None
            continue
        order = sorted(sums)
        lead = sums[order[0]]
        # Gluon and singlet currents share their propagator, 1/P^2.
        propagator = "gluon" if kind in (NODE_GLUON, NODE_SINGLET) else kind
        key = (propagator, mask, extra, tuple((m, sums[m] / lead) for m in order))
        if key in found:
            node, node_lead = found[key]
            rep[i] = (node, lead / node_lead)
        else:
            # The representative is scaled to a leading factor of 1 (1/2 for
            # a pair: a gluon current's own), so that most terms that read
            # it have the factor 1 (the singlets then read -1/3 of it).
            target = TERM_COEFFICIENT[TERM_PAIR] if order[0][0] == TERM_PAIR else Fraction(1)
            scale = target / lead
            found[key] = (i, target)
            rep[i] = (i, 1 / scale)
            kept.append((i, kind, mask, extra, {m: f * scale for m, f in sums.items()}))
    amplitudes = {}
    for jamp, sign, gluon, column in closing_terms:
        if rep[gluon] is None or rep[column] is None:
            continue
        key = (rep[gluon][0], rep[column][0], jamp)
        amplitudes[key] = amplitudes.get(key, Fraction(0)) + sign * rep[gluon][1] * rep[column][1]
    amplitudes = {k: f for k, f in amplitudes.items() if f != 0}
    kept, amplitudes = close_on_terms(kept, amplitudes, len(nodes))
    # Keep what the closings read, directly or through other nodes.
    needed = {n for key in amplitudes for n in key[:2]}
    for i, kind, mask, extra, sums in reversed(kept):
        if i in needed:
            needed.update(r for _, reads in sums for r in reads)
    renumber = {}
    shared = []
    for i, kind, mask, extra, sums in kept:
        if i not in needed:
            continue
        renumber[i] = len(shared)
        terms = []
        for term_kind, reads in sorted(sums):
            factor = sums[(term_kind, reads)]
            if term_kind == TERM_VVV and factor < 0:  # antisymmetric: a factor of 1 where it can
                reads, factor = tuple(reversed(reads)), -factor
            ids = [renumber[r] for r in reads] + [-1] * (3 - len(reads))
            terms.append((term_kind, *ids, factor))
        shared.append([kind, mask, extra, terms])
    closes = [(jamp, renumber[g], renumber[c], f)
              for (g, c, jamp), f in sorted(amplitudes.items())]
    return shared, closes


def canonical_term(kind, reads):
    """A term's vertex and the nodes it reads in one order, and the sign
    that order takes: the three-gluon vertex is antisymmetric in its two
    currents (with their momenta), the four-gluon numerator symmetric under
    reversing its three (add_vvv_numerator, add_vvvv_numerator)."""
    if kind == TERM_VVV and reads[0] > reads[1]:
        return (kind, tuple(reversed(reads))), -1
    if kind == TERM_VVVV and reads[0] > reads[2]:
        return (kind, tuple(reversed(reads))), 1
    return (kind, tuple(reads)), 1


def close_on_terms(kept, amplitudes, first_id):
    """The gluon and singlet currents that only the closings read, split into
    their terms: a closing is linear in its gluon current, and the currents
    of the whole process but the top and one column current share many terms
    (u u > t t~ u u: 10 such currents of 28 terms are 10 distinct terms).
    Each distinct term becomes a current of its own (the same propagator,
    1/P^2), read by the closings of every current it was in, with that
    current's factor; not where that would make more currents than it
    replaces.
    kept: the representatives (id, kind, mask, extra, {term: factor});
    amplitudes: {(gluon, column, jamp): factor}. New ids count from first_id."""
    read = {r for *_, sums in kept for _, reads in sums for r in reads}
    by_id = {entry[0]: entry for entry in kept}
    split = {}
    for gluon, _, _ in amplitudes:
        _, kind, mask, _, sums = by_id[gluon]
        if kind in (NODE_GLUON, NODE_SINGLET) and sums and gluon not in read:
            split[gluon] = (mask, sums)
    if not split:
        return kept, amplitudes
    term_node = {}
    original = kept
    kept = [entry for entry in kept if entry[0] not in split]
    result = {}
    for (gluon, column, jamp), factor in sorted(amplitudes.items()):
        if gluon not in split:
            result[(gluon, column, jamp)] = result.get((gluon, column, jamp), 0) + factor
            continue
        mask, sums = split[gluon]
        for term, coefficient in sorted(sums.items()):
            unit = TERM_COEFFICIENT[TERM_PAIR] if term[0] == TERM_PAIR else Fraction(1)
            if (mask, term) not in term_node:
                term_node[(mask, term)] = first_id + len(term_node)
                kept.append((term_node[(mask, term)], NODE_GLUON, mask, 0, {term: unit}))
            key = (term_node[(mask, term)], column, jamp)
            result[key] = result.get(key, 0) + factor * coefficient / unit
    if len(term_node) > len(split):
        # More currents to keep than before (the u u~ > t t~ g g family: 15
        # for 8): where the currents sit in a GPU thread's local memory this
        # costs more than the terms it saves.
        return original, amplitudes
    return kept, {k: f for k, f in result.items() if f != 0}


def submasks(mask):
    """The non-empty proper and improper submasks of mask, ascending."""
    sub = mask
    found = []
    while sub:
        found.append(sub)
        sub = (sub - 1) & mask
    return sorted(found)
