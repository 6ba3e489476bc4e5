"""python3 table.py FILES...: per process, medians of ns/call of the
openssl-paths cells at leaves=all and leaves=1 and of the tool, and the
ratios; then the medians over processes."""
import sys, statistics as st
sys.path.insert(0, '.')
def parse(path):
    cells, aside = {}, False
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('quarantined:'):
            aside = line.split(':', 1)[1].strip() not in ('', 'no'); continue
        if not line.startswith('Benchmark') or aside: continue
        f = line.split()
        vals = {f[i + 1]: float(f[i]) for i in range(2, len(f) - 1, 2)}
        cells.setdefault(f[0][len('Benchmark'):], []).append(vals)
    return cells
def med(c, name, unit='ns/call'):
    v = [r[unit] for r in c.get(name, []) if unit in r]
    return st.median(v) if v else float('nan')
cols = [('paths all', 'Issuer/impl=openssl-paths/certs=1024/hit=0/threads=1'),
        ('paths 1', 'Issuer/impl=openssl-paths/certs=1024/hit=0/leaves=1/threads=1'),
        ('xsi all', 'Issuer/impl=xsi/certs=1024/hit=0/threads=1'),
        ('xsi 1', 'Issuer/impl=xsi/certs=1024/hit=0/leaves=1/threads=1'),
        ('control', 'Control/threads=1')]
print('| process | ' + ' | '.join(c[0] for c in cols) + ' | xsi ÷ paths all | xsi ÷ paths 1 | xsi 1 ÷ xsi all |')
print('|---|' + '---:|' * (len(cols) + 3))
R = {k: [] for k in ('a', 'b', 'c')}
for p in sys.argv[1:]:
    c = parse(p)
    v = [med(c, n) for _, n in cols]
    xsi = st.median([v[2], v[3]])
    r = (xsi / v[0], xsi / v[1], v[3] / v[2])
    for k, x in zip('abc', r): R[k].append(x)
    print(f'| {p} | ' + ' | '.join(f'{x:.0f}' if x > 100 else f'{x:.1f}' for x in v) + ' | ' + ' | '.join(f'{x:.3f}' for x in r) + ' |')
print('| median | | | | | | ' + ' | '.join(f'{st.median(R[k]):.3f}' for k in 'abc') + ' |')
