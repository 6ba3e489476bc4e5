"""python3 table.py DIR: per library and thread count, x509storeissuer's
figure over perfrun's openssl-paths on one leaf (leaves=1) in each process,
by ns/call and by ns/op (wall time over all calls: the tool's own figure's
meaning at 2 threads), then the medians over processes; beside them the
tool's own spread and the control's."""
import glob, os, sys, statistics as st
from math import nan
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from medians import medians

d = sys.argv[1]
for lib in ('3.0', '4.0'):
    files = sorted(glob.glob(f'{d}/{lib}-*.txt'), key=lambda p: int(p.rsplit('-', 1)[1][:-4]))
    for t in (1, 2):
        paths = f'Issuer/impl=openssl-paths/certs=1024/hit=0/leaves=1/threads={t}'
        tool = f'Issuer/impl=xsi/certs=1024/hit=0/leaves=1/threads={t}'
        print(f'\n{lib}, {t} thread{"s" if t > 1 else ""}: {len(files)} processes (a row of nan: every round of a cell set aside)')
        print('| process | perfrun ns/call | ns/op | tool ns/call | tool ÷ perfrun by ns/call | by ns/op | tool rounds rsd | control rsd |')
        print('|---|---:|---:|---:|---:|---:|---:|---:|')
        a, b = [], []
        for p in files:
            c = medians(p)
            pc, po, x, xo = (c.get(k, (nan, nan))[0] for k in ((paths, 'ns/call'), (paths, 'ns/op'), (tool, 'ns/call'), (tool, 'ns/op')))
            if x == x and pc == pc:  # a cell with every round set aside has no median
                a.append(x / pc); b.append(xo / po)
            spread = [c.get((name, 'ns/call'), (nan, nan))[1] for name in (tool, f'Control/threads={t}')]
            print(f'| {p.rsplit("/", 1)[-1]} | {pc:.0f} | {po:.0f} | {x:.0f} | {x / pc:.3f} | {xo / po:.3f} | {spread[0]:.3f} | {spread[1]:.3f} |')
        print(f'| median | | | | {st.median(a):.3f} | {st.median(b):.3f} | | |')
