#!/usr/bin/env python3
"""Plot modular product rates against n, per prime and method, with the
vendor DGEMM and int8 GEMM ceilings measured in the same runs.

usage: plot_gemm.py OUT.png FILE...
  FILE: JSON written by `hepex_bench gemm --json` (square shapes are plotted;
  others are ignored). One panel per file. Needs python3-matplotlib (Debian).
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


COLOURS = {"fp64": "C0", "int8": "C1", "multiword": "C2", "int64": "C3"}


def main():
    out, files = sys.argv[1], sys.argv[2:]
    fig, axes = plt.subplots(1, len(files), figsize=(4.2 * len(files), 4), sharey=True,
                             squeeze=False)
    for ax, path in zip(axes[0], files):
        summary = json.load(open(path))
        rows = [r for r in summary["rows"] if r["m"] == r["k"] == r["n"]]
        ceilings = {}
        for r in rows:
            ceilings[r["n"]] = (r["dgemm_flops_per_s"], r["int8_gemm_ops_per_s"])
        sizes = sorted(ceilings)
        ax.plot(sizes, [ceilings[n][0] / 1e12 for n in sizes], "k--", label="DGEMM (ceiling)")
        ax.plot(sizes, [ceilings[n][1] / 1e12 / 10 for n in sizes], "k:",
                label="int8 GEMM / 10")
        for method in sorted({r["method"] for r in rows}):
            points = sorted((r["n"], r["modular_ops_per_s"] / 1e12) for r in rows
                            if r["method"] == method)
            ax.plot([n for n, _ in points], [v for _, v in points], "o-", label=method,
                    color=COLOURS.get(method))
        ax.set_xscale("log", base=2)
        ax.set_title(f"p = {summary['prime']}")
        ax.set_xlabel("n (n x n x n)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    axes[0][0].set_ylabel("2 n^3 / t  [T(mod-op)/s]")
    fig.suptitle(f"hepex modgemm on {json.load(open(files[0]))['device']}")
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main()
