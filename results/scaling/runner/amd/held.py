# Turns campaigns of results/locks/run.sh (REPORT=1) into a held file: each
# change's base and head counts (instructions, lock profile) and, on head,
# head ÷ base as time measured it at 1 and 2 threads.
#   python3 held.py OUT IMPL:BRANCH:SEED... > held-amd.txt
import csv, json, sys, os, statistics as st
units = ["exclusive-locks/op","shared-locks/op","locked-instructions/op","shared-locked-instructions/op","atomics/op",
 "busiest-lock-acquisitions/op","busiest-locked-instructions/op","hottest-line-transfers/op","other-lines","other-line-transfers/op",
 "other-locks","busiest-lock-spins","other-spinning-locks/op","unseen-lock-atomics/op",
 "written-line-reads/op","read-line-writes/op","writer-locks/op","writer-lock-reads/op"]
out = sys.argv[1]
print("cores: 2\n")
for spec in sys.argv[2:]:
    impl, branch, seed = spec.split(":")
    rep = f"{out}/{branch}-{seed}.report"
    js = f"{out}/{branch}-{seed}.json"
    if not os.path.exists(js) or not os.path.exists(rep+"/locks.csv"):
        print(f"# {branch}-{seed}: missing", file=sys.stderr); continue
    d = json.load(open(js))
    ratio = {}
    for c in d["cells"]:
        if c["unit"] == "sec/op" and f"impl={impl}/" in c["name"] and c.get("ratio"):
            ratio[c["name"].rsplit("threads=",1)[1]] = c["ratio"]
    prof = {}
    for r in csv.DictReader(open(rep+"/locks.csv")):
        if f"impl={impl}/" in r["cell"] and r["cell"].endswith("threads=1"):
            prof.setdefault(r["arm"], {})[r["unit"]] = float(r["value"])
    ins = {}
    for r in csv.reader(open(rep+"/instructions.csv")):
        if r[0] == "cell" or f"impl={impl}/" not in r[0]: continue
        ins.setdefault(r[1], []).append(float(r[2]))
    for arm in ("base", "head"):
        p = prof.get(arm, {})
        line = f"BenchmarkHeld/change={branch}-{seed}/impl={impl}/arm={arm}/threads=1 1 {st.median(ins[arm])!r} instructions/op"
        for u in units:
            if u in p: line += f" {p[u]!r} {u}"
        if arm == "head":
            if "2" in ratio: line += f" {ratio['2']:.4f} measured-ratio-2t"
            if "1" in ratio: line += f" {ratio['1']:.4f} measured-ratio-1t"
        print(line)
