#!/usr/bin/env python3
"""Plot the Zippel-step times of `hepex_bench zippel` against the skeleton
size T, next to the seed paper's Table 3 (FIRE on an A100 and on a 12-core
Xeon Gold 6126: the A100 time is the Xeon time over the A100 speedup).

usage: plot_zippel.py OUT.png FILE...
  FILE: JSON written by `hepex_bench zippel --json` (rows of all files are
  plotted together; for a size in several files, the last one's). Needs
  python3-matplotlib.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Table 3 of the seed paper: terms, Xeon seconds, A100 speedup over the Xeon.
PAPER = [(125e3, 44, 3.81), (300e3, 255, 7.46), (750e3, 1550, 10.76), (4.8e6, 74431, 14.57)]


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    summaries = [json.load(open(path)) for path in paths]
    all_rows = [r for s in summaries for r in s["rows"]]
    fig, ax = plt.subplots(figsize=(10.5, 4.8))
    ax.plot([t for t, _, _ in PAPER], [s / x for t, s, x in PAPER], "s--", color="C3",
            label="paper: FIRE on A100")
    ax.plot([t for t, _, _ in PAPER], [s for t, s, _ in PAPER], "^--", color="C7",
            label="paper: FIRE on 12-core Xeon 6126")
    spaces = (("device", summaries[0]["device"]), ("host", "1 core"))
    colours = {("device", "quadratic"): "C0", ("device", "fast"): "C1",
               ("host", "quadratic"): "C2", ("host", "fast"): "C4"}
    for (space, name), method in ((s, m) for s in spaces for m in ("quadratic", "fast")):
        # Rows from before the fast solve have no "method": they are quadratic.
        # A size measured in several files: the last file's row.
        rows = sorted({r["terms"]: r for r in all_rows
                       if r["space"] == space and r.get("method", "quadratic") == method}.items(),
                      key=lambda item: item[0])
        if not rows:
            continue
        terms = [t for t, _ in rows]
        colour = colours[(space, method)]
        label = "O(T^2)" if method == "quadratic" else "O(T log^2 T)"
        ax.plot(terms, [r["overall_seconds"] for _, r in rows], "o-", color=colour,
                label=f"hepex {label} overall, {name}")
        ax.plot(terms, [r["solve_seconds"] for _, r in rows], "o:", color=colour,
                label=f"hepex {label} solves only, {name}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("skeleton terms T (one T x T system, 16-17 right-hand sides)")
    ax.set_ylabel("seconds")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title("Zippel step, last variable of degree 16")
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main()
