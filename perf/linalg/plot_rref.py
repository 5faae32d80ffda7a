#!/usr/bin/env python3
"""Plot RREF time against n with cubic fits (as Linac's Fig. 3).

usage: plot_rref.py OUT.png SERIES...
  SERIES is LABEL=FILE[@BLOCK] (split at the last "="), FILE being a JSON file written by
  `hepex_bench rref --json` (@BLOCK: only its rows of that --blocks value, e.g. @-1 the
  unblocked algorithm, @0 the automatic choice) or `hepex_bench rref-flint`, or a text file of
  `... n=N ... seconds=T` lines (Linac's driver output). Needs python3-matplotlib (Debian).
Prints the fit t(n) = c0 + c3 n^3 (least squares) for every series.
"""
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def load(spec):
    path, _, block = spec.partition("@")
    text = open(path).read()
    try:
        rows = json.loads(text)["rows"]
        return [(r["n"], r["seconds"]) for r in rows
                if not block or r.get("block_columns") == int(block)]
    except (json.JSONDecodeError, KeyError):
        points = []
        for line in text.splitlines():
            n = re.search(r"\bn=(\d+)", line)
            t = re.search(r"\bseconds=([0-9.eE+-]+)", line)
            if n and t:
                points.append((int(n.group(1)), float(t.group(1))))
        return points


def main():
    out, series = sys.argv[1], sys.argv[2:]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for item in series:
        label, spec = item.rsplit("=", 1)
        points = sorted(load(spec))
        if not points:
            continue
        n = np.array([p[0] for p in points], dtype=float)
        t = np.array([p[1] for p in points])
        line = ax.plot(n, t, "o", label=label)[0]
        if len(n) >= 2:
            design = np.vstack([np.ones_like(n), n**3]).T
            (c0, c3), *_ = np.linalg.lstsq(design, t, rcond=None)
            grid = np.linspace(n.min(), n.max(), 200)
            ax.plot(grid, c0 + c3 * grid**3, "-", color=line.get_color(), alpha=0.6)
            print(f"{label}: t(n) = {c0:.3g} s + {c3:.3g} s * n^3")
    ax.set_xlabel("n (square n x n matrix)")
    ax.set_ylabel("seconds")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main()
