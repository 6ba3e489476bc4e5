"""python3 table.py FILES...: per process, medians of ns/call of the
openssl-paths cells at leaves=all and leaves=1 and of the tool, and the
ratios; then the medians over processes."""
import os, sys, statistics as st
from math import nan
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from medians import medians

cols = [('paths all', 'Issuer/impl=openssl-paths/certs=1024/hit=0/threads=1'),
        ('paths 1', 'Issuer/impl=openssl-paths/certs=1024/hit=0/leaves=1/threads=1'),
        ('xsi all', 'Issuer/impl=xsi/certs=1024/hit=0/threads=1'),
        ('xsi 1', 'Issuer/impl=xsi/certs=1024/hit=0/leaves=1/threads=1'),
        ('control', 'Control/threads=1')]
print('| process | ' + ' | '.join(c[0] for c in cols) + ' | xsi ÷ paths all | xsi ÷ paths 1 | xsi 1 ÷ xsi all |')
print('|---|' + '---:|' * (len(cols) + 3))
R = {k: [] for k in 'abc'}
for p in sys.argv[1:]:
    c = medians(p)
    v = [c.get((n, 'ns/call'), (nan, nan))[0] for _, n in cols]
    xsi = st.median([v[2], v[3]])
    r = (xsi / v[0], xsi / v[1], v[3] / v[2])
    for k, x in zip('abc', r):
        R[k].append(x)
    print(f'| {p} | ' + ' | '.join(f'{x:.0f}' if x > 100 else f'{x:.1f}' for x in v) + ' | ' + ' | '.join(f'{x:.3f}' for x in r) + ' |')
print('| median | | | | | | ' + ' | '.join(f'{st.median(R[k]):.3f}' for k in 'abc') + ' |')
