"""Medians over processes of the fidelity runs: python3 medians.py issuer|load DIR."""
import sys, glob, statistics as st
def parse(path):
    cells = {}
    aside = False
    for line in open(path):
        line=line.rstrip('\n')
        if line.startswith('quarantined:'):
            aside = line.split(':',1)[1].strip() not in ('', 'no')
            continue
        if not line.startswith('Benchmark') or aside: continue
        f=line.split()
        name=f[0][len('Benchmark'):]
        vals={}
        for i in range(2,len(f)-1,2):
            vals[f[i+1]]=float(f[i])
        cells.setdefault(name,[]).append(vals)
    return cells
def med(cells, name, unit):
    v=[r[unit] for r in cells.get(name,[]) if unit in r]
    return st.median(v) if v else None
kind, folder = sys.argv[1], sys.argv[2]
for v in ['3.0','4.0']:
    files=sorted(glob.glob(f'{folder}/{kind}-{v}-*.txt'))
    procs=[parse(p) for p in files]
    print(f'== {v}: {len(files)} processes')
    if kind=='issuer':
        for impl in ['sorted','hashmap','openssl']:
            one=[med(c,f'Issuer/impl={impl}/certs=1024/hit=1/threads=1','ns/call') for c in procs]
            two=[med(c,f'Issuer/impl={impl}/certs=1024/hit=1/threads=2','ns/call') for c in procs]
            sc=[med(c,f'Issuer/impl={impl}/certs=1024/hit=1/threads=2','ops/s')/med(c,f'Issuer/impl={impl}/certs=1024/hit=1/threads=1','ops/s') for c in procs]
            print(impl, 'ns/call t1', [round(x,1) for x in one], 'med', round(st.median(one),1), '| t2', [round(x,1) for x in two], 'med', round(st.median(two),1), '| scaling', [round(x,2) for x in sc], 'med', round(st.median(sc),2))
        p2=[med(c,'Control/threads=2','ops/s')/med(c,'Control/threads=1','ops/s') for c in procs]
        print('control p(2)', [round(x,2) for x in p2], 'med', round(st.median(p2),2))
    else:
        for impl in ['sorted','hashmap','openssl']:
            row=[]
            for n in [128,1024,16384]:
                names=[k for k in procs[0] if k.startswith(f'Load/impl={impl}/') and f'/n={n}/' in k+'/']
                vals=[med(c,names[0],'ns/add') for c in procs] if names else []
                bpo=[med(c,names[0],'B/object') for c in procs] if names else []
                row.append((n,[round(x) for x in vals], round(st.median(vals)) if vals else None, round(st.median(bpo)) if bpo and None not in bpo else None))
            print(impl, row)
