#!/usr/bin/env python3
"""MadGraph's tables of one subprocess directory of a plain MadEvent output
(MadGraph5_aMC@NLO's own Fortran, `output madevent DIR --hel_recycling=False`,
no CUDACPP plugin), for the subprocesses that madgraph4gpu ships no directory
of (issue 41: pp -> t t~ + 3 jets with one light quark pair). Writes the same
files as extract_subprocess_tables.py writes from a CUDACPP directory:

  NAME_helicities.txt   matrix1.f's NHEL table
  NAME_colormatrix.txt  matrix1.f's CF (real numbers there: written as integers over a
                        per-row denominator, the least common one of the row)
  NAME_icolamp.txt      coloramps.inc: ICOLAMP(i, iconfig, 1)
  NAME_channels.txt     configs.inc, config_subproc_map.inc, props.inc (extract_channels.py)
  NAME_colourbasis.txt  matrix1.f's colour basis (the comment after each row of CF)

and prints the subprocess's JSON line. The directory must hold one matrix
element (matrix1.f only: generate the process without its mirror, as
make_madevent_reference.sh does). Usage:
    python3 extract_madevent_subprocess_tables.py SUBPROCESS_DIR OUT_DIR NAME [LABEL]
NAME: hepex's name of the subprocess (MadGraph 3.1's directory names group
flavours as q, e.g. P3_qq_ttxggg for u u~ > t t~ g g g: uux_ttxggg)."""
import math
import pathlib
import re
import sys
from fractions import Fraction

import extract_channels
from extract_subprocess_tables import legs_of, write_tables


def fortran_lines(text):
    """Fixed-form Fortran with continuation lines ("     $ ...") joined."""
    lines = []
    for line in text.splitlines():
        if len(line) > 5 and line[:5] == "     " and line[5] not in " 0" and lines:
            lines[-1] += line[6:]
        else:
            lines.append(line)
    return lines


def processes_of(lines):
    """The processes of the subprocess: the header's "C     Process:" lines."""
    found = []
    for line in lines:
        match = re.match(r"C\s+Process: (.*?) WEIGHTED", line)
        if match:
            found.append(match.group(1).strip())
        elif found:
            break
    if not found:
        raise SystemExit("no 'C     Process:' line in matrix1.f")
    return found


def parameter(lines, name):
    for line in lines:
        match = re.search(rf"\b{name}\s*=\s*(\d+)", line)
        if match and "PARAMETER" in line:
            return int(match.group(1))
    raise SystemExit(f"no PARAMETER {name}")


def helicities(lines, npar, ncomb):
    table = {}
    for line in lines:
        match = re.match(r"\s+DATA \(NHEL\(I,\s*(\d+)\),I=1,(\d+)\) /([^/]*)/", line)
        if match:
            row = [int(x) for x in match.group(3).split(",")]
            if int(match.group(2)) != npar or len(row) != npar or any(h not in (-1, 0, 1) for h in row):
                raise SystemExit(f"helicity row {row}: not {npar} values of -1, 0, 1")
            table[int(match.group(1))] = row
    if sorted(table) != list(range(1, ncomb + 1)):
        raise SystemExit(f"{len(table)} helicity rows in matrix1.f, NCOMB = {ncomb}")
    return [table[i] for i in range(1, ncomb + 1)]


def fortran_real(text):
    """A D-exponent number; fixed-form Fortran ignores blanks (a continuation may split one)."""
    return float(re.sub(r"\s", "", text).upper().replace("D", "E"))


