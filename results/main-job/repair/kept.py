import sys,collections
for fn in sys.argv[1:]:
    d=collections.Counter(); q=None
    for l in open(fn):
        if l.startswith('quarantined:'): q=l.split(':',1)[1].strip()
        if l.startswith('Benchmark') and q=='no' and 'Control' not in l:
            d[l.split()[0].replace('BenchmarkIssuer/impl=','').replace('/certs=1024/hit=1/cost=openssl','').replace('BenchmarkFloor/certs=1024/hit=1/','floor/')]+=1
    print(fn.split('/')[-1][:22], ' '.join(f"{k.split('/')[0][:4]}{k[-1]}:{v}" for k,v in sorted(d.items())), ' min', min(d.values()))
