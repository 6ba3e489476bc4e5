#!/usr/bin/env python3
"""Per cell of an ab windows file (windows.csv, plain or .gz): the A/A arm's
spread a round (sd of log(base-again/base) over rounds, over sqrt 2, as ab's
report line gives it), the median base window, and how many windows the speed
probe set aside.   python3 spread.py FILE...
"""
import collections, csv, gzip, math, statistics, sys

for path in sys.argv[1:]:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        rows = list(csv.DictReader(f))
    kept = collections.defaultdict(lambda: collections.defaultdict(list))
    total, aside = collections.Counter(), collections.Counter()
    for r in rows:
        total[r["cell"]] += 1
        if r["aside"]:
            aside[r["cell"]] += 1
            continue
        kept[r["cell"]][(int(r["round"]), r["arm"])].append(float(r["value"]))
    for cell, d in kept.items():
        aa, base = [], []
        for rd in sorted({k[0] for k in d}):
            b, b2 = d.get((rd, "base")), d.get((rd, "base-again"))
            if b and b2:
                aa.append(math.log(statistics.median(b2) / statistics.median(b)))
                base.append(statistics.median(b))
        if len(aa) < 3:
            continue
        print(f"{path}\t{cell}\trounds {len(aa)}\tbase {1e9 * statistics.median(base):.1f} ns"
              f"\tA/A sd a round {statistics.stdev(aa) / math.sqrt(2):.3f}"
              f"\tset aside {aside[cell]}/{total[cell]}")
