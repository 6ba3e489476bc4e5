"""Medians over processes: python3 medians.py DIR IMPL PARAMS LIBS, for the files DIR/*-LIB-*.txt
(such as: python3 medians.py real openssl certs=1024/hit=1 3.0,4.0)."""
import sys, glob, statistics as st
def parse(path):
    cells, aside = {}, False
    for line in open(path):
        line=line.rstrip('\n')
        if line.startswith('quarantined:'):
            aside = line.split(':',1)[1].strip() not in ('', 'no'); continue
        if not line.startswith('Benchmark') or aside: continue
        f=line.split(); v={f[i+1]:float(f[i]) for i in range(2,len(f)-1,2)}
        cells.setdefault(f[0][9:],[]).append(v)
    return cells
def med(c,n,u):
    v=[r[u] for r in c.get(n,[]) if u in r]; return st.median(v) if v else None
folder, impl, params, libs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(',')
for lib in libs:
    procs=[parse(p) for p in sorted(glob.glob(f'{folder}/*-{lib}-*.txt'))]
    n1=f'Issuer/impl={impl}/{params}/threads=1'; n2=f'Issuer/impl={impl}/{params}/threads=2'
    one=[med(c,n1,'ns/call') for c in procs]; two=[med(c,n2,'ns/call') for c in procs]
    sc=[med(c,n2,'ops/s')/med(c,n1,'ops/s') for c in procs]
    p2=[med(c,'Control/threads=2','ops/s')/med(c,'Control/threads=1','ops/s') for c in procs]
    print(f'{lib} {impl} {params}: t1 {st.median(one):.0f} {[round(x) for x in one]} | t2 {st.median(two):.0f} {[round(x) for x in two]} | scaling {st.median(sc):.2f} {[round(x,2) for x in sc]} | p(2) {st.median(p2):.2f}')
