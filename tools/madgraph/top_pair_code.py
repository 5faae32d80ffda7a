"""A colour-flow process's plan as a pass per helicity combination of the
light particles (all but the top pair): the light currents once, then a
loop over the antitop's helicities that closes on both helicities of the
closing top (flow_top_pair_jamps in generated/<name>_flow_code.hpp), for
make_process_tables.py.

detail/colour_flow_top_pairs.hpp says why: the closing top is in no
current and the antitop only in the top line's, so the light currents serve
both antitop helicities and each amplitude's spinor gamma.J psi is formed
once and closed on both of the top's rows; the pass keeps nothing from one
light combination to the next, and every current is a local variable with
its index in its name: nothing is indexed at run time, so that a GPU kernel
can keep them in registers (the kernel that keeps the currents of the
previous combination keeps them in local memory). The steps are those of
colour_flow_jamps, so the jamps are its jamps to the bit: the same helpers,
the same sums in the same order (the node momenta summed in particle order,
the denominators formed as prepare_colour_flow_event forms them, the
closings in the plan's order, which schedule() sets for every kernel)."""
import colour_flow_plan as cfp

GLUON, COLUMN, ROW = cfp.GLUON, cfp.COLUMN, cfp.ROW
EXTERNAL = (cfp.NODE_EXTERNAL_GLUON, cfp.NODE_EXTERNAL_COLUMN, cfp.NODE_EXTERNAL_ROW)
FERMION = (cfp.NODE_COLUMN, cfp.NODE_ROW)
KIND_NAMES = {cfp.NODE_GLUON: "flow_gluon", cfp.NODE_SINGLET: "flow_singlet",
              cfp.NODE_COLUMN: "flow_column", cfp.NODE_ROW: "flow_row"}
SUMS = {cfp.TERM_VVV: "three", cfp.TERM_VVVV: "four", cfp.TERM_PAIR: "pair",
        cfp.TERM_ATTACH: "pair", cfp.TERM_ATTACH_ROW: "pair"}
SUM_BITS = {"three": 1, "four": 2, "pair": 4}


def external_wave(kind, part, mass, helicity):
    """external_wave's call (colour_flow_recursion.hpp) for particle `part`."""
    incoming = part < 2
    if kind == GLUON:
        return f"vxxxxx<T>(p[{part}], {helicity}, {-1 if incoming else 1})"
    call = "ixxxxx" if kind == COLUMN else "oxxxxx"
    sign = (1 if incoming else -1) if kind == COLUMN else (-1 if incoming else 1)
    return f"{call}<T>(p[{part}], {mass}, {helicity}, {sign})"


def term_call(kind, a, b, c, out, factor=1.0):
    """add_flow_term's helper for one term, on the named waves a, b, c (a
    pair takes its factor; the others are scaled by the caller)."""
    if kind == cfp.TERM_PAIR:
        return f"add_pair_current({b}.c, {a}.c, T({factor!r}), {out})"
    if kind == cfp.TERM_VVV:
        return f"add_vvv_numerator({a}, {b}, {out})"
    if kind == cfp.TERM_VVVV:
        return f"add_vvvv_numerator({a}.c, {b}.c, {c}.c, {out})"
    if kind == cfp.TERM_ATTACH_ROW:
        return f"add_times_gamma({b}.c, {a}.c, {out})"
    return f"add_gamma_times({a}.c, {b}.c, {out})"


def antitop_levels(pdg, nodes):
    """Per node 1 where its particles include the antitop, else 0."""
    antitop = pdg.index(-6)
    return [1 if mask >> antitop & 1 else 0 for _, mask, _, _, _ in nodes]


def closing_groups(closes):
    """The closings as runs of one amplitude (the same gluon and column
    current, adjacent in the plan): (first, end) index pairs."""
    groups = []
    for k, close in enumerate(closes):
        if k == 0 or tuple(closes[k - 1][1:]) != tuple(close[1:]):
            groups.append([k, k + 1])
        else:
            groups[-1][1] = k + 1
    return [tuple(g) for g in groups]


