"""table.py: the campaigns of campaigns.sh as a Markdown table, from their -json verdicts and the
wall time /usr/bin/time wrote at the end of each .err file.

    python3 results/baseline-journey/ab-baseline/table.py results/baseline-journey/ab-baseline
"""
import glob, json, os, re, sys

def short(name):
    m = re.search(r"impl=(\w+).*threads=(\d+)", name)
    return f"{m.group(1)} t{m.group(2)}"

def main(d):
    print("| campaign | HEAD | verdict | wall | cells |")
    print("|---|---|---|---:|---|")
    for path in sorted(glob.glob(os.path.join(d, "*.json")), key=lambda p: (p.split("/")[-1].split("-")[0], p)):
        name = os.path.basename(path)[:-5]
        v = json.load(open(path))
        wall = re.findall(r"wall ([0-9.]+) s", open(path[:-5] + ".err").read())
        cells = [c for c in v["cells"] if c["unit"] == "sec/op" and c["verdict"] != "NOT-GATED"]
        desc = "; ".join(f"{short(c['name'])} {c['verdict']} {c['reason'].split(':')[0]}" for c in cells)
        head = next(h for p, h in (("aa", "the same build"), ("d10", "exp-double10"), ("move", "exp-move")) if name.startswith(p))
        print(f"| {name} | {head} | {v['verdict']} | {float(wall[-1]) / 60:.1f} min | {desc} |")

main(sys.argv[1])
