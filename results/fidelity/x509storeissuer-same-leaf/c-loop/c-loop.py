"""python3 c-loop.py DIR: where a one-leaf lookup's time goes in perfrun's
process. For ct-K: perfrun's ns/call (mean over every window, set aside or
not, as the batches are) against the time per lookup inside C (batches of
1024 or more); and the median batch against the tool's median window (the
tool's set-aside windows left out). For gap-K: the time between one batch's end and
the next one's start in C, and the windows' yields."""
import sys, glob, statistics as st

d = sys.argv[1]

def rounds(path, cell):
    v = []
    for line in open(path):
        if line.startswith('Benchmark' + cell + ' '):
            f = line.split()
            v.append({f[i + 1]: float(f[i]) for i in range(2, len(f) - 1, 2)}['ns/call'])
    return v

def batches(path):
    return [tuple(int(x) for x in l.split()[1:]) for l in open(path) if l.startswith('ctime ')]

paths = 'Issuer/impl=openssl-paths/certs=1024/hit=0/leaves=1/threads=1'
print('| process | perfrun ns/call (mean of windows) | C ns/lookup (mean of batches) | C ÷ perfrun | C ns/lookup (median of batches) | tool ns/call (median of windows) | tool ÷ C, medians |')
print('|---|---:|---:|---:|---:|---:|---:|')
for p in sorted(glob.glob(f'{d}/ct-*.txt')):
    pr = st.mean(rounds(p, paths))
    big = [(t, n) for t, n, *_ in batches(p[:-4] + '.err') if n >= 1024]
    c = sum(t for t, _ in big) / sum(n for _, n in big)
    cm = st.median(t / n for t, n in big)
    tool = st.median(rounds(p, 'Issuer/impl=xsi/certs=1024/hit=0/leaves=1/threads=1'))
    print(f'| {p.rsplit("/", 1)[-1]} | {pr:.0f} | {c:.0f} | {c / pr:.3f} | {cm:.0f} | {tool:.0f} | {tool / cm:.3f} |')
print()
print('| process | batches | gap between batches, µs: p10 / median / p90 | yield, µs a batch (each window) | yield, ns a lookup (each window) |')
print('|---|---:|---|---|---|')
for p in sorted(glob.glob(f'{d}/gap-*.err')):
    b = batches(p)
    gaps = sorted(s1 - (s0 + t0) for (t0, n0, s0), (t1, n1, s1) in zip(b, b[1:]) if n0 >= 1024 and s1 - (s0 + t0) < 2_000_000)
    ys = [tuple(int(x) for x in l.split()[1:]) for l in open(p) if l.startswith('yield ')]
    print(f'| {p.rsplit("/", 1)[-1]} | {len(gaps)} | {gaps[len(gaps) // 10] / 1e3:.0f} / {st.median(gaps) / 1e3:.0f} / {gaps[9 * len(gaps) // 10] / 1e3:.0f} | '
          + ', '.join(f'{t / n / 1e3:.0f}' for t, n, _ in ys) + ' | ' + ', '.join(f'{t / o:.0f}' for t, _, o in ys) + ' |')