# The plans the GPU's portable kernel runs as this pass (ColourFlow<P>::
# top_pair_pass): at most 32 terms (the 0-, 1-jet and 4-quark subprocesses).
# The 77-term plans of the 2-gluon subprocesses ran 11-18% slower as code
# (perf/results/amplitudes/README.md), so the GPU executes their tables, and
# their closings keep the plan's order.
SMALL_PLAN_TERMS = 32


def small_plan(terms):
    return len(terms) <= SMALL_PLAN_TERMS


def schedule(pdg, nodes, terms, closes):
    """The order flow_top_pair_jamps forms things in: the light currents in
    the plan's order (before the loop over the antitop's helicities), then
    each current of the top line as soon as what it reads is formed, each
    closing as soon as its two currents are, so that a current is read soon
    after it is formed and few are alive at once (the GPU has 255 registers
    per thread). Items: ("node", i) or ("close", first, end).
    The plan's closings are put in this order (make_process_tables.py), so
    that every kernel sums each jamp in the same order and flow_top_pair_jamps'
    jamps are colour_flow_jamps' to the bit. A large plan (not small_plan)
    keeps its closings in its order, after all the currents: its kernels
    are as they were measured."""
    level = antitop_levels(pdg, nodes)
    early = small_plan(terms)

    def reads(i):
        _, _, _, first, count = nodes[i]
        return {x for t in range(first, first + count) for x in terms[t][1:] if x >= 0}

    done, items = set(), []
    groups = closing_groups(closes)
    pending_nodes = [i for i in range(len(nodes)) if level[i]]
    pending_groups = list(groups)

    def flush():
        progress = True
        while progress:
            progress = False
            for i in list(pending_nodes):
                if reads(i) <= done:
                    pending_nodes.remove(i)
                    done.add(i)
                    items.append(("node", i))
                    progress = True
        for g in list(pending_groups):
            if set(closes[g[0]][1:]) <= done and (early or len(done) == len(nodes)):
                pending_groups.remove(g)
                items.append(("close",) + g)

    for i in range(len(nodes)):
        if not level[i]:
            done.add(i)
            items.append(("node", i))
    flush()
    assert not pending_nodes and not pending_groups, "a current or closing never formed"
    return items


def reorder_closings(pdg, nodes, terms, closes, close_factors):
    """closes and close_factors in schedule's order of their runs."""
    order = [k for item in schedule(pdg, nodes, terms, closes) if item[0] == "close"
             for k in range(item[1], item[2])]
    return [closes[k] for k in order], [close_factors[k] for k in order]


# Massless quarks keep their chirality: in the chiral basis a massless
# spinor has only its upper (U) or lower (L) two components, gamma.J and a
# massless propagator swap them, and a quark pair's current vanishes unless
# the row's block and the column's are opposite. So some currents are zero,
# exactly, at some helicities of the light quarks (with identical quarks,
# every current of the pairing the helicities forbid). flow_top_pair_jamps skips
# them: it forms a term only where all it reads can be non-zero, which adds
# nothing that colour_flow_jamps adds (x + 0 = x), so the jamps stay its
# jamps to the bit, at every helicity (the test takes every combination).
U, L = "U", "L"
SWAP = {U: L, L: U}


def external_blocks(kind, part, h, massive):
    """The blocks of an external spinor: ixxxxx (column) has its upper
    components for nh = h nsf = -1 and its lower ones for +1, oxxxxx (row)
    the reverse (helas.hpp, spinor_pieces: omega of the other block is
    mass / omega = 0); a massive one has both. A gluon: True (non-zero)."""
    if kind == GLUON:
        return True
    if massive:
        return {U, L}
    incoming = part < 2
    nsf = (1 if incoming else -1) if kind == COLUMN else (-1 if incoming else 1)
    nh = h * nsf
    if kind == COLUMN:
        return {U} if nh == -1 else {L}
    return {U} if nh == 1 else {L}


