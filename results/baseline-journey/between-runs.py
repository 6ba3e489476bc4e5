#!/usr/bin/env python3
"""between-runs.py: how much one commit's cells move from one default run to the next, and
how much of that the speed probe sees.

For each cell at 1 and 2 threads of the runs given (default: default-runs/run-*.txt, in time
order): the sd of the runs' mean log ns/op (as a percentage), the share of it the runs' mean
log probe-ns/call explains (R^2 of a line through the run means) and that line's slope, the sd
that is left, and the lag-1 autocorrelation of what is left across runs in time order (near
zero: it belongs to each process, not to a stretch of minutes that neighbouring runs share).
Windows that were set aside (under a "quarantined: why" line; "quarantined: no" is kept) are skipped.
With --yardstick UNIT another per-window yardstick takes the probe's place (floor-probe-ns/call:
the floor probe, which only windows of a workload with a floor carry).

    python3 results/baseline-journey/between-runs.py [--yardstick UNIT] [RUN.txt ...]
"""
import glob
import math
import os
import statistics as st
import sys


def read(path, unit):
    """Yields (cell, log ns/op, log unit) for every kept 1- and 2-thread window that has unit."""
    aside = False
    for line in open(path):
        if line.startswith("quarantined:"):
            aside = line.split(":", 1)[1].strip() not in ("", "no")
            continue
        if not line.startswith("Benchmark") or aside:
            continue
        f = line.split()
        name = f[0]
        if not (name.endswith("threads=1") or name.endswith("threads=2")):
            continue
        vals = {f[i + 1]: float(f[i]) for i in range(2, len(f) - 1, 2)}
        if vals.get("ns/op", 0) > 0 and vals.get(unit, 0) > 0:
            yield name, math.log(vals["ns/op"]), math.log(vals[unit])


def line(x, y):
    """Slope and R^2 of the least-squares line of y on x."""
    mx, my = st.mean(x), st.mean(y)
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return 0.0, 0.0
    slope = sum((a - mx) * (b - my) for a, b in zip(x, y)) / sxx
    return slope, slope * slope * sxx / syy


def lag1(z):
    m = st.mean(z)
    den = sum((a - m) ** 2 for a in z)
    return sum((z[i] - m) * (z[i + 1] - m) for i in range(len(z) - 1)) / den if den else 0.0


def main(paths, unit):
    cells = {}
    for run, path in enumerate(paths):
        for name, y, p in read(path, unit):
            cells.setdefault(name, {}).setdefault(run, []).append((y, p))
    print(f"{len(paths)} runs, yardstick {unit}")
    print("| cell | between-run sd | R^2 on the yardstick | slope | sd left | lag-1 of what is left |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, runs in cells.items():
        order = sorted(runs)
        ym = [st.mean(v[0] for v in runs[r]) for r in order]
        pm = [st.mean(v[1] for v in runs[r]) for r in order]
        if len(ym) < 3:
            continue
        slope, r2 = line(pm, ym)
        my, mp = st.mean(ym), st.mean(pm)
        left = [y - my - slope * (p - mp) for y, p in zip(ym, pm)]
        short = name.removeprefix("Benchmark")
        print(f"| {short} | {100 * st.pstdev(ym):.1f}% | {r2:.2f} | {slope:.2f} | {100 * st.pstdev(left):.1f}% | {lag1(left):+.2f} |")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    args, unit = sys.argv[1:], "probe-ns/call"
    if args[:1] == ["--yardstick"] and len(args) > 1:
        args, unit = args[2:], args[1]
    main(args or sorted(glob.glob(os.path.join(here, "default-runs", "run-*.txt"))), unit)
