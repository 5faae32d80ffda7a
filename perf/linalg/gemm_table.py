#!/usr/bin/env python3
"""Markdown table of `hepex_bench gemm --json` results.

usage: gemm_table.py FILE...
One row per (prime, shape, method): the rate 2mkn/t and its ratio to the
vendor DGEMM and int8 GEMM measured in the same run.
"""
import json
import sys


def main():
    print("| p | M x K x N | method | GEMMs | T(mod-op)/s | DGEMM T/s | of DGEMM | int8 GEMM T/s | of int8 |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|")
    for path in sys.argv[1:]:
        summary = json.load(open(path))
        for r in summary["rows"]:
            rate = r["modular_ops_per_s"]
            kept = ", A kept" if r.get("a_kept") else ""
            print(f"| {summary['prime']} | {r['m']}x{r['k']}x{r['n']} | {r['method']}{kept} | {r['products']} "
                  f"| {rate / 1e12:.1f} | {r['dgemm_flops_per_s'] / 1e12:.1f} "
                  f"| {rate / r['dgemm_flops_per_s']:.2f} | {r['int8_gemm_ops_per_s'] / 1e12:.0f} "
                  f"| {rate / r['int8_gemm_ops_per_s']:.3f} |")


if __name__ == "__main__":
    main()
