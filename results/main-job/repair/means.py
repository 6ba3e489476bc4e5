import sys,collections,statistics as st
for fn in sys.argv[1:]:
    d=collections.defaultdict(list); q=None
    for l in open(fn):
        if l.startswith('quarantined:'): q=l.split(':',1)[1].strip()
        if l.startswith('Benchmark') and q=='no' and 'Control' not in l:
            f=l.split(); vals={f[i+1]:float(f[i]) for i in range(2,len(f)-1,2)}
            d[f[0].replace('BenchmarkIssuer/impl=','').replace('/certs=1024/hit=1/cost=openssl','').replace('BenchmarkFloor/certs=1024/hit=1/','floor/')].append(vals['ns/op'] if 'Floor' in f[0] else vals['ns/call'])
    print(fn.split('/')[-1][:20], ' '.join(f"{k.split('/')[0][:5]}{k[-1]}:{st.mean(v):.0f}" for k,v in sorted(d.items())))
