#!/usr/bin/env python3
"""MadGraph's tables of one CUDACPP subprocess directory (issue 41: every
subprocess of pp -> t t~ + 0..2 jets), read from a madgraph4gpu checkout
OUTSIDE this repository, written as the files the gluon processes have:

  NAME_helicities.txt   tHel[ncomb][npar] of CPPProcess.cc, "index h1 .. hn"
  NAME_colormatrix.txt  colorDenom and colorMatrix of color_sum.cc
  NAME_icolamp.txt      coloramps.h: per configuration, 1 where a colour flow may be chosen
  NAME_channels.txt     configs.inc, config_subproc_map.inc, props.inc (extract_channels.py's format)
  NAME_colourbasis.txt  matrix1.f's colour basis: per colour flow (jamp) its product of
                        strings T(a1,...,ak,i,j) = (T^a1 ... T^ak)_{i j}, checked against
                        color_sum.cc's matrix (matrix1.f packs the same rows, off-diagonals doubled)

and prints one JSON line describing the subprocess (name, the processes it
groups, legs, npar, ncomb, ncolor, ndiagrams, nconfig, the masses of the
legs), which make_subprocess_reference.sh keeps in NAME_subprocess.json.
Usage:
    python3 extract_subprocess_tables.py SUBPROCESS_DIR OUT_DIR [LABEL]
SUBPROCESS_DIR: e.g. MG4GPU/epochX/cudacpp/pp_tt012j.mad/SubProcesses/P1_gu_ttxu;
NAME is the directory's name without its P<n>_ prefix (gu_ttxu, MadGraph's);
LABEL names the source in the files' headers."""
import json
import pathlib
import re
import sys

import extract_channels

# Legs as MadGraph spells them in "Process:" lines -> (PDG code, mass name).
LEGS = {"g": (21, "0"), "t": (6, "MT"), "t~": (-6, "MT")}
for pdg, quark in enumerate(["d", "u", "s", "c", "b"], start=1):
    LEGS[quark] = (pdg, "0")
    LEGS[quark + "~"] = (-pdg, "0")


def parse_processes(cpp):
    """The processes the subprocess groups, from CPPProcess.cc's header lines."""
    found = re.findall(r"^// Process: (.*?) WEIGHTED", cpp, re.M)
    if not found:
        raise SystemExit("no '// Process:' line in CPPProcess.cc")
    return [p.strip() for p in found]


def legs_of(process):
    incoming, outgoing = process.split(">")
    names = incoming.split() + outgoing.split()
    for n in names:
        if n not in LEGS:
            raise SystemExit(f"unknown particle '{n}' in '{process}'")
    return names


def helicities(cpp, npar):
    block = re.search(r"tHel\[ncomb\]\[npar\] = \{(.*?)\};", cpp, re.S)
    rows = re.findall(r"\{([^{}]*)\}", block.group(1))
    table = [[int(x) for x in r.split(",")] for r in rows]
    for row in table:
        if len(row) != npar or any(h not in (-1, 0, 1) for h in row):
            raise SystemExit(f"helicity row {row}: not {npar} values of -1, 0, 1")
    return table


def colour_matrix(color_sum):
    denom = re.search(r"colorDenom\[ncolor\] = \{([^}]*)\}", color_sum)
    matrix = re.search(r"colorMatrix\[ncolor\]\[ncolor\] = \{(.*?)\}; // 2-D", color_sum, re.S)
    if not denom or not matrix:
        raise SystemExit("colorDenom / colorMatrix not found in color_sum.cc")
    denominators = [int(x) for x in denom.group(1).split(",")]
    rows = [[int(x) for x in r.split(",")] for r in re.findall(r"\{([^{}]*)\}", matrix.group(1))]
    n = len(denominators)
    if len(rows) != n or any(len(r) != n for r in rows):
        raise SystemExit(f"colour matrix is not {n} x {n}")
    if any(rows[i][j] != rows[j][i] for i in range(n) for j in range(n)):
        raise SystemExit("colour matrix is not symmetric")
    return denominators, rows


def colour_basis(matrix1, cf):
    """matrix1.f's colour basis in MadGraph's order: after each packed row of
    CF (upper triangle, off-diagonal entries doubled) a comment
    "C     1 T(2,1) T(5,3,4)" names that row's basis element (coefficient 1
    for every element of these processes)."""
    lines = []
    for line in matrix1.splitlines():  # join Fortran continuation lines ("     $ ...")
        if len(line) > 5 and line[:5] == "     " and line[5] not in " 0" and lines:
            lines[-1] += line[6:]
        else:
            lines.append(line)
    basis, packed, row = [], [], []
    for line in lines:
        data = re.match(r"\s+DATA \(CF\(I\),I=\s*\d+,\s*\d+\) /([^/]*)/", line)
        if data:
            row = [int(x) for x in data.group(1).split(",")]
            continue
        comment = re.match(r"C\s+(\S+)\s+((?:T\([0-9,]+\)\s*)+)$", line)
        if comment and row:
            if comment.group(1) != "1":
                raise SystemExit(f"colour basis element with coefficient {comment.group(1)}: {line}")
            basis.append(" ".join(re.findall(r"T\([0-9,]+\)", comment.group(2))))
            packed.append(row)
            row = []
    n = len(cf)
    if len(basis) != n:
        raise SystemExit(f"{len(basis)} colour basis elements in matrix1.f, ncolor = {n}")
    for i in range(n):
        expected = [cf[i][i]] + [2 * cf[i][j] for j in range(i + 1, n)]
        if packed[i] != expected:
            raise SystemExit(f"matrix1.f's CF row {i + 1} {packed[i]} is not color_sum.cc's {expected}")
    return basis


