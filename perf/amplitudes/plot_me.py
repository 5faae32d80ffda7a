#!/usr/bin/env python3
"""Plot matrix-element throughput against the batch size, as in the CUDACPP
kernel-splitting paper's Fig. 4: one panel per process, MEs/s against events
per launch (log-log), hepex per precision and colour-sum method, CUDACPP's
check executable (FPTYPE d and m) from the same session, and one host core as
horizontal lines. Prints the Markdown tables of perf/results/amplitudes/README.md: MEs/s per
batch; per configuration its peak and the smallest batch reaching 90% of that
peak; and what the goal of reaching 90% at a batch 10x smaller than CUDACPP's
allows (below).

usage: plot_me.py OUT.png DEVICE_JSON [HOST_JSON] [CUDACPP_TSV]
  DEVICE_JSON, HOST_JSON: written by `hepex_bench me --json` (GPU build, host
  build); CUDACPP_TSV: perf/amplitudes/run_me_bench.sh's cudacpp.tsv (process, FPTYPE,
  events, blocks, threads, iterations, MEs/s (3), MEs/s (3a)). Pass '' to
  skip one. Needs python3-matplotlib.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {"double": "-", "mixed": "--", "float": ":"}
CUDACPP_FP = {"d": "double", "m": "mixed"}


def load(path):
    return json.load(open(path)) if path else None


def cudacpp_rows(path):
    """{(process, precision): [(events, MEs/s (3)), ...]} from cudacpp.tsv."""
    curves = {}
    if not path:
        return curves
    for line in open(path):
        f = line.split()
        if len(f) < 7:
            continue  # a run that printed no rate
        curves.setdefault((f[0], CUDACPP_FP[f[1]]), []).append((int(f[2]), float(f[6])))
    return curves


def ours(summary):
    """{(process, precision, colour_sum): [(events, MEs/s), ...]}."""
    curves = {}
    for r in summary["rows"] if summary else []:
        key = (r["process"], r["precision"], r["colour_sum"])
        curves.setdefault(key, []).append((r["events"], r["mes_per_second"]))
    return curves


def peak_and_90(points):
    peak = max(rate for _, rate in points)
    at90 = min(n for n, rate in points if rate >= 0.9 * peak)
    return peak, at90


def beyond_the_peak_rate_us(points, peak):
    """{events: us that an evaluation took beyond events / peak}."""
    return {n: 1e6 * (n / rate - n / peak) for n, rate in points}


def print_goal_table(gpu, cudacpp):
    """90% of the peak P at N events means N / rate(N) <= N / (0.9 P): an
    evaluation may take at most N / (9 P) beyond the time its events take at
    the peak rate, for launch, fence, and the kernel's ramp and drain together.
    N is a tenth of the batch where CUDACPP reaches 90% of its peak."""
    print("| process | precision | colour sum | CUDACPP 90% at | N = a tenth | "
          "allowed beyond the peak rate at N, us | ours beyond the peak rate, us |")
    print("|---|---|---|---:|---:|---:|---|")
    for key in sorted(gpu):
        cc = cudacpp.get(key[:2])
        if not cc:
            continue
        peak, _ = peak_and_90(gpu[key])
        _, cat90 = peak_and_90(cc)
        goal = cat90 / 10
        beyond = beyond_the_peak_rate_us(gpu[key], peak)
        near = sorted(beyond, key=lambda n: abs(n - goal))[:2]
        ours_near = ", ".join(f"{beyond[n]:.1f} at {n}" for n in sorted(near))
        print(f"| {key[0]} | {key[1]} | {key[2]} | {cat90} | {goal:g} | "
              f"{1e6 * goal / (9 * peak):.1f} | {ours_near} |")


def main():
    out = sys.argv[1]
    device = load(sys.argv[2])
    host = load(sys.argv[3]) if len(sys.argv) > 3 else None
    cudacpp = cudacpp_rows(sys.argv[4] if len(sys.argv) > 4 else "")
    gpu, cpu = ours(device), ours(host)
    processes = sorted({k[0] for k in gpu}, key=lambda p: len(p))
    fig, axes = plt.subplots(1, len(processes), figsize=(4.2 * len(processes), 4.4), squeeze=False)
    for ax, process in zip(axes[0], processes):
        for (p, precision, method), points in sorted(gpu.items()):
            if p != process:
                continue
            n, rate = zip(*sorted(points))
            colour = "C0" if method == "kernel" else "C2"
            ax.plot(n, rate, STYLE[precision], marker="o", ms=3, color=colour,
                    label=f"hepex {precision}, {method}")
        for (p, precision), points in sorted(cudacpp.items()):
            if p != process:
                continue
            n, rate = zip(*sorted(points))
            ax.plot(n, rate, STYLE[precision], marker="s", ms=3, color="C3",
                    label=f"CUDACPP {precision}")
        for (p, precision, method), points in sorted(cpu.items()):
            if p == process and method == "kernel":
                ax.axhline(max(r for _, r in points), ls=STYLE[precision], color="C7",
                           label=f"hepex {precision}, 1 host core")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("events per evaluation")
        ax.set_title(process)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6)
    axes[0][0].set_ylabel("matrix elements per second")
    fig.suptitle(f"{device['device']}: MEs/s against the batch size", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=120)

    # Markdown: MEs/s per batch, then peaks and 90% batches.
    columns = sorted(gpu)
    batches = sorted({n for pts in gpu.values() for n, _ in pts})
    print("| events | " + " | ".join(f"{p} {pr} {m}" for p, pr, m in columns) + " |")
    print("|---:|" + "---:|" * len(columns))
    for n in batches:
        cells = [f"{dict(gpu[c]).get(n, float('nan')):.3g}" for c in columns]
        print(f"| {n} | " + " | ".join(cells) + " |")
    print()
    print("| process | precision | colour sum | peak MEs/s | 90% of peak at | "
          "CUDACPP peak | CUDACPP 90% at | peak ratio | batch ratio |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for key in columns:
        peak, at90 = peak_and_90(gpu[key])
        cc = cudacpp.get(key[:2])
        if cc:
            cpeak, cat90 = peak_and_90(cc)
            extra = f"{cpeak:.3g} | {cat90} | {peak / cpeak:.2f} | {cat90 / at90:.2g}"
        else:
            extra = " | | | "
        print(f"| {key[0]} | {key[1]} | {key[2]} | {peak:.3g} | {at90} | {extra} |")
    for key, points in sorted(cpu.items()):
        peak, at90 = peak_and_90(points)
        print(f"| {key[0]} | {key[1]} | {key[2]}, 1 host core | {peak:.3g} | {at90} | | | | |")
    print()
    print_goal_table(gpu, cudacpp)


if __name__ == "__main__":
    main()