def term_value(kind, a, b, c):
    """What one term can be non-zero in (blocks of a spinor, or True for a
    vector; set() or False where it is zero), from what it reads."""
    if kind == cfp.TERM_PAIR:  # row a, column b: U x L or L x U
        return (U in a and L in b) or (L in a and U in b)
    if kind == cfp.TERM_VVV:
        return bool(a) and bool(b)
    if kind == cfp.TERM_VVVV:
        return bool(a) and bool(b) and bool(c)
    return {SWAP[x] for x in b} if a else set()  # gamma.J psi, psibar gamma.J


def light_codes(p, antitop, closing):
    """The light particles (all but the top pair) and, per code (bit j: the
    j-th light particle's helicity is +1), their helicities."""
    light = [q for q in range(p.particles) if q not in (antitop, closing)]
    return light, [{q: (1 if code >> j & 1 else -1) for j, q in enumerate(light)}
                   for code in range(1 << len(light))]


def nonzero_terms(p, antitop, closing):
    """Per light code, per node: whether it can be non-zero, and per term:
    whether it can be (the top pair's spinors have both blocks)."""
    _, nodes, terms, _, _, _ = p.flow_plan
    top = [abs(c) == 6 for c in p.pdg]
    light, codes = light_codes(p, antitop, closing)
    result = []
    for helicities in codes:
        value, term_live = [], {}
        for kind, mask, extra, first, count in nodes:
            if kind in EXTERNAL:
                h = helicities.get(extra, 1)
                value.append(external_blocks(p.flow_kinds[extra], extra, h, top[extra]))
                continue
            total = set() if kind in FERMION else False
            for t in range(first, first + count):
                tk, ta, tb, tc = terms[t]
                v = term_value(tk, value[ta], value[tb], value[tc] if tc >= 0 else True)
                term_live[t] = bool(v)
                total = total | v if kind in FERMION else total or v
            if kind in FERMION and total:
                total = {U, L} if extra else {SWAP[x] for x in total}  # the propagator
            value.append(total)
        result.append(([bool(v) for v in value], term_live))
    return light, result


def guard(codes_live, all_codes):
    """The C++ condition for a set of light codes (None: always)."""
    if len(codes_live) == all_codes:
        return None
    mask = sum(1 << c for c in codes_live)
    return f"(0x{mask:x}ull >> code & 1)"