def icolamp(coloramps, ncolor):
    lines = [l for l in coloramps.splitlines() if "// ICONFIG=" in l]
    table = []
    for line in lines:
        body = re.sub(r"//.*", "", line)
        flags = re.findall(r"true|false", body)
        if len(flags) != ncolor:
            raise SystemExit(f"icolamp line with {len(flags)} flags, not {ncolor}: {line}")
        table.append([1 if f == "true" else 0 for f in flags])
    nconfig = int(re.search(r"nconfigSDE = (\d+)", coloramps).group(1))
    if len(table) != nconfig:
        raise SystemExit(f"{len(table)} icolamp lines, nconfigSDE = {nconfig}")
    return table


def write_tables(out, name, label, processes, legs, hel, denominators, cf, amps, basis, channels,
                 ndiagrams, ncolor, sources):
    """Writes NAME_{helicities,colormatrix,icolamp,channels,colourbasis}.txt in OUT and prints
    the subprocess's JSON line; sources names the file each table came from and the tool."""
    count, channel_rows = channels
    text = " ".join(legs)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}_helicities.txt").write_text("\n".join(
        [f"# helicity combinations tHel[ncomb][npar] (index 0..{len(hel) - 1}; SelHel = index+1) "
         f"for {processes[0]}, from {sources['helicities']} of {label}",
         f"# particle order: {text}"] +
        [f"{i} " + " ".join(f"{h:2d}" for h in row) for i, row in enumerate(hel)]) + "\n")
    (out / f"{name}_colormatrix.txt").write_text("\n".join(
        [f"# colour matrix CF (integer, symmetric) and per-row denominators for {processes[0]}, "
         f"from {sources['colour']} of {label}",
         f"# |M|^2(hel) = sum_i sum_j conj(jamp_i) * CF[i][j] / denom[i] * jamp_j   (ncolor = {ncolor})",
         "# line 1: denominators; then ncolor rows of CF",
         " ".join(map(str, denominators))] + [" ".join(map(str, r)) for r in cf]) + "\n")
    (out / f"{name}_icolamp.txt").write_text("\n".join(
        [f"# {name}: icolamp of {sources['icolamp']} ({label}): line ICONFIG, 1 where colour flow i "
         "(MadGraph's order) may be chosen"] + [" ".join(map(str, r)) for r in amps]) + "\n")
    (out / f"{name}_channels.txt").write_text("\n".join(
        [f"# {name}: MadEvent's integration channels, from configs.inc, config_subproc_map.inc and "
         f"props.inc of {label} ({sources['tool']}): {count} configurations",
         "# iconfig diagram (CONFSUB: the channel id), then for each propagator -i, i = 1 .. "
         "particles - 3: d1 d2 (daughters: > 0 external particle, < 0 propagator) s|t "
         "(t-channel: TPRID != 0) mass width (0, MT or WT)"] + channel_rows) + "\n")
    (out / f"{name}_colourbasis.txt").write_text("\n".join(
        [f"# {name}: MadGraph's colour basis for {processes[0]}, from matrix1.f of {label}: line i "
         "is colour flow i (jamp i, MadGraph's order), a product of strings "
         "T(a1,...,ak,i,j) = (T^a1 ... T^ak)_{i j}"] + basis) + "\n")
    print(json.dumps({
        "name": name, "processes": processes, "legs": legs,
        "pdg": [LEGS[l][0] for l in legs], "masses": [LEGS[l][1] for l in legs],
        "npar": len(legs), "ncomb": len(hel), "ncolor": ncolor, "ndiagrams": ndiagrams,
        "nconfig": count, "source": label}))



def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit(__doc__)
    directory = pathlib.Path(sys.argv[1])
    out = pathlib.Path(sys.argv[2])
    label = sys.argv[3] if len(sys.argv) == 4 else str(directory)
    name = re.sub(r"^P\d+_", "", directory.name)
    cpp = (directory / "CPPProcess.cc").read_text()
    header = (directory / "CPPProcess.h").read_text()
    processes = parse_processes(cpp)
    legs = legs_of(processes[0])
    npar = len(legs)
    ndiagrams = int(re.search(r"ndiagrams = (\d+);", header).group(1))
    ncolor = int(re.search(r"ncolor = (\d+);", header).group(1))
    hel = helicities(cpp, npar)
    denominators, cf = colour_matrix((directory / "color_sum.cc").read_text())
    if len(denominators) != ncolor:
        raise SystemExit(f"colour matrix of {len(denominators)} flows, ncolor = {ncolor}")
    amps = icolamp((directory / "coloramps.h").read_text(), ncolor)
    basis = colour_basis((directory / "matrix1.f").read_text(), cf)
    count, channel_rows = extract_channels.read(directory, npar)
    if count != len(amps):
        raise SystemExit(f"{count} configurations in configs.inc, {len(amps)} in coloramps.h")
    write_tables(out, name, label, processes, legs, hel, denominators, cf, amps, basis,
                 (count, channel_rows), ndiagrams, ncolor,
                 {"helicities": "CPPProcess.cc", "colour": "color_sum.cc", "icolamp": "coloramps.h",
                  "tool": "extract_subprocess_tables.py"})


if __name__ == "__main__":
    main()
