#!/usr/bin/env python3
"""Plot matrix-element throughput with several evaluations in flight
(`hepex_bench me --in-flight K`, one JSON per K): per process and precision,
MEs/s against the events of one evaluation (left) and against the events in
flight, K times that (right). Prints the Markdown table of perf/results/amplitudes/README.md:
MEs/s per K and batch, and the smallest batch reaching 90% of the K = 1
sweep's peak.

usage: plot_me_in_flight.py OUT.png PROCESS PRECISION JSON [JSON ...]
Needs python3-matplotlib.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def curves(paths, process, precision):
    """{K: [(events per evaluation, MEs/s), ...]} and the K = 1 peak."""
    by_k, peak = {}, None
    for path in paths:
        data = json.load(open(path))
        for row in data["rows"]:
            if row["process"] == process and row["precision"] == precision:
                k = row.get("in_flight", 1)
                by_k.setdefault(k, []).append((row["events"], row["mes_per_second"]))
        for p in data["peaks"]:
            if p["process"] == process and p["precision"] == precision and path == paths[0]:
                peak = p["peak_mes_per_second"]
    return {k: sorted(v) for k, v in sorted(by_k.items())}, peak


def main():
    out, process, precision, paths = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    by_k, peak = curves(paths, process, precision)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for k, points in by_k.items():
        events = [e for e, _ in points]
        rates = [r for _, r in points]
        axes[0].plot(events, rates, marker="o", ms=3, label=f"{k} in flight")
        axes[1].plot([k * e for e in events], rates, marker="o", ms=3, label=f"{k} in flight")
    for ax, label in zip(axes, ["events per evaluation", "events in flight (K x events)"]):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel(label)
        ax.axhline(0.9 * peak, color="grey", lw=0.8, ls=":")
        ax.grid(True, which="both", lw=0.3)
    axes[0].set_ylabel("MEs/s")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"{process} {precision}: evaluations kept in flight (dotted: 90% of the K = 1 peak)")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    batches = sorted({e for points in by_k.values() for e, _ in points})
    print("| events | " + " | ".join(f"K = {k}" for k in by_k) + " |")
    print("|---:|" + "---:|" * len(by_k))
    for b in batches:
        cells = [f"{dict(points).get(b, float('nan')):.3g}" for points in by_k.values()]
        print(f"| {b} | " + " | ".join(cells) + " |")
    first = [next((e for e, r in points if r >= 0.9 * peak), None) for points in by_k.values()]
    print("| 90% of the K = 1 peak at | " + " | ".join(str(f) for f in first) + " |")


if __name__ == "__main__":
    main()
