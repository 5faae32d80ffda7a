#!/usr/bin/env python3
"""Writes P_channels.txt (P = gg_tt .. gg_ttggg) in this directory from MadGraph's
own description of MadEvent's integration channels in a madgraph4gpu checkout
outside this repository: SubProcesses/P1_*/configs.inc (per configuration
iconfig: the daughters of each propagator and whether it is a t-channel
one), config_subproc_map.inc (CONFSUB: the configuration's diagram in the
subprocess's numbering, the channel id MadEvent passes to the bridge, as
CUDACPP numbers its diagrams) and props.inc (each propagator's mass and
width). Usage:
    python3 tests/data/madgraph/extract_channels.py MG4GPU/epochX/cudacpp
Then tools/madgraph/make_process_tables.py writes the headers the library uses."""
import pathlib
import re
import sys

here = pathlib.Path(__file__).parent
processes = {"gg_tt": "P1_gg_ttx", "gg_ttg": "P1_gg_ttxg", "gg_ttgg": "P1_gg_ttxgg",
             "gg_ttggg": "P1_gg_ttxggg"}
masses = {"ZERO": "0", "ABS(MDL_MT)": "MT", "ABS(MDL_WT)": "WT"}


def read(directory, particles):
    configs = (directory / "configs.inc").read_text()
    props = (directory / "props.inc").read_text()
    count = int(re.search(r"DATA MAPCONFIG\(0\)/(\d+)/", configs).group(1))
    subproc = (directory / "config_subproc_map.inc").read_text()
    diagram = {int(c): int(d) for c, d in
               re.findall(r"DATA \(CONFSUB\(I,(\d+)\),I=1,1\)/(\d+)/", subproc)}
    forest = {(int(i), int(c)): (int(a), int(b)) for i, c, a, b in
              re.findall(r"DATA \(IFOREST\(I,-(\d+),(\d+)\),I=1,2\)/(-?\d+),(-?\d+)/", configs)}
    tprid = {(int(i), int(c)): int(t) for i, c, t in
             re.findall(r"DATA TPRID\(-(\d+),(\d+)\)/(-?\d+)/", configs)}
    mass = {(int(i), int(c)): masses[m] for i, c, m in
            re.findall(r"PRMASS\(-(\d+),(\d+)\) *= *(\S+)", props)}
    width = {(int(i), int(c)): masses[w] for i, c, w in
             re.findall(r"PRWIDTH\(-(\d+),(\d+)\) *= *(\S+)", props)}
    assert sorted(diagram) == list(range(1, count + 1)), directory
    rows = []
    # MadEvent's get_channel_cut (genps.f) reads the first particles - 3
    # propagators of each configuration.
    for c in range(1, count + 1):
        row = [str(c), str(diagram[c])]
        for i in range(1, particles - 2):
            a, b = forest[(i, c)]
            row += [str(a), str(b), "t" if tprid[(i, c)] != 0 else "s", mass[(i, c)],
                    width[(i, c)]]
        rows.append(" ".join(row))
    return count, rows


def main():
    root = pathlib.Path(sys.argv[1])
    for n, (name, sub) in enumerate(processes.items()):
        directory = root / f"{name}.mad" / "SubProcesses" / sub
        count, rows = read(directory, 4 + n)
        header = [
            f"# {name}: MadEvent's integration channels, from configs.inc, config_subproc_map.inc "
            f"and props.inc of "
            f"{name}.mad/SubProcesses/{sub} (extract_channels.py): {count} configurations",
            "# iconfig diagram (CONFSUB: the channel id), then for each propagator -i, i = 1 .. particles - 3: d1 d2 "
            "(daughters: > 0 external particle, < 0 propagator) s|t (t-channel: TPRID != 0) "
            "mass width (0, MT or WT)",
        ]
        (here / f"{name}_channels.txt").write_text("\n".join(header + rows) + "\n")


if __name__ == "__main__":
    main()