def top_pair_code(p):
    """The lines of flow_top_pair_jamps for ProcessData p (its flow_plan and
    flow_kinds, make_process_tables.py)."""
    closing, nodes, terms, term_factors, closes, close_factors = p.flow_plan
    kinds, n = p.flow_kinds, p.particles
    antitop = p.pdg.index(-6)
    top = [abs(c) == 6 for c in p.pdg]
    assert kinds[closing] == ROW and kinds[antitop] == COLUMN, f"{p.name}: the top pair's kinds"
    assert all(not (mask >> closing & 1) for _, mask, _, _, _ in nodes), \
        f"{p.name}: the closing top in a current"
    level = antitop_levels(p.pdg, nodes)
    assert all(level[column] == 1 and level[gluon] == 0 for _, gluon, column in closes), \
        f"{p.name}: a closing that is not a light current times the top line"

    light, live = nonzero_terms(p, antitop, closing)
    all_codes = len(live)
    node_codes = [{c for c in range(all_codes) if live[c][0][i]} for i in range(len(nodes))]
    term_codes = lambda t: {c for c in range(all_codes) if live[c][1][t]}
    defined = set()  # the node momenta and denominators formed so far
    name = lambda i: f"n{i}"

    def guarded(condition, body, indent="  "):
        """body (lines) inside `if (condition)`, or as a block where None."""
        head = f"{indent}if {condition} {{" if condition else f"{indent}{{"
        return [head] + [f"{indent}  {x}" for x in body] + [f"{indent}}}"]

    def node_lines(i):
        kind, mask, extra, first, count = nodes[i]
        particles = [b for b in range(n) if mask >> b & 1]
        what = f"particle {extra}" if kind in EXTERNAL else \
            f"{KIND_NAMES[kind]} of particles {' '.join(map(str, particles))}"
        label = f"  // node {i}: {what}"
        if kind in EXTERNAL:
            helicity = "antitops[a]" if extra == antitop else f"helicity[{extra}]"
            mass = "top_mass" if top[extra] else "T(0)"
            return [f"  const Wave<T> {name(i)} = {external_wave(kinds[extra], extra, mass, helicity)};{label}"]
        if not node_codes[i]:
            return [f"  // node {i}: {what}, zero at every helicity"]
        sums = sorted({SUMS[terms[t][0]] for t in range(first, first + count)},
                      key=lambda s: SUM_BITS[s])
        bits = sum(SUM_BITS[s] for s in sums) if kind not in FERMION else 4
        k, denominator = f"k_{mask:#x}", ("top_" if extra else "") + \
            ("propagator" if kind in FERMION else "inverse_square") + f"_{mask:#x}"
        lines = []
        if k not in defined:
            defined.add(k)
            momentum = " + ".join(("-" if b < 2 else "") + f"p[{b}][mu]" for b in particles)
            lines += [f"  D {k}[4];  // the outgoing momentum of particles {' '.join(map(str, particles))}",
                      f"  for (int mu = 0; mu < 4; ++mu) {k}[mu] = {momentum};"]
        if denominator not in defined:
            defined.add(denominator)
            form = f"T(D(1.0) / square({k}))" if kind not in FERMION else \
                f"T(square({k}) - D(quark.mass * quark.mass))" if extra else f"T(square({k}))"
            lines.append(f"  const T {denominator} = {form};")
        body = [f"for (int mu = 0; mu < 4; ++mu) {name(i)}.k[mu] = {k}[mu];",
                "cplx<T> " + ", ".join(f"{s}[4] = {{}}" for s in sums) + ";"]
        for t in range(first, first + count):
            if not term_codes(t):
                continue
            tk, ta, tb, tc = terms[t]
            out, factor = SUMS[tk], float(term_factors[t])
            c = name(tc) if tc >= 0 else ""
            if tk == cfp.TERM_PAIR or factor == 1.0:
                term = [f"{term_call(tk, name(ta), name(tb), c, out, factor)};"]
            else:
                term = ["cplx<T> s[4] = {};", f"{term_call(tk, name(ta), name(tb), c, 's')};",
                        f"add_scaled({factor!r}, s, {out});"]
            condition = None if term_codes(t) == node_codes[i] else guard(term_codes(t), all_codes)
            body += guarded(condition, term, "") if condition or len(term) > 1 else term
        arg = lambda s: s if s in sums else "unused"
        body.append(f"finish_current<{bits}u>({KIND_NAMES[kind]}, {extra}, {k}, {denominator}, quark, "
                    f"{arg('three')}, {arg('four')}, {arg('pair')}, {name(i)}.c);")
        lines.append(f"  Wave<T> {name(i)};{label}")
        return lines + guarded(guard(node_codes[i], all_codes), body)

    lines = ["",
             "// The jamps of one event at the helicity combinations that share the light",
             "// particles' helicities (helicity[p]), for each antitop helicity antitops[a]",
             "// with bit a of `wanted` set: sink(a, jamps), jamps[c] at the closing top's",
             "// helicity top[c], each colour_flow_jamps' to the bit (colour_flow_top_pairs.hpp).",
             "// The light currents (without the antitop) are formed once, before the loop",
             "// over the antitop's helicities, which the device compiler keeps as a loop.",
             "// `code` has bit j set where the j-th light particle's helicity is +1; a",
             "// current or term that is zero at some codes (massless quarks keep their",
             "// chirality) is formed only at the others (top_pair_code.py).",
             "template <int Colours, class T, class Momentum, class Sink>",
             "KOKKOS_INLINE_FUNCTION void flow_top_pair_jamps(const Momentum& momentum, const int* helicity,",
             "                                                const int* antitops, unsigned wanted,",
             "                                                const int* top, const TopQuark& quark,",
             "                                                const Sink& sink) {",
             f"  static_assert(Colours == {p.colours}, \"{p.name}'s colours\");",
             "  using D = Doubles<T>;",
             "  const T top_mass = T(quark.mass);",
             "  cplx<T>* const unused = nullptr;  // a sum no term of the node feeds",
             "  (void)unused;",
             "  const unsigned code = " + " | ".join(
                 f"(helicity[{q}] > 0 ? {1 << j}u : 0u)" for j, q in enumerate(light)) + ";",
             "  (void)code;",
             f"  D p[{n}][4];",
             f"  for (int part = 0; part < {n}; ++part)",
             "    for (int mu = 0; mu < 4; ++mu) p[part][mu] = momentum(part, mu);",
             "  // clang-format off",
             f"  const Wave<T> row_0 = {external_wave(ROW, closing, 'top_mass', 'top[0]')};",
             f"  const Wave<T> row_1 = {external_wave(ROW, closing, 'top_mass', 'top[1]')};"]
    items = schedule(p.pdg, nodes, terms, closes)
    in_loop = False
    for item in items:
        if not in_loop and (item[0] == "close" or level[item[1]]):
            in_loop = True
            lines += ["  // clang-format on",
                      "  HEPEX_KEEP_LOOP",
                      "  for (int a = 0; a < 2; ++a) {",
                      "    if ((wanted >> a & 1) == 0) continue;",
                      "    cplx<T> jamps[2][Colours];",
                      "    for (int t = 0; t < 2; ++t)",
                      "      for (int c = 0; c < Colours; ++c) jamps[t][c] = cplx<T>(T(0));",
                      "    // clang-format off"]
        indent = "  " if in_loop else ""
        if item[0] == "node":
            lines += [indent + x for x in node_lines(item[1])]
            continue
        assert in_loop
        first, end = item[1:]
        _, gluon, column = closes[first]
        codes = node_codes[gluon] & node_codes[column]
        if not codes:
            lines.append(f"    // the amplitude of currents {gluon} and {column}: zero at every helicity")
            continue
        body = ["cplx<T> y[4];", f"closing_spinor({name(gluon)}.c, {name(column)}.c, y);",
                "const cplx<T> amplitude[2] = {closed_amplitude(row_0.c, y), "
                "closed_amplitude(row_1.c, y)};"]
        for c in (0, 1):
            for k in range(first, end):
                jamp, factor = closes[k][0], float(close_factors[k])
                body.append(f"jamps[{c}][{jamp}] += T({factor!r}) * amplitude[{c}];")
        lines += [f"    // an amplitude of currents {gluon} and {column}, closed on both of the top's rows"]
        lines += guarded(guard(codes, all_codes), body, "    ")
    assert in_loop, f"{p.name}: nothing depends on the antitop"
    lines += ["    // clang-format on", "    sink(a, jamps);", "  }", "}"]
    live_codes = {c for first, _ in closing_groups(closes)
                  for c in node_codes[closes[first][1]] & node_codes[closes[first][2]]}
    lines += ["",
              "// Whether flow_top_pair_jamps can give a non-zero jamp at these helicities of the",
              "// light particles (massless quarks keep their chirality).",
              "KOKKOS_INLINE_FUNCTION bool flow_top_live(const int* helicity) {",
              "  const unsigned code = " + " | ".join(
                  f"(helicity[{q}] > 0 ? {1 << j}u : 0u)" for j, q in enumerate(light)) + ";",
              f"  return (0x{sum(1 << c for c in live_codes):x}ull >> code & 1) != 0;",
              "}"]
    return lines
