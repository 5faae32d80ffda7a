#!/usr/bin/env python3
"""Checks the reference data of pp -> t t~ + 0..2 jets (pp_tt012j/, made by
make_subprocess_reference.sh) and of the 3-jet subprocesses with one light
quark pair (pp_tt3j/, make_madevent_reference.sh) against what does not come
from it (ctest data.pp_tt012j_reference):
  - every subprocess has its tables, 768 on-shell events with a finite ME > 0
    and 768 selection lines whose selhel / selcol lie in the tables' ranges,
    a colour chosen exactly where igraph is not 0, among icolamp's flows of igraph;
  - the tables agree with NAME_subprocess.json (npar, ncomb, ncolor, nconfig)
    and the events are on shell (t, t~ at 173 GeV, the rest massless) and
    conserve momentum;
  - u u~ -> t t~ (one s-channel gluon, no top propagator) equals the textbook
    spin- and colour-averaged |M|^2 = 4 g^4 / 9 ((m^2-t)^2 + (m^2-u)^2 + 2 m^2 s) / s^2
    (Ellis, Stirling, Webber, eq. 10.12) to 1e-12;
  - pp_tt012j's g g -> t t~ library on the events of gg_tt_onshell_ref.txt
    (gg_ttx_on_gg_tt_events.txt) gives the ME of that file (made from
    gg_tt.sa, another MadGraph output) to 1e-12.
Usage: python3 check_subprocess_reference.py [DATA_DIR]"""
import glob
import json
import math
import pathlib
import sys

G = 1.2177157847767195
MT = 173.0


def rows(path):
    return [l.split() for l in open(path) if l.strip() and not l.startswith("#")]


def dot(a, b):
    return a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3]


def check_folder(data, expected, failures):
    """The generic checks of every subprocess in DATA (EXPECTED of them)."""
    subs = sorted(glob.glob(str(data / "*_subprocess.json")))
    if len(subs) != expected:
        failures.append(f"{len(subs)} subprocesses in {data}, expected {expected}")
    for path in subs:
        d = json.load(open(path))
        name, npar = d["name"], d["npar"]
        hel = rows(data / f"{name}_helicities.txt")
        colour = rows(data / f"{name}_colormatrix.txt")
        icolamp = rows(data / f"{name}_icolamp.txt")
        channels = rows(data / f"{name}_channels.txt")
        if len(hel) != d["ncomb"] or any(len(r) != npar + 1 for r in hel):
            failures.append(f"{name}: helicity table is not {d['ncomb']} x {npar}")
        if len(colour) != d["ncolor"] + 1 or len(icolamp) != d["nconfig"] or len(channels) != d["nconfig"]:
            failures.append(f"{name}: colour matrix / icolamp / channels sizes disagree with the json")
        events = rows(data / f"{name}_onshell_ref.txt")
        selection = rows(data / f"{name}_selection_ref.txt")
        if len(events) != 768 or len(selection) != 768:
            failures.append(f"{name}: {len(events)} events, {len(selection)} selection lines, not 768")
        masses = [MT if m == "MT" else 0.0 for m in d["masses"]]
        for r in events:
            f = [float(x) for x in r]
            p = [f[2 + 4 * i:6 + 4 * i] for i in range(npar)]
            me = f[2 + 4 * npar]
            sqrt_s = f[1]
            if not (me > 0 and math.isfinite(me)):
                failures.append(f"{name}: event {r[0]}: ME {me}")
            for k in range(4):
                if abs(p[0][k] + p[1][k] - sum(q[k] for q in p[2:])) > 1e-12 * sqrt_s:
                    failures.append(f"{name}: event {r[0]}: momentum not conserved")
                    break
            for q, m in zip(p, masses):
                if abs(dot(q, q) - m * m) > 1e-9 * sqrt_s ** 2:
                    failures.append(f"{name}: event {r[0]}: p^2 = {dot(q, q)}, not {m * m}")
                    break
        for r in selection:
            selhel, selcol = int(r[6]), int(r[7])
            if not (1 <= selhel <= d["ncomb"] and 0 <= selcol <= d["ncolor"]):
                failures.append(f"{name}: selection line {r[0]}: selhel {selhel}, selcol {selcol}")
            igraph = int(r[4])
            # A colour is chosen exactly where igraph names a configuration, among its flows.
            if (selcol == 0) != (igraph == 0) or (selcol and icolamp[igraph - 1][selcol - 1] != "1"):
                failures.append(f"{name}: selection line {r[0]}: selcol {selcol} at igraph {igraph}")
    return len(subs)


def main():
    here = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent)
    data = here / "pp_tt012j"
    failures = []
    count = check_folder(data, 18, failures)
    # pp -> t t~ + 3 jets with one light quark pair (make_madevent_reference.sh).
    count += check_folder(here / "pp_tt3j", 4, failures)
    worst = 0.0
    for r in rows(data / "uux_ttx_onshell_ref.txt"):
        f = [float(x) for x in r]
        p = [f[2 + 4 * i:6 + 4 * i] for i in range(4)]
        s = 2 * dot(p[0], p[1])
        t = MT * MT - 2 * dot(p[0], p[2])
        u = MT * MT - 2 * dot(p[0], p[3])
        textbook = 4 / 9 * G ** 4 * (((MT * MT - t) ** 2 + (MT * MT - u) ** 2) / s ** 2 + 2 * MT * MT / s)
        worst = max(worst, abs(f[-1] / textbook - 1))
    print(f"uux_ttx vs the textbook formula: largest relative difference {worst:.2e}")
    if worst > 1e-12:
        failures.append(f"uux_ttx: {worst:.2e} from the textbook formula")
    reference = {int(r[0]): float(r[-2]) for r in rows(here / "gg_tt_onshell_ref.txt")}
    cross = rows(data / "gg_ttx_on_gg_tt_events.txt")
    worst = max(abs(float(r[5]) / reference[int(r[0])] - 1) for r in cross)
    print(f"pp_tt012j's gg_ttx vs gg_tt_onshell_ref.txt on its {len(cross)} events: {worst:.2e}")
    if len(cross) != len(reference) or worst > 1e-12:
        failures.append(f"gg_ttx cross-check: {len(cross)} events, {worst:.2e}")
    if failures:
        print("\n".join(failures[:40]))
        sys.exit(1)
    print(f"{count} subprocesses checked")


if __name__ == "__main__":
    main()
