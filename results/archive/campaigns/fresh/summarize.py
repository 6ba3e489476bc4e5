#!/usr/bin/env python3
"""Tables of ab campaigns from their verdict JSON files and wall times.

usage: summarize.py DIR  (DIR holds KIND-N.json and wall.log, lines 'NAME rc=R wall=Ss')
"""
import json, os, re, statistics, sys

d = sys.argv[1]
wall = {}
log = os.path.join(d, "wall.log")
if not os.path.exists(log):
    log = os.path.join(d, "log")
for line in open(log):
    m = re.match(r"(\S+) rc=(\d+) wall=(\d+)s", line)
    if m:
        wall[m.group(1)] = int(m.group(3))

BUDGET = {"d3-1", "aa-2", "d10-2", "move-2", "d3-2", "aa-3", "aa-6", "d10-3", "move-3"}

def short(name):
    impl = re.search(r"impl=(\w+)", name).group(1)
    t = re.search(r"threads=(\d+)", name).group(1)
    return f"{impl} t{t}"

# campaigns the log has no wall time for: from the end of the one before
mtimes = sorted((os.path.getmtime(os.path.join(d, f)), f[:-5]) for f in os.listdir(d) if re.match(r"\w+-\d+\.json$", f))
for (t0, _), (t1, n) in zip(mtimes, mtimes[1:]):
    wall.setdefault(n, int(t1 - t0))

kinds = {}
for f in sorted(os.listdir(d)):
    m = re.match(r"(\w+)-(\d+)\.json$", f)
    if m:
        kinds.setdefault(m.group(1), []).append((int(m.group(2)), f))

for kind, files in kinds.items():
    files.sort()
    verdicts, walls, time_cells, excl, pass_cells = [], [], 0, 0, 0
    others, others_pass, hm1, hm_instr = 0, 0, [], []
    rows = []
    for n, f in files:
        rep = json.load(open(os.path.join(d, f)))
        name = f[:-5]
        verdicts.append(rep["verdict"])
        if name in wall:
            walls.append(wall[name] / 60)
        cells = []
        for c in rep["cells"]:
            if c["unit"] == "sec/op" and "impl=hashmap" not in c["name"]:
                others += 1
                others_pass += c["verdict"] == "PASS"
            if c["unit"] == "sec/op" and "impl=hashmap" in c["name"] and c["name"].endswith("threads=1"):
                hm1.append(c["verdict"])
            if c["unit"] != "sec/op" and "impl=hashmap" in c["name"]:
                hm_instr.append(f"{c['verdict']} {100*(c['ratio']-1):+.2f}%")
            if c["unit"] == "sec/op":
                time_cells += 1
                lo, hi = c.get("lo", 0), c.get("hi", 0)
                if lo and hi and (lo > 1 or hi < 1):
                    excl += 1
                if c["verdict"] == "PASS":
                    pass_cells += 1
                iv = f" [{100*(lo-1):+.1f}%, {100*(hi-1):+.1f}%]" if lo and hi else ""
                cells.append(f"{short(c['name'])} {c['verdict']} {100*(c['ratio']-1):+.1f}%{iv}")
            else:
                cells.append(f"{short(c['name'])} instr {c['verdict']} {100*(c['ratio']-1):+.2f}%")
        how = "-budget 5m" if name in BUDGET else "defaults"
        w = f"{wall[name]/60:.1f} min" if name in wall else "?"
        rows.append(f"| {name} | {how} | {rep['verdict']} | {w} | " + "; ".join(cells) + " |")
    counts = {v: verdicts.count(v) for v in sorted(set(verdicts))}
    split = []
    for how in ("defaults", "-budget 5m"):
        sel = [(n, f) for n, f in files if (f[:-5] in BUDGET) == (how != "defaults")]
        if not sel:
            continue
        vs, op, on = [], 0, 0
        for n, f in sel:
            rep = json.load(open(os.path.join(d, f)))
            vs.append(rep["verdict"])
            for c in rep["cells"]:
                if c["unit"] == "sec/op" and "impl=hashmap" not in c["name"]:
                    on += 1
                    op += c["verdict"] == "PASS"
        ws = [wall[f[:-5]] / 60 for n, f in sel if f[:-5] in wall]
        split.append(f"- at {how}: {len(sel)} campaigns, " + ", ".join(f"{v} {vs.count(v)}" for v in sorted(set(vs))) +
                     f"; other designs' cells PASS {op} of {on}; wall median {statistics.median(ws):.1f} min")
    print(f"## {kind}: {len(files)} campaigns")
    print()
    med = f"{statistics.median(walls):.1f} min ({min(walls):.1f}–{max(walls):.1f})" if walls else "?"
    print(f"Overall: {', '.join(f'{k} {v}' for k, v in counts.items())}; wall time median {med}; "
          f"time cells PASS {pass_cells} of {time_cells}; intervals excluding no change {excl} of {time_cells}; "
          f"cells of the designs other than hashmap PASS {others_pass} of {others}; hashmap at 1 thread: time "
          f"{', '.join(hm1)}; instructions {', '.join(hm_instr)}.")
    print()
    print("\n".join(split))
    print()
    print("| campaign | run | verdict | wall | cells |\n|---|---|---|---:|---|")
    print("\n".join(rows))
    print()