def colour(lines, ncolor):
    """CF row by row (DATA (CF(I, r),I= a, b) /.../ pieces) and, after each row, the
    comment "C     1 T(2,1) T(5,6,3,4)" naming its basis element. MadGraph writes
    CF's rationals in double precision: each is recovered as the nearest fraction
    of denominator <= 10^6 and must equal the written number to 1e-14."""
    rows, basis = {}, []
    for line in lines:
        data = re.match(r"\s+DATA \(CF\(I,\s*(\d+)\),I=\s*(\d+),\s*(\d+)\) /([^/]*)/", line)
        if data:
            r, a, b = (int(data.group(k)) for k in (1, 2, 3))
            values = data.group(4).split(",")
            if len(values) != b - a + 1:
                raise SystemExit(f"CF row {r}: {len(values)} values for I = {a}..{b}")
            for text in values:
                value = fortran_real(text)
                x = Fraction(value).limit_denominator(10**6)
                if abs(float(x) - value) > 1e-14 * max(1, abs(value)):
                    raise SystemExit(f"CF row {r}: {text} is no small fraction")
                rows.setdefault(r, []).append(x)
            continue
        comment = re.match(r"C\s+(\S+)\s+((?:T\([0-9,]+\)\s*)+)$", line)
        if comment and rows:
            if comment.group(1) != "1":
                raise SystemExit(f"colour basis element with coefficient {comment.group(1)}: {line}")
            basis.append(" ".join(re.findall(r"T\([0-9,]+\)", comment.group(2))))
    if sorted(rows) != list(range(1, ncolor + 1)) or any(len(rows[r]) != ncolor for r in rows):
        raise SystemExit(f"CF is not {ncolor} x {ncolor} in matrix1.f")
    if len(basis) != ncolor:
        raise SystemExit(f"{len(basis)} colour basis elements in matrix1.f, NCOLOR = {ncolor}")
    cf = [rows[r] for r in range(1, ncolor + 1)]
    if any(cf[i][j] != cf[j][i] for i in range(ncolor) for j in range(ncolor)):
        raise SystemExit("CF is not symmetric")
    denominators, integers = [], []
    for row in cf:
        d = 1
        for x in row:
            d = math.lcm(d, x.denominator)
        denominators.append(d)
        integers.append([int(x * d) for x in row])
    return denominators, integers, basis


def icolamp(text, ncolor, nconfig):
    table = {}
    for line in fortran_lines(text):
        match = re.match(r"\s+DATA\s*\(ICOLAMP\(I,(\d+),(\d+)\),I=1,(\d+)\)/([^/]*)/", line, re.I)
        if match:
            if int(match.group(2)) != 1:
                raise SystemExit("coloramps.inc holds more than one matrix element")
            flags = [f.strip().upper() for f in match.group(4).split(",")]
            if int(match.group(3)) != ncolor or len(flags) != ncolor:
                raise SystemExit(f"icolamp line with {len(flags)} flags, not {ncolor}")
            table[int(match.group(1))] = [1 if f == ".TRUE." else 0 for f in flags]
    if sorted(table) != list(range(1, nconfig + 1)):
        raise SystemExit(f"{len(table)} icolamp lines, {nconfig} configurations")
    return [table[c] for c in range(1, nconfig + 1)]


def main():
    if len(sys.argv) not in (4, 5):
        raise SystemExit(__doc__)
    directory = pathlib.Path(sys.argv[1])
    out = pathlib.Path(sys.argv[2])
    name = sys.argv[3]
    label = sys.argv[4] if len(sys.argv) == 5 else str(directory)
    if not (directory / "matrix1.f").is_file():
        raise SystemExit(f"{directory}: no matrix1.f (a MadEvent subprocess directory of "
                         "`output madevent DIR --hel_recycling=False`?)")
    if (directory / "matrix2.f").exists():
        raise SystemExit(f"{directory} holds more than one matrix element")
    lines = fortran_lines((directory / "matrix1.f").read_text())
    processes = processes_of(lines)
    legs = legs_of(processes[0])
    npar = parameter(fortran_lines((directory / "nexternal.inc").read_text()), "NEXTERNAL")
    if npar != len(legs):
        raise SystemExit(f"NEXTERNAL = {npar}, '{processes[0]}' has {len(legs)} legs")
    ndiagrams = parameter(lines, "NGRAPHS")
    ncolor = parameter(lines, "NCOLOR")
    hel = helicities(lines, npar, parameter(lines, "NCOMB"))
    denominators, cf, basis = colour(lines, ncolor)
    count, channel_rows = extract_channels.read(directory, npar)
    amps = icolamp((directory / "coloramps.inc").read_text(), ncolor, count)
    write_tables(out, name, label, processes, legs, hel, denominators, cf, amps, basis,
                 (count, channel_rows), ndiagrams, ncolor,
                 {"helicities": "matrix1.f", "colour": "matrix1.f", "icolamp": "coloramps.inc",
                  "tool": "extract_madevent_subprocess_tables.py"})


if __name__ == "__main__":
    main()
