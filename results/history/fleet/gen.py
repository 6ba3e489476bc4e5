#!/usr/bin/env python3
"""Results files for the fleet measurements of perfrun history.

gen.py writers DIR W N     W×N distinct files, 8 cells × 5 rounds each
gen.py fleet DIR C S M     C commits × S series on each of M machines: one
                           file per commit and machine; planted steps listed
                           in DIR/planted.txt
"""
import datetime, hashlib, os, random, sys

def header(commit, day, machine):
    date = (datetime.datetime(2026, 1, 1) + datetime.timedelta(minutes=day)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return f"cpu: Test CPU\ncores: 2\ngo: go1.26\nperfrun: {commit}\ndate: {date}\nmachine: {machine}\n\n"

def writers(d, w, n):
    os.makedirs(d, exist_ok=True)
    rng = random.Random(1)
    for k in range(w):
        for i in range(n):
            commit = "%040x" % (k * 100000 + i + 1)
            lines = [header(commit, k * n + i, "writer%02d" % k)]
            for c in range(8):
                for r in range(5):
                    lines.append(f"BenchmarkIssuer/impl=d{c}/threads=1 1 {100 * (1 + 0.02 * rng.random()):.3f} ns/op\n")
            open(os.path.join(d, f"w{k:02d}-{i:03d}.txt"), "w").write("".join(lines))

def fleet(d, commits, series, machines):
    os.makedirs(d, exist_ok=True)
    rng = random.Random(2)
    planted = []
    # Each machine: three series step at their own commits; series 0 steps
    # at commit 500 on every machine (one change, seen by all).
    steps = {}
    for m in range(machines):
        steps[(m, 0)] = (500, 0.10)
        for j in range(1, 4):
            s = rng.randrange(1, series)
            at = rng.randrange(100, commits - 100)
            steps[(m, s)] = (at, rng.choice([-1, 1]) * rng.choice([0.08, 0.12, 0.20]))
    for (m, s), (at, size) in sorted(steps.items()):
        planted.append(f"m{m} Issuer/impl=s{s:03d}/threads=1 at commit {at} ({hashlib.sha1(b'commit %d' % at).hexdigest()[:12]}) {size:+.2f}\n")
    open(os.path.join(d, "planted.txt"), "w").write("".join(planted))
    for m in range(machines):
        for c in range(commits):
            commit = hashlib.sha1(b"commit %d" % c).hexdigest()
            lines = [header(commit, c * 10, f"m{m}")]
            for s in range(series):
                level = 100.0 + s
                at, size = steps.get((m, s), (None, 0))
                if at is not None and c >= at:
                    level *= 1 + size
                for r in range(3):
                    lines.append(f"BenchmarkIssuer/impl=s{s:03d}/threads=1 1 {level * (1 + 0.03 * (2 * rng.random() - 1)):.4f} ns/op\n")
            open(os.path.join(d, f"m{m}-{c:04d}.txt"), "w").write("".join(lines))

if __name__ == "__main__":
    kind, d = sys.argv[1], sys.argv[2]
    args = [int(a) for a in sys.argv[3:]]
    {"writers": writers, "fleet": fleet}[kind](d, *args)
